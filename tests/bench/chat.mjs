// npm run bench:chat [-- <BEIR directory for the knowledge part, default ../shared/bench/squad2>]
//
// Chat streaming through Cairn with a model that answers at a fixed pace: the paced OpenAI-compatible
// server (server/src/models/testing/paced-openai-server.ts) runs in a child process, is added to the bench
// tenant as an OpenAI-API-Compatible chat model, and assistants use it. Everything goes through the product's
// surfaces: the `ask` mutation over HTTP, then the `answerStream` subscription over graphql-ws.
//
// 1. Time Cairn adds to the first token: for questions asked one at a time, the time from sending `ask` to
//    the first answer text on the subscription, minus the model server's own time to first token for that
//    request (measured by the model server from the request's arrival). Measured with an assistant without
//    knowledge (no retrieval: the pipeline, the model call, persistence and pub/sub alone) and with one over a
//    knowledge base (retrieval time, from the answer's debug prompt, reported separately).
// 2. Concurrent streams: BENCH_STREAMS (default 1000; a list "100,500,1000" runs each) conversations ask at
//    once from a child process (chat-client.mjs), each on its own graphql-ws connection. Every token carries
//    its index, so each client checks the answer it ends up with (the final event's whole content: complete,
//    in order, status done) and the text the live events built (nothing repeated or out of order; how many
//    tokens reached it only with the final event, e.g. because its ask returned after the model had finished).
//    Each token's delay is measured from the moment the model server's fixed schedule wrote it to the moment it
//    reached the client, whichever event brought it: a token that a late subscriber got in its first snapshot
//    counts with its real delay. A stream is live when every token came within LIVE_BOUND_MS (1 s).
//
// Settings: BENCH_TTFT_QUESTIONS (default 30), BENCH_TOKENS_PER_SECOND (default 20), BENCH_ANSWER_TOKENS
// (default 100), BENCH_MODEL_FIRST_TOKEN_MS (default 50), BENCH_LIMIT (documents of the knowledge part,
// default 200). Ends with the figures (the "targets" of tests/bench/results/chat.json, which it writes):
// of the largest run, the streams that got every token live, tokens lost or reordered, first token and whole
// answer p50/p95 beside the model's own, and the time Cairn adds to the first token one question at a time,
// without knowledge (target: at most 10 ms at p50) and with it (target: at most retrieval + 10 ms).
import { fork, spawn } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import readline from "node:readline";
import { askAndFollow, connect } from "./chat-client.mjs";
import { ingestCorpus, loadBeir, machine, readJsonLines, root, writeResult } from "./beir.mjs";

const require = createRequire(import.meta.url);
const { startServer } = require(path.join(root, "server/dist/app.js"));
const { loadConfig } = require(path.join(root, "server/dist/platform/config.js"));
// The build leaves testing helpers out: the paced server runs from its source, compiled as tests compile it.
const registerTs = path.join(root, "server/src/testing/register-ts.cjs");
require(registerTs);
const pacedModule = path.join(root, "server/src/models/testing/paced-openai-server.ts");
const { checkPacedText } = require(pacedModule);

const env = (name, fallback) => Number(process.env[name] ?? fallback);
const TTFT_QUESTIONS = env("BENCH_TTFT_QUESTIONS", 30);
const TOKENS_PER_SECOND = env("BENCH_TOKENS_PER_SECOND", 20);
const ANSWER_TOKENS = env("BENCH_ANSWER_TOKENS", 100);
const MODEL_FIRST_TOKEN_MS = env("BENCH_MODEL_FIRST_TOKEN_MS", 50);
/** A token is live when it reaches its client within this long after the model wrote it. */
const LIVE_BOUND_MS = 1000;
const STREAMS = String(process.env.BENCH_STREAMS ?? "1000").split(",").map(Number).filter((n) => n > 0);
const corpusDirectory = process.argv[2] ?? path.join(root, "../shared/bench/squad2");

