import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { ApolloServer } from "@apollo/server";
import { ApolloServerPluginDrainHttpServer } from "@apollo/server/plugin/drainHttpServer";
import { ApolloServerPluginLandingPageDisabled } from "@apollo/server/plugin/disabled";
import { ApolloServerPluginLandingPageLocalDefault } from "@apollo/server/plugin/landingPage/default";
import { expressMiddleware } from "@as-integrations/express5";
import compression from "compression";
import express from "express";
import { GraphQLError } from "graphql";
import { useServer } from "graphql-ws/use/ws";
import { WebSocketServer } from "ws";
import { restRoutes } from "./rest-routes";
import { createRestRouter, REST_PREFIXES } from "./rest/router";
import type { Config } from "./platform/config";
import type { GraphQLContext } from "./graphql/context";
import { budgetedOperations, budgetPlugin, operationRules, PARSE_OPTIONS, tooLong } from "./graphql/budget";
import { limitExecutionTime } from "./graphql/deadline";
import { formatExecutionErrors, formatGraphQLError } from "./graphql/errors";
import { createSchema } from "./schema";
import { RevocableSockets } from "./auth/ws-revocation";
import { resumeInterruptedParsing } from "./knowledge/parse.job";
import { closeBuiltinModels } from "./models/builtin/builtin.provider";
import { createPlatform, type Platform } from "./platform";
import { inlineScriptsOf, securityHeaders } from "./rest/security-headers";
import { DomainError, unexpectedError } from "./platform/errors";
import { graphqlWritesNulCharacter, holdsNulCharacter } from "./platform/sql";
import { createServices, type Services } from "./services";
import { listenAddressOf } from "./listen-address";
import { platformParts } from "./platform-parts";
import { upgradeSearchTerms } from "./knowledge/search-terms-upgrade";

export const GRAPHQL_PATH = "/graphql";
/**
 * The largest graphql-ws message, checked by ws before anything reads it, authenticated or not. The largest
 * legitimate one is a query with its variables (documents are at most 3,000 tokens: graphql/budget.ts).
 */
const MAX_WEBSOCKET_MESSAGE_BYTES = 1024 * 1024;
/** A socket that has not sent connection_init by then is closed (4408), so idle sockets cannot pile up. */
const CONNECTION_INIT_TIMEOUT_MS = 3000;

export interface RunningServer {
  /** A URL that reaches the server from this machine. */
  url: string;
  /** What the socket is bound to, as the start log says it. */
  bound: string;
  platform: Platform;
  services: Services;
  close(): Promise<void>;
}

function connectionAuthorization(params: Record<string, unknown> | undefined): string | undefined {
  const value = params?.authorization ?? params?.Authorization;
  return typeof value === "string" ? value : undefined;
}

/** The share page's visitor id, from a header or a graphql-ws connection parameter. */
function visitorIdOf(value: unknown): string | null {
  const id = Array.isArray(value) ? value[0] : value;
  return typeof id === "string" && id.trim() !== "" ? id.trim().slice(0, 255) : null;
}

/** A WebSocket upgrade's client address by express's own `trust proxy` rule, as `req.ip` reads it for HTTP requests. */
function upgradeAddress(app: express.Express, request: http.IncomingMessage): string | undefined {
  return (Object.create(app.request, { headers: { value: request.headers }, socket: { value: request.socket } }) as express.Request).ip;
}

/** The built client, with every unknown GET path answered by index.html so that client-side routes survive a reload. */
function serveClient(app: express.Express, clientDir: string): void {
  const index = path.join(clientDir, "index.html");
  if (!fs.existsSync(index)) {
    app.get("/", (_req, res) => {
      res.type("text/plain").send("Cairn's server is running, but the client is not built. Run `npm run build` (npm start does it).");
    });
    return;
  }
  // Compressed here rather than by a proxy, so that a bare `npm start` serves the client at its gzip size.
  app.use(compression());
  const hashedAssets = path.join(clientDir, "assets") + path.sep;
  app.use(
    express.static(clientDir, {
      index: false,
      maxAge: "1y",
      immutable: true,
      // Only Vite's output under assets/ carries a content hash in its name. The rest keeps its name across releases
      // (index.html, the favicon, /embed/chat-widget.js that other websites load): revalidated by ETag on every use.
      setHeaders: (res, file) => {
        if (!file.startsWith(hashedAssets)) res.setHeader("Cache-Control", "no-cache");
      },
    }),
  );
  app.get(/.*/, (req, res, next) => {
    if (req.path.startsWith(GRAPHQL_PATH) || REST_PREFIXES.some((p) => req.path.startsWith(p))) return next();
    res.setHeader("Cache-Control", "no-cache");
    res.sendFile(index);
  });
}