const percentile = (values, p) => (values.length === 0 ? null : [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))]);
const round = (n, digits = 1) => (n === null || n === undefined ? null : Number(n.toFixed(digits)));
const summary = (values) => ({ p50: round(percentile(values, 50)), p95: round(percentile(values, 95)), max: round(values.length ? Math.max(...values) : null), n: values.length });
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The paced model server in its own process, so that its timers do not wait on Cairn's event loop. */
async function startModelServer() {
  const child = spawn(
    process.execPath,
    ["-r", registerTs, pacedModule, "--tokens-per-second", String(TOKENS_PER_SECOND), "--answer-tokens", String(ANSWER_TOKENS), "--first-token-ms", String(MODEL_FIRST_TOKEN_MS)],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  const line = await new Promise((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`the paced model server exited (${code})`)));
    readline.createInterface({ input: child.stdout }).once("line", resolve);
  });
  const { url } = JSON.parse(line);
  const origin = url.replace(/\/v1$/, "");
  return {
    url,
    requests: async () => (await (await fetch(`${origin}/_paced/requests`)).json()),
    clear: () => fetch(`${origin}/_paced/requests`, { method: "DELETE" }),
    close: () => new Promise((resolve) => (child.exitCode !== null ? resolve() : (child.once("exit", resolve), child.kill("SIGTERM")))),
  };
}