/** Over HTTP, the budget's document limit is checked before Apollo parses, which has no hook that could answer it. */
function refuseLongDocuments(req: express.Request, res: express.Response, next: express.NextFunction): void {
  const error = tooLong((req.body as { query?: unknown } | undefined)?.query ?? req.query.query);
  if (error) refuseGraphQLRequest(res, error);
  else next();
}

/** A GraphQL request refused before it runs, answered as GraphQL answers errors. */
function refuseGraphQLRequest(res: express.Response, error: DomainError): void {
  res.status(error.httpStatus).json({ errors: [{ message: error.message, extensions: error.extensions }] });
}

/**
 * A GraphQL request holding U+0000, written in its documents (or in a variables string) or held by its values, is
 * refused with a translated error before anything runs: PostgreSQL's text cannot store it, so a name or a question
 * with it would otherwise fail deep in a write as an internal error. Null when the request is clear of it.
 */
function nulCharacterRefusal(documents: unknown[], values: unknown): DomainError | null {
  const written = documents.some((document) => typeof document === "string" && graphqlWritesNulCharacter(document));
  return written || holdsNulCharacter(values) ? new DomainError("BAD_REQUEST", "errors.nulCharacter") : null;
}

/** Over HTTP (POST's body, GET's query string). */
function refuseNulCharacters(req: express.Request, res: express.Response, next: express.NextFunction): void {
  const error = nulCharacterRefusal([(req.body as { query?: unknown } | undefined)?.query, req.query.query, req.query.variables], [req.body, req.query]);
  if (error) refuseGraphQLRequest(res, error);
  else next();
}

/**
 * The last word on an error that nothing before answered: express's own (a path that is not valid
 * percent-encoding, a GraphQL body that is not JSON or too large) and any unexpected one. Express's default
 * handler would answer with the message and, outside production, the stack; this answers as GraphQL does.
 */
function answerUnhandledError(error: unknown, _req: express.Request, res: express.Response, next: express.NextFunction): void {
  if (res.headersSent) return next(error);
  const status = (error as { status?: unknown }).status;
  const answer =
    status === 413
      ? new DomainError("PAYLOAD_TOO_LARGE", "httpStatus.413")
      : typeof status === "number" && status >= 400 && status < 500
        ? new DomainError("BAD_REQUEST", "httpStatus.400")
        : unexpectedError("http", error);
  res.status(answer.httpStatus).json({ errors: [{ message: answer.message, extensions: answer.extensions }] });
}

/**
 * Boots one server process: the platform ports, the domain services, GraphQL over HTTP and graphql-ws,
 * the REST facade, the built client and the in-process job workers, all on one port.
 */
export async function startServer(config: Config): Promise<RunningServer> {
  const platform = await createPlatform(config, platformParts);
  const services = createServices(platform);
  const reanalysed = await upgradeSearchTerms(platform.db);
  if (reanalysed > 0) console.log(`[search] analysed the terms of ${reanalysed} chunks again (the text analysis changed)`);
  const schema = limitExecutionTime(await createSchema(platform.pubsub), config.graphqlBudget.timeoutMs);
  const rules = operationRules(config.graphqlBudget, config.graphqlIntrospection);
  const subscriptionOperation = budgetedOperations(schema, config.graphqlBudget, rules);

  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", config.trustProxy);
  const index = path.join(config.clientDir, "index.html");
  app.use(
    securityHeaders({
      inlineScripts: fs.existsSync(index) ? inlineScriptsOf(fs.readFileSync(index, "utf8")) : [],
      embedAllowedOrigins: config.embedAllowedOrigins,
      apiPrefixes: [...REST_PREFIXES, "/healthz"],
      graphqlPath: GRAPHQL_PATH,
    }),
  );
  const httpServer = http.createServer(app);
  httpServer.keepAliveTimeout = config.httpKeepAliveSeconds * 1000;

  const wsServer = new WebSocketServer({ server: httpServer, path: GRAPHQL_PATH, maxPayload: MAX_WEBSOCKET_MESSAGE_BYTES });
  const revocableSockets = new RevocableSockets(platform.pubsub);
  wsServer.once("close", () => void revocableSockets.close());
  const wsCleanup = useServer<Record<string, unknown>>(
    {
      schema,
      connectionInitWaitTimeout: CONNECTION_INIT_TIMEOUT_MS,
      onSubscribe: (_ctx, _id, payload) => {
        const refused = nulCharacterRefusal([payload.query], payload.variables);
        if (refused) return [new GraphQLError(refused.message, { originalError: refused, extensions: refused.extensions })];
        return subscriptionOperation(payload);
      },
      context: async (ctx): Promise<GraphQLContext> => {
        const principal = await services.principalFor(connectionAuthorization(ctx.connectionParams));
        revocableSockets.track(ctx.extra.socket, principal);
        return {
          services,
          principal,
          visitorId: visitorIdOf(ctx.connectionParams?.["x-visitor-id"] ?? ctx.connectionParams?.["X-Visitor-Id"]),
          clientAddress: upgradeAddress(app, ctx.extra.request),
        };
      },
      onNext: (_ctx, _id, _payload, _args, result) =>
        "errors" in result && result.errors ? { ...result, errors: formatExecutionErrors(result.errors) } : result,
    },
    wsServer,
  );

  const apollo = new ApolloServer<GraphQLContext>({
    schema,
    // main.ts stops the whole server on SIGINT/SIGTERM; Apollo's own handler would race it and never settle.
    stopOnTerminationSignals: false,
    formatError: formatGraphQLError,
    // formatGraphQLError decides what of an error leaves the server; stack traces never do, they are logged.
    includeStacktraceInErrorResponses: false,
    parseOptions: PARSE_OPTIONS,
    validationRules: rules,
    // Refused or not by `rules` (config.graphqlIntrospection), the same way over graphql-ws.
    introspection: true,
    plugins: [
      ApolloServerPluginDrainHttpServer({ httpServer }),
      config.graphqlIntrospection
        ? ApolloServerPluginLandingPageLocalDefault({ embed: true, includeCookies: false })
        : ApolloServerPluginLandingPageDisabled(),
      budgetPlugin(config.graphqlBudget),
      { serverWillStart: async () => ({ drainServer: async () => wsCleanup.dispose() }) },
    ],
  });
  await apollo.start();

  app.get("/healthz", (_req, res) => {
    res.json({ status: "ok" });
  });
  app.use(
    GRAPHQL_PATH,
    express.json({ limit: "16mb" }),
    refuseLongDocuments,
    refuseNulCharacters,
    expressMiddleware(apollo, {
      context: async ({ req }) => ({
        services,
        principal: await services.principalFor(req.headers.authorization),
        visitorId: visitorIdOf(req.headers["x-visitor-id"]),
        clientAddress: req.ip,
      }),
    }),
  );
  app.use(createRestRouter(services, restRoutes));
  serveClient(app, config.clientDir);
  app.use(answerUnhandledError);

  await new Promise<void>((resolve, reject) => {
    httpServer.once("error", reject);
    httpServer.listen(config.port, config.host, resolve);
  });
  platform.queue.start(services, { background: config.jobConcurrency, interactive: config.interactiveJobConcurrency });
  const resumed = await resumeInterruptedParsing(services);
  if (resumed > 0) console.log(`[ingestion] resumed parsing of ${resumed} document(s) interrupted by the last shutdown`);
  const resumedTasks = await services.kbTasks.resumeInterrupted();
  if (resumedTasks > 0) console.log(`[knowledge] resumed ${resumedTasks} RAPTOR/GraphRAG task(s) interrupted by the last shutdown`);
  const interrupted = await services.conversations.closeInterruptedAnswers();
  if (interrupted > 0) console.log(`[chat] ${interrupted} answer(s) interrupted by the last shutdown marked failed`);
  const interruptedSearches = await services.search.closeInterruptedAnswers();
  if (interruptedSearches > 0) console.log(`[search] ${interruptedSearches} summary answer(s) interrupted by the last shutdown marked failed`);
  await services.bin.startPurging();
  services.postingsPacker.start();
  const interruptedRuns = await services.flowRuns.closeInterruptedRuns();
  if (interruptedRuns > 0) console.log(`[flows] ${interruptedRuns} flow run(s) interrupted by the last shutdown marked failed`);

  const { url, bound } = listenAddressOf(httpServer.address() as AddressInfo);
  return {
    url,
    bound,
    platform,
    services,
    close: async () => {
      await apollo.stop();
      await platform.queue.close();
      await services.close();
      await platform.close();
      await closeBuiltinModels();
    },
  };
}