const model = await startModelServer();
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cairn-bench-chat-"));
const config = loadConfig({
  ...process.env,
  DATA_DIR: dataDir,
  PORT: "0",
  HOST: "127.0.0.1",
  CLIENT_DIR: path.join(dataDir, "no-client"),
  MODEL_CACHE_DIR: process.env.MODEL_CACHE_DIR ?? path.join(os.tmpdir(), "cairn-model-cache"),
});
const server = await startServer(config);
const { services } = server;
const sockets = [];
try {
  const email = `bench-chat-${Date.now()}@example.com`;
  await services.auth.register({ email, nickname: "bench", password: "bench password 1" });
  const { token } = await services.auth.login({ email, password: "bench password 1", remember: false });
  const principal = await services.principalFor(`Bearer ${token}`);
  const graphqlUrl = `${server.url}/graphql`;
  const wsUrl = graphqlUrl.replace(/^http/, "ws");

  const connectClient = () => {
    const client = connect(wsUrl, token);
    sockets.push(client);
    return client;
  };

  const entry = await services.models.addEntry(principal, {
    provider: "OpenAI-API-Compatible",
    modelName: "paced-chat",
    modelType: "chat",
    credentials: { baseUrl: model.url, apiKey: "" },
  });
  const chatModel = `${entry.modelName}@OpenAI-API-Compatible`;

  // ---- 1. time added to the first token ------------------------------------------------------------
  /**
   * Asks `questions` one at a time (after two warm-up questions). Each question must be unique: the model
   * server's measurement of the request is found by it.
   */
  async function firstTokenOverhead(assistantId, label, questions) {
    const client = connectClient();
    const rows = [];
    for (let i = 0; i < questions.length; i++) {
      const conversation = await services.conversations.create({ principal }, assistantId, { name: `${label} ${i}` });
      const question = questions[i];
      const result = await askAndFollow({ graphqlUrl, token, client, conversationId: conversation.id, question });
      if (process.env.BENCH_DEBUG) console.log(label, i, JSON.stringify(result).slice(0, 400));
      if (i < 2) continue; // warm-up: first connections to the model server, first statements prepared
      const served = (await model.requests()).requests.find((r) => r.question === question);
      const message = await services.conversations.message({ principal }, result.answerId);
      const retrieval = /-\s*Retrieval:\s*([\d.]+)ms/.exec(message.prompt ?? "");
      rows.push({
        throughCairn: result.firstText,
        model: served?.firstTokenMs ?? null,
        // Before the model: from sending `ask` to the model request's arrival; after it: from the model's
        // first token to the client's first text (both processes read one machine's clock).
        beforeModel: served ? served.arrivedAt - result.sentAt : null,
        afterModel: served && result.firstText !== null ? result.sentAt + result.firstText - (served.arrivedAt + served.firstTokenMs) : null,
        ask: result.askMs,
        retrieval: retrieval ? Number(retrieval[1]) : 0,
        emptyResponse: !served,
        ok: result.status === "done" && checkPacedText(result.final ?? "", ANSWER_TOKENS).ok,
      });
    }
    await client.dispose();
    const valid = rows.filter((r) => r.throughCairn !== null && r.model !== null);
    return {
      questions: rows.length,
      completeAnswers: rows.filter((r) => r.ok).length,
      emptyResponses: rows.filter((r) => r.emptyResponse).length,
      firstTokenThroughCairnMs: summary(valid.map((r) => r.throughCairn)),
      modelFirstTokenMs: summary(valid.map((r) => r.model)),
      addedMs: summary(valid.map((r) => r.throughCairn - r.model)),
      askMutationMs: summary(valid.map((r) => r.ask)),
      beforeModelMs: summary(valid.map((r) => r.beforeModel)),
      afterModelMs: summary(valid.map((r) => r.afterModel)),
      retrievalMs: summary(valid.map((r) => r.retrieval)),
      addedBesidesRetrievalMs: summary(valid.map((r) => r.throughCairn - r.model - r.retrieval)),
    };
  }
  const describe = (r) =>
    `through Cairn p50 ${r.firstTokenThroughCairnMs.p50} ms, the model's own p50 ${r.modelFirstTokenMs.p50} ms → Cairn adds p50 ${r.addedMs.p50} ms, p95 ${r.addedMs.p95} ms ` +
    `(before the model request p50 ${r.beforeModelMs.p50} ms, of which the ask mutation's round trip ${r.askMutationMs.p50} ms and retrieval ${r.retrievalMs.p50} ms; after the model's first token p50 ${r.afterModelMs.p50} ms); ` +
    `besides retrieval p50 ${r.addedBesidesRetrievalMs.p50} ms, p95 ${r.addedBesidesRetrievalMs.p95} ms; ${r.completeAnswers}/${r.questions} complete answers`;

  const plain = await services.assistants.create(principal, {
    name: "bench plain",
    chatModel,
    knowledgeBaseIds: [],
    systemPrompt: "You are a helpful assistant.",
    promptVariables: [{ key: "knowledge", optional: true }],
  });
  const plainQuestions = Array.from({ length: TTFT_QUESTIONS + 2 }, (_, i) => `Question number ${i}: what can you tell me about the Normans?`);
  const withoutKnowledge = await firstTokenOverhead(plain.id, "plain", plainQuestions);
  console.log(`first token, no knowledge (${withoutKnowledge.questions} questions one at a time): ${describe(withoutKnowledge)}`);

  let withKnowledge = null;
  if (fs.existsSync(path.join(corpusDirectory, "corpus.jsonl"))) {
    const beir = loadBeir(corpusDirectory);
    const corpus = beir.corpus.slice(0, env("BENCH_LIMIT", 200));
    const { kb } = await ingestCorpus({ services, principal }, `${beir.name}-chat`, corpus);
    const grounded = await services.assistants.create(principal, { name: "bench knowledge", chatModel, knowledgeBaseIds: [kb.id] });
    // The set's own questions about the ingested documents (qa.jsonl, else queries.jsonl), each asked once.
    const ingested = new Set(corpus.map((d) => d._id));
    const qaFile = path.join(corpusDirectory, "qa.jsonl");
    const candidates = fs.existsSync(qaFile)
      ? readJsonLines(qaFile).filter((q) => !q.is_impossible && ingested.has(q.context_id)).map((q) => q.question)
      : beir.queries.filter((q) => [...(beir.qrels.get(q._id)?.keys() ?? [])].some((id) => ingested.has(id))).map((q) => q.text);
    const questions = [...new Set(candidates)].slice(0, TTFT_QUESTIONS + 2);
    withKnowledge = { corpus: beir.name, documents: kb.documentCount, chunks: kb.chunkCount, ...(await firstTokenOverhead(grounded.id, "grounded", questions)) };
    console.log(`first token over ${kb.chunkCount} chunks (${withKnowledge.emptyResponses} questions answered with the empty response, no model call): ${describe(withKnowledge)}`);
  }

  // ---- 2. concurrent streams -----------------------------------------------------------------------
  /** The clients in a child process (one graphql-ws connection each): all connect, then all ask at once. */
  function runClients(jobs) {
    return new Promise((resolve, reject) => {
      const child = fork(path.join(path.dirname(new URL(import.meta.url).pathname), "chat-client.mjs"), ["--child"], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
      let connectedAt = null;
      child.on("message", (message) => {
        if (message.type === "connected") connectedAt = performance.now();
        else if (message.type === "results") resolve({ results: message.results, connectedAt });
      });
      child.once("exit", (code) => (code === 0 ? undefined : reject(new Error(`the clients' process exited (${code})`))));
      child.send({ graphqlUrl, wsUrl, token, jobs });
    });
  }

  async function concurrentStreams(count) {
    const jobs = [];
    for (let i = 0; i < count; i++) {
      const conversation = await services.conversations.create({ principal }, plain.id, { name: `stream ${i}` });
      jobs.push({ conversationId: conversation.id, question: `stream ${i}: tell me everything` });
    }
    await model.clear();
    let peak = 0;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        peak = Math.max(peak, (await model.requests()).open);
        await sleep(250);
      }
    })();
    const { results } = await runClients(jobs);
    sampling = false;
    await sampler;
    const served = (await model.requests()).requests;
    let lost = 0;
    let misplaced = 0;
    let complete = 0;
    let liveComplete = 0;
    let liveMissing = 0;
    let lateSubscribers = 0;
    const beforeModel = [];
    const tokenDelays = [];
    let liveWithinBound = 0;
    const failures = [];
    for (const r of results) {
      const final = checkPacedText(r.final ?? "", ANSWER_TOKENS);
      const live = checkPacedText(r.live, ANSWER_TOKENS);
      lost += final.missing;
      misplaced += final.misplaced + live.misplaced;
      liveMissing += live.missing;
      if (live.ok) liveComplete++;
      // Subscribed only after the model had sent its last token: its events had all been published already.
      const request = served.find((q) => q.question === jobs[results.indexOf(r)].question);
      if (request) beforeModel.push(request.arrivedAt - r.sentAt);
      // Each token's delay: from the moment the model server's fixed schedule wrote it to the moment it reached
      // the client, whichever event brought it (a live delta, the snapshot a subscriber starts from, the final event).
      if (request) {
        const delays = Array.from({ length: ANSWER_TOKENS }, (_, i) => r.tokenAt[i] - (request.arrivedAt + MODEL_FIRST_TOKEN_MS + (i * 1000) / TOKENS_PER_SECOND));
        tokenDelays.push(...delays.filter(Number.isFinite));
        if (delays.every((delay) => delay <= LIVE_BOUND_MS)) liveWithinBound++;
      }
      if (request?.durationMs && r.askMs !== null && r.sentAt + r.askMs > request.arrivedAt + request.durationMs) lateSubscribers++;
      const ok = final.ok && live.misplaced === 0 && r.status === "done" && !r.error;
      if (ok) complete++;
      else if (failures.length < 5) failures.push({ status: r.status, error: r.error, missing: final.missing, misplaced: final.misplaced + live.misplaced, seqs: r.seqs.join(",") });
    }
    return {
      streams: count,
      complete,
      lostTokens: lost,
      misplacedTokens: misplaced,
      streamsWithEveryTokenLive: liveComplete,
      streamsWithEveryTokenWithinBound: liveWithinBound,
      tokenDelayMs: summary(tokenDelays),
      tokensOnlyInFinalEvent: liveMissing,
      catchUpEvents: results.reduce((sum, r) => sum + r.catchUps, 0),
      subscribedAfterModelFinished: lateSubscribers,
      peakOpenModelStreams: peak,
      askMs: summary(results.filter((r) => r.askMs !== null).map((r) => r.askMs)),
      // From sending `ask` to the model request's arrival at the model server.
      beforeModelMs: summary(beforeModel),
      firstTokenMs: summary(results.filter((r) => r.firstText !== null).map((r) => r.firstText)),
      wholeAnswerMs: summary(results.filter((r) => r.durationMs).map((r) => r.durationMs)),
      modelAnswerMs: (ANSWER_TOKENS - 1) * (1000 / TOKENS_PER_SECOND) + MODEL_FIRST_TOKEN_MS,
      failures,
    };
  }

  const concurrency = [];
  for (const count of STREAMS) {
    const run = await concurrentStreams(count);
    concurrency.push(run);
    console.log(
      `${count} concurrent streams (${ANSWER_TOKENS} tokens at ${TOKENS_PER_SECOND}/s each; clients in another process, one graphql-ws connection each): ` +
        `${run.complete} complete answers in order, ${run.lostTokens} tokens lost, ${run.misplacedTokens} repeated or out of order; ` +
        `${run.streamsWithEveryTokenLive} streams got every token before the final event (${run.tokensOnlyInFinalEvent} tokens came only with it, ${run.subscribedAfterModelFinished} subscribers arrived after the model had finished; ${run.catchUpEvents} catch-up events); ` +
        `a token reached its client p50 ${run.tokenDelayMs.p50} ms, p95 ${run.tokenDelayMs.p95} ms, max ${run.tokenDelayMs.max} ms after the model wrote it, and ${run.streamsWithEveryTokenWithinBound} streams got every token within ${LIVE_BOUND_MS} ms; ` +
        `${run.peakOpenModelStreams} model streams open at the peak; ask p50 ${run.askMs.p50} ms, p95 ${run.askMs.p95} ms; model request p50 ${run.beforeModelMs.p50} ms, p95 ${run.beforeModelMs.p95} ms after the ask was sent; first token p50 ${run.firstTokenMs.p50} ms, p95 ${run.firstTokenMs.p95} ms; whole answer p50 ${run.wholeAnswerMs.p50} ms, p95 ${run.wholeAnswerMs.p95} ms (the model alone: ${run.modelAnswerMs} ms)`,
    );
    if (run.failures.length > 0) console.log(`  failures: ${JSON.stringify(run.failures)}`);
  }

  // ---- the figures ---------------------------------------------------------------------------
  const largest = concurrency.at(-1) ?? null;
  const targets = {
    streams: largest && {
      streams: largest.streams,
      everyTokenLive: largest.streamsWithEveryTokenWithinBound,
      liveBoundMs: LIVE_BOUND_MS,
      tokenDelayMs: largest.tokenDelayMs,
      lostTokens: largest.lostTokens,
      reorderedTokens: largest.misplacedTokens,
      firstTokenMs: { p50: largest.firstTokenMs.p50, p95: largest.firstTokenMs.p95, model: MODEL_FIRST_TOKEN_MS },
      wholeAnswerMs: { p50: largest.wholeAnswerMs.p50, p95: largest.wholeAnswerMs.p95, model: largest.modelAnswerMs },
      wholeAnswerP50OverModel: round(largest.wholeAnswerMs.p50 / largest.modelAnswerMs, 3),
      met: largest.streamsWithEveryTokenWithinBound === largest.streams && largest.lostTokens === 0 && largest.misplacedTokens === 0 && largest.wholeAnswerMs.p50 <= 1.2 * largest.modelAnswerMs,
    },
    addedToFirstTokenWithoutKnowledge: { p50: withoutKnowledge.addedMs.p50, p95: withoutKnowledge.addedMs.p95, askMutationP50: withoutKnowledge.askMutationMs.p50, met: withoutKnowledge.addedMs.p50 <= 10 },
    addedToFirstTokenWithKnowledge: withKnowledge && {
      chunks: withKnowledge.chunks,
      p50: withKnowledge.addedMs.p50,
      p95: withKnowledge.addedMs.p95,
      retrievalP50: withKnowledge.retrievalMs.p50,
      besidesRetrievalP50: withKnowledge.addedBesidesRetrievalMs.p50,
      met: withKnowledge.addedBesidesRetrievalMs.p50 <= 10,
    },
  };
  const s = targets.streams;
  console.log("\n== the issue's figures ==");
  if (s) {
    console.log(`streams: ${s.streams} concurrent; ${s.everyTokenLive}/${s.streams} got every token live (within ${s.liveBoundMs} ms of the model writing it; delay p50 ${s.tokenDelayMs.p50} ms, p95 ${s.tokenDelayMs.p95} ms); ${s.lostTokens} tokens lost, ${s.reorderedTokens} repeated or out of order`);
    console.log(`  first token p50 ${s.firstTokenMs.p50} ms, p95 ${s.firstTokenMs.p95} ms (the model's own ${s.firstTokenMs.model} ms)`);
    console.log(`  whole answer p50 ${s.wholeAnswerMs.p50} ms, p95 ${s.wholeAnswerMs.p95} ms (the model's own ${s.wholeAnswerMs.model} ms): p50 ${s.wholeAnswerP50OverModel}× the model's [target ≤ 1.2×, every token live, none lost] ${s.met ? "MET" : "NOT MET"}`);
  }
  const w = targets.addedToFirstTokenWithoutKnowledge;
  console.log(`Cairn adds to the first token, one question at a time, without knowledge: p50 ${w.p50} ms, p95 ${w.p95} ms (ask round trip p50 ${w.askMutationP50} ms) [target ≤ 10 ms] ${w.met ? "MET" : "NOT MET"}`);
  const k = targets.addedToFirstTokenWithKnowledge;
  if (k) console.log(`  with knowledge (${k.chunks} chunks): p50 ${k.p50} ms, p95 ${k.p95} ms = retrieval p50 ${k.retrievalP50} ms + ${k.besidesRetrievalP50} ms [target ≤ retrieval + 10 ms] ${k.met ? "MET" : "NOT MET"}`);

  writeResult("chat.json", {
    targets,
    date: new Date().toISOString(),
    machine: machine(),
    loadAverage: os.loadavg().map((n) => round(n, 2)),
    model: { tokensPerSecond: TOKENS_PER_SECOND, answerTokens: ANSWER_TOKENS, firstTokenMs: MODEL_FIRST_TOKEN_MS, process: "child process, OpenAI-API-Compatible provider" },
    through: "GraphQL: ask mutation over HTTP, answerStream subscription over graphql-ws; pub/sub and database of embedded mode",
    firstToken: { withoutKnowledge, withKnowledge },
    concurrency,
  });
} finally {
  for (const client of sockets) await client.dispose();
  await server.close();
  await model.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
