import net from "node:net";
import path from "node:path";

/**
 * The whole server configuration, read once from the environment and validated at start.
 * Each external part is optional: without DATABASE_URL, REDIS_URL or S3_ENDPOINT the embedded
 * implementation of that port is used, so a fresh install runs with no configuration at all.
 */
export interface Config {
  port: number;
  host: string;
  /**
   * How long an idle keep-alive connection stays open. Behind a load balancer it must outlast the balancer's own idle
   * timeout, or a request sent as the server closes the connection fails; the tests' clients need the same.
   */
  httpKeepAliveSeconds: number;
  /**
   * The reverse proxies whose X-Forwarded-For is believed, as express's `trust proxy` reads them: addresses, CIDR
   * ranges, or `loopback`, `linklocal`, `uniquelocal`. The client address that sign-in and sign-up throttling count
   * comes from it: behind a proxy that is not listed, every person appears as the proxy and they are slowed together.
   */
  trustProxy: string[];
  dataDir: string;
  /** Where the built-in models keep what they derive from WordNet (built once, ~25 s). */
  modelCacheDir: string;
  clientDir: string;
  databaseUrl?: string;
  redisUrl?: string;
  s3?: S3Config;
  /** How many background jobs (parsing, knowledge-base tasks) this process runs at once; 0 leaves them to `npm run worker` processes. */
  jobConcurrency: number;
  /** How many interactive jobs (flow turns) this process runs at once, in their own lane; 0 leaves them to other processes. */
  interactiveJobConcurrency: number;
  sessionTtlHours: number;
  rememberMeDays: number;
  /** How many days a deleted item waits in the recycle bin before it is destroyed; 0 turns the bin off (deleting destroys at once). */
  recycleBinDays: number;
  registrationEnabled: boolean;
  /** Lower-case e-mail domains that may sign up; empty lets any address sign up (a hosted deployment for one organisation lists its own). */
  registrationEmailDomains: string[];
  /** Accounts beyond which sign-up closes; 0 for no cap (a hosted trial that must not grow without bound sets one). */
  registrationMaxUsers: number;
  /** Lets web crawls reach private, loopback and link-local addresses (off: a crawl cannot probe the internal network). */
  crawlPrivateAddresses: boolean;
  /** Lets imports into the file manager reach S3 endpoints on private, loopback and link-local addresses (off, as for crawls). */
  s3ImportPrivateAddresses: boolean;
  /** Lets model base URLs be on loopback and private networks (local Ollama, vLLM, …); hosted deployments turn it off. */
  modelPrivateAddresses: boolean;
  /** Lets agent-flow tools (HTTP, crawler, search, SQL) reach private, loopback and link-local addresses (off, as for crawls). */
  flowPrivateAddresses: boolean;
  /** Versions kept per agent flow: each save keeps one, and the oldest beyond this go. */
  flowVersionsKept: number;
  /** Minutes within which one person's autosaves refine a flow's newest version. */
  flowVersionMinutes: number;
  /** Key that seals model-provider secrets; without it the key of `secretKeyFile` is used (generated there on first start). */
  secretKey?: string;
  /** Where the generated key lives: DATA_DIR/secret.key unless SECRET_KEY_FILE keeps it apart from the data (backups, volumes). */
  secretKeyFile: string;
  /**
   * Failed sign-ins are counted per account on one network, per client address and per network (/24, /64):
   * guessing one account's password, and spraying one password over many accounts, are both slowed, while the
   * owner signing in from elsewhere is not locked out by a stranger's failures.
   */
  signInThrottle: { accountFreeAttempts: number; addressFreeAttempts: number; networkFreeAttempts: number; baseLockSeconds: number; maxLockSeconds: number };
  /** Sign-ups allowed per client address and per network before further ones wait, so that accounts cannot be mass-created. */
  signUpThrottle: { addressFreeSignUps: number; networkFreeSignUps: number };
  /** Limits of one document's parse process (ingestion/sandbox): past them it is ended and the document fails with the reason. */
  parsing: { timeoutSeconds: number; stepTimeoutSeconds: number; memoryMb: number; processes: number };
  /** Origins that may frame the share page; empty lets any website embed a shared assistant, as the embed dialog offers. */
  embedAllowedOrigins: string[];
  uploads: UploadLimits;
  /** NODE_ENV=production: what only a developer needs (the GraphQL explorer, introspection) is off unless asked for. */
  production: boolean;
  /** GraphQL introspection and the Apollo Sandbox at /graphql: on in development, off in production unless turned on. */
  graphqlIntrospection: boolean;
  graphqlBudget: GraphQLBudget;
  heavyWork: HeavyWorkLimits;
  flows: FlowRunLimits;
  /**
   * The address people reach Cairn at (https://cairn.example.com), from which the identity providers' redirect URIs
   * and the links in invitation e-mails are made; unset, a redirect URI uses its request's own origin (right when no
   * proxy rewrites the host) and an e-mail http://localhost:PORT.
   */
  publicUrl?: string;
  /** Third-party sign-in (auth/identity): a provider is offered when its client id and secret are set. */
  identityProviders: IdentityProvidersConfig;
  /** Where team invitations are mailed from; absent: invitations show only in the app. */
  smtp?: SmtpConfig;
  /** How to reach the operator of this Cairn (Settings → Contact Us); each part optional. */
  contact: ContactConfig;
}

/** The OAuth client each identity provider knows Cairn as, and where the provider is. */
export interface IdentityProvidersConfig {
  /** GitHub's web flow; `url` serves the authorize and token endpoints, `apiUrl` the REST API (GitHub Enterprise: https://HOST and https://HOST/api/v3). */
  github?: { clientId: string; clientSecret: string; url: string; apiUrl: string };
  /** Google's OpenID Connect provider at `issuer`. */
  google?: { clientId: string; clientSecret: string; issuer: string };
  /** Any OpenID Connect provider (Keycloak, Okta, Entra ID, Authentik…), found from its issuer; `name` labels its button. */
  oidc?: { clientId: string; clientSecret: string; issuer: string; name: string };
}

export interface ContactConfig {
  /** Who runs this Cairn: a person, a team or a company. */
  name?: string;
  email?: string;
  url?: string;
  /** Free text: hours, what to include in a request, an escalation path… */
  message?: string;
}

/** An SMTP server: SMTP_URL (smtp[s]://user:password@host:port), or its parts. */
export interface SmtpConfig {
  url?: string;
  host?: string;
  port: number;
  /** TLS from the first byte (port 465); otherwise STARTTLS when the server offers it. */
  secure: boolean;
  user?: string;
  password?: string;
  from: string;
}

/** Bounds on one conversation turn of an agent flow (flows/engine/limits.ts). */
export interface FlowRunLimits {
  maxStepsPerTurn: number;
  turnTimeoutSeconds: number;
  /** Model tokens of one turn; 0 for no limit. */
  turnTokenBudget: number;
}

/** Bounds on uploads, which stream to the object store as they arrive. */
export interface UploadLimits {
  /** Uploads one process receives at once: each holds a connection, a temporary file or socket, and its parse to come. */
  perProcess: number;
  /** Uploads one tenant sends at once, so that one account cannot take every slot of the process. */
  perTenant: number;
  /** The most bytes of documents a tenant may store; undefined: no quota. */
  tenantQuotaBytes?: number;
}

/** What one GraphQL operation may ask for, over HTTP and graphql-ws alike (graphql/budget.ts). */
export interface GraphQLBudget {
  maxDepth: number;
  maxAliases: number;
  /** Points of graphql/field-costs.ts: roughly rows read, with retrieval and model calls priced by their real work. */
  maxCost: number;
  timeoutMs: number;
}

/** The fair share of heavy database work (platform/fair-scheduler.ts). */
export interface HeavyWorkLimits {
  slots: number;
  slotsPerTenant: number;
}

export interface S3Config {
  endPoint: string;
  port: number;
  useSSL: boolean;
  accessKey: string;
  secretKey: string;
  bucket: string;
  region: string;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n  - ${problems.join("\n  - ")}`);
  }
}

type Env = Record<string, string | undefined>;

/** The named ranges of express's `trust proxy` (proxy-addr): 127.0.0.1/8 and ::1; 169.254.0.0/16 and fe80::/10; private ranges and fc00::/7. */
const PROXY_NAMES = new Set(["loopback", "linklocal", "uniquelocal"]);

/** Collects every problem instead of stopping at the first, so an operator fixes them in one go. */
class EnvReader {
  readonly problems: string[] = [];
  constructor(private readonly env: Env) {}

  string(name: string, fallback: string): string {
    const value = this.env[name]?.trim();
    return value ? value : fallback;
  }

  optional(name: string): string | undefined {
    const value = this.env[name]?.trim();
    return value ? value : undefined;
  }

  integer(name: string, fallback: number, min: number, max: number): number {
    const raw = this.optional(name);
    if (raw === undefined) return fallback;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < min || value > max) {
      this.problems.push(`${name} must be a whole number from ${min} to ${max}, got "${raw}"`);
      return fallback;
    }
    return value;
  }

  boolean(name: string, fallback: boolean): boolean {
    const raw = this.optional(name)?.toLowerCase();
    if (raw === undefined) return fallback;
    if (["1", "true", "yes", "on"].includes(raw)) return true;
    if (["0", "false", "no", "off"].includes(raw)) return false;
    this.problems.push(`${name} must be true or false, got "${raw}"`);
    return fallback;
  }

  /** 32 bytes, as 64 hex characters or base64. */
  secretKey(name: string): string | undefined {
    const raw = this.optional(name);
    if (raw === undefined) return undefined;
    const bytes = /^[0-9a-f]{64}$/i.test(raw) ? 32 : Buffer.from(raw, "base64").length;
    if (bytes !== 32) this.problems.push(`${name} must be 32 bytes, as 64 hex characters or base64 (openssl rand -base64 32)`);
    return raw;
  }

  /** A comma-separated list of origins as a CSP source names them ("https://example.com", "https://*.example.com:8443"). */
  origins(name: string): string[] {
    const origins = (this.optional(name) ?? "").split(",").map((origin) => origin.trim()).filter(Boolean);
    for (const origin of origins) {
      if (!/^[a-z][a-z0-9+.-]*:\/\/(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)*(:(\d{1,5}|\*))?$/i.test(origin)) {
        this.problems.push(`${name} must list origins such as https://example.com, separated by commas, got "${origin}"`);
      }
    }
    return origins;
  }

  /** A comma-separated list of proxies: IP addresses, CIDR ranges, or the names express's `trust proxy` knows. */
  proxies(name: string, fallback: string[]): string[] {
    const proxies = this.list(name);
    for (const proxy of proxies) {
      const [address, prefix, ...rest] = proxy.split("/");
      const version = net.isIP(address);
      const validPrefix = prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 6 ? 128 : 32));
      if (!PROXY_NAMES.has(proxy) && !(version !== 0 && validPrefix && rest.length === 0)) {
        this.problems.push(`${name} must list addresses, ranges such as 172.16.0.0/12, or loopback, linklocal, uniquelocal, separated by commas, got "${proxy}"`);
      }
    }
    return proxies.length > 0 ? proxies : fallback;
  }

  /** A comma-separated list, trimmed and lower-cased, empty entries dropped. */
  list(name: string): string[] {
    return (this.optional(name) ?? "")
      .split(",")
      .map((item) => item.trim().toLowerCase())
      .filter(Boolean);
  }

  url(name: string, protocols: string[]): string | undefined {
    const raw = this.optional(name);
    if (raw === undefined) return undefined;
    try {
      const parsed = new URL(raw);
      if (!protocols.includes(parsed.protocol)) {
        this.problems.push(`${name} must start with ${protocols.map((p) => `${p}//`).join(" or ")}, got "${parsed.protocol}//…"`);
      }
      return raw;
    } catch {
      this.problems.push(`${name} is not a valid URL`);
      return undefined;
    }
  }
}

function readS3(reader: EnvReader): S3Config | undefined {
  const endpoint = reader.url("S3_ENDPOINT", ["http:", "https:"]);
  if (!endpoint) return undefined;
  const url = new URL(endpoint);
  const useSSL = url.protocol === "https:";
  const accessKey = reader.optional("S3_ACCESS_KEY");
  const secretKey = reader.optional("S3_SECRET_KEY");
  if (!accessKey) reader.problems.push("S3_ACCESS_KEY is required when S3_ENDPOINT is set");
  if (!secretKey) reader.problems.push("S3_SECRET_KEY is required when S3_ENDPOINT is set");
  const bucket = reader.string("S3_BUCKET", "cairn");
  // The same rule S3 and the minio client apply, checked here so a bad name fails at start, not at the first upload.
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket)) {
    reader.problems.push(`S3_BUCKET must be 3 to 63 lower-case letters, digits, dots or hyphens, got "${bucket}"`);
  }
  return {
    endPoint: url.hostname,
    port: url.port ? Number(url.port) : useSSL ? 443 : 80,
    useSSL,
    accessKey: accessKey ?? "",
    secretKey: secretKey ?? "",
    bucket,
    region: reader.string("S3_REGION", "us-east-1"),
  };
}

function readSmtp(reader: EnvReader): SmtpConfig | undefined {
  const url = reader.url("SMTP_URL", ["smtp:", "smtps:"]);
  const host = reader.optional("SMTP_HOST");
  const port = reader.integer("SMTP_PORT", 587, 1, 65535);
  const secure = reader.boolean("SMTP_SECURE", port === 465);
  const user = reader.optional("SMTP_USER");
  const password = reader.optional("SMTP_PASSWORD");
  const from = reader.string("SMTP_FROM", "Cairn <no-reply@localhost>");
  if (!url && !host) return undefined;
  if (url && host) reader.problems.push("set SMTP_URL or SMTP_HOST, not both");
  return { url, host, port, secure, user, password, from };
}

function readContact(reader: EnvReader): ContactConfig {
  const email = reader.optional("CONTACT_EMAIL");
  // A mailto: link is built from it: one plain address, nothing a link could be made to do besides.
  if (email !== undefined && !/^[^\s@<>"',;:?&=/#]+@[^\s@<>"',;:?&=/#]+\.[^\s@<>"',;:?&=/#]+$/.test(email)) reader.problems.push(`CONTACT_EMAIL must be one e-mail address such as support@example.com, got "${email}"`);
  return {
    name: reader.optional("CONTACT_NAME"),
    email,
    url: reader.url("CONTACT_URL", ["http:", "https:"]),
    message: reader.optional("CONTACT_MESSAGE"),
  };
}

function readEmailDomains(reader: EnvReader): string[] {
  const domains = reader.list("REGISTRATION_EMAIL_DOMAINS").map((domain) => domain.replace(/^@/, ""));
  for (const domain of domains) {
    if (!/^[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(domain)) reader.problems.push(`REGISTRATION_EMAIL_DOMAINS: "${domain}" is not a domain name such as example.com`);
  }
  return domains;
}

/** A provider's client: both halves or neither, so that a half-configured provider fails at start, not at sign-in. */
function readClient(reader: EnvReader, idName: string, clientId: string | undefined, secretName: string, clientSecret: string | undefined): { clientId: string; clientSecret: string } | undefined {
  if (!clientId && !clientSecret) return undefined;
  if (!clientId) reader.problems.push(`${idName} is required when ${secretName} is set`);
  if (!clientSecret) reader.problems.push(`${secretName} is required when ${idName} is set`);
  return clientId && clientSecret ? { clientId, clientSecret } : undefined;
}

function readIdentityProviders(reader: EnvReader): IdentityProvidersConfig {
  const github = readClient(reader, "AUTH_GITHUB_CLIENT_ID", reader.optional("AUTH_GITHUB_CLIENT_ID"), "AUTH_GITHUB_CLIENT_SECRET", reader.optional("AUTH_GITHUB_CLIENT_SECRET"));
  const google = readClient(reader, "AUTH_GOOGLE_CLIENT_ID", reader.optional("AUTH_GOOGLE_CLIENT_ID"), "AUTH_GOOGLE_CLIENT_SECRET", reader.optional("AUTH_GOOGLE_CLIENT_SECRET"));
  const oidc = readClient(reader, "AUTH_OIDC_CLIENT_ID", reader.optional("AUTH_OIDC_CLIENT_ID"), "AUTH_OIDC_CLIENT_SECRET", reader.optional("AUTH_OIDC_CLIENT_SECRET"));
  const oidcIssuer = reader.url("AUTH_OIDC_ISSUER", ["http:", "https:"]);
  if (oidc && !oidcIssuer) reader.problems.push("AUTH_OIDC_ISSUER is required when AUTH_OIDC_CLIENT_ID is set");
  const web = ["http:", "https:"];
  return {
    // Overridable so that GitHub Enterprise, and the tests' local stand-in, can take GitHub's place.
    github: github && { ...github, url: reader.url("AUTH_GITHUB_URL", web) ?? "https://github.com", apiUrl: reader.url("AUTH_GITHUB_API_URL", web) ?? "https://api.github.com" },
    // Overridable for the tests' local stand-in only: Google's issuer is this one.
    google: google && { ...google, issuer: reader.url("AUTH_GOOGLE_ISSUER", web) ?? "https://accounts.google.com" },
    oidc: oidc && oidcIssuer ? { ...oidc, issuer: oidcIssuer, name: reader.string("AUTH_OIDC_NAME", "OpenID Connect") } : undefined,
  };
}

export function loadConfig(env: Env = process.env): Config {
  const reader = new EnvReader(env);
  const production = reader.string("NODE_ENV", "development") === "production";
  const config: Config = {
    port: reader.integer("PORT", 9380, 0, 65535),
    host: reader.string("HOST", "0.0.0.0"),
    httpKeepAliveSeconds: reader.integer("HTTP_KEEP_ALIVE_SECONDS", 5, 1, 3600),
    // A proxy on the same machine (nginx, Caddy) is believed; one on a container network or a load balancer is named.
    trustProxy: reader.proxies("TRUST_PROXY", ["loopback"]),
    dataDir: path.resolve(reader.string("DATA_DIR", "./data")),
    modelCacheDir: path.resolve(reader.string("MODEL_CACHE_DIR", path.join(reader.string("DATA_DIR", "./data"), "cache", "models"))),
    clientDir: path.resolve(reader.string("CLIENT_DIR", path.join(__dirname, "../../../client/dist"))),
    databaseUrl: reader.url("DATABASE_URL", ["postgres:", "postgresql:"]),
    redisUrl: reader.url("REDIS_URL", ["redis:", "rediss:"]),
    s3: readS3(reader),
    jobConcurrency: reader.integer("JOB_CONCURRENCY", 2, 0, 64),
    // Many: a flow's turn mostly waits on models and outside services, holding a slot costs it a few kilobytes and no CPU,
    // and a person waits on it; so the lane bounds memory and connections, not CPU, and 200 conversations at once do not queue.
    interactiveJobConcurrency: reader.integer("INTERACTIVE_JOB_CONCURRENCY", 256, 0, 1024),
    sessionTtlHours: reader.integer("SESSION_TTL_HOURS", 24, 1, 24 * 30),
    rememberMeDays: reader.integer("SESSION_REMEMBER_DAYS", 30, 1, 365),
    // Deleting from the web app keeps the item restorable this long (issue 19); ten years is "keep it".
    recycleBinDays: reader.integer("RECYCLE_BIN_DAYS", 30, 0, 3650),
    registrationEnabled: reader.boolean("REGISTRATION_ENABLED", true),
    registrationEmailDomains: readEmailDomains(reader),
    registrationMaxUsers: reader.integer("REGISTRATION_MAX_USERS", 0, 0, 10_000_000),
    crawlPrivateAddresses: reader.boolean("CRAWL_PRIVATE_ADDRESSES", false),
    modelPrivateAddresses: reader.boolean("MODEL_PRIVATE_ADDRESSES", true),
    // Off like CRAWL_PRIVATE_ADDRESSES: a bucket's endpoint is typed by a user; a self-hosted MinIO on the LAN needs it on.
    s3ImportPrivateAddresses: reader.boolean("S3_IMPORT_PRIVATE_ADDRESSES", false),
    // Off like CRAWL_PRIVATE_ADDRESSES: a flow's HTTP tool must not probe the internal network.
    flowPrivateAddresses: reader.boolean("FLOW_PRIVATE_ADDRESSES", false),
    // Enough to step back through an afternoon of autosaves without a flow's history outgrowing the flow.
    flowVersionsKept: reader.integer("FLOW_VERSIONS_KEPT", 20, 1, 1000),
    // The editor autosaves after every pause: an editing session's saves refine one version instead of flooding the history.
    flowVersionMinutes: reader.integer("FLOW_VERSION_MINUTES", 10, 0, 1440),
    secretKey: reader.secretKey("SECRET_KEY"),
    secretKeyFile: path.resolve(reader.string("SECRET_KEY_FILE", path.join(reader.string("DATA_DIR", "./data"), "secret.key"))),
    signInThrottle: {
      accountFreeAttempts: reader.integer("SIGNIN_FREE_ATTEMPTS", 5, 1, 100),
      // An office or a carrier-grade NAT shares one address among many people who mistype: higher than one account's.
      addressFreeAttempts: reader.integer("SIGNIN_ADDRESS_FREE_ATTEMPTS", 20, 1, 10_000),
      networkFreeAttempts: reader.integer("SIGNIN_NETWORK_FREE_ATTEMPTS", 60, 1, 100_000),
      baseLockSeconds: reader.integer("SIGNIN_LOCK_SECONDS", 30, 1, 3600),
      maxLockSeconds: 15 * 60,
    },
    parsing: {
      // a 300-page scan read by OCR takes about 25 minutes on two cores
      timeoutSeconds: reader.integer("PARSE_TIMEOUT_SECONDS", 1800, 5, 86_400),
      // a page, a sheet or a picture; OCR of a dense page in two scripts takes up to ~30 s on a slow machine
      stepTimeoutSeconds: reader.integer("PARSE_STEP_TIMEOUT_SECONDS", 120, 2, 3600),
      // pdf.js on a large PDF, or OCR with its Chinese models, needs a few hundred MB
      memoryMb: reader.integer("PARSE_MEMORY_MB", 1536, 256, 65_536),
      // files parsed at once by one process's parse processes: each holds its parsers' memory, and more than the cores parse no faster
      processes: reader.integer("PARSE_PROCESSES", 2, 1, 64),
    },
    embedAllowedOrigins: reader.origins("EMBED_ALLOWED_ORIGINS"),
    uploads: {
      perProcess: reader.integer("UPLOADS_PER_PROCESS", 32, 1, 1000),
      perTenant: reader.integer("UPLOADS_PER_TENANT", 8, 1, 1000),
      // Off by default: a self-hosted installation usually trusts its users with its disk.
      tenantQuotaBytes: reader.optional("TENANT_STORAGE_QUOTA_MB") === undefined ? undefined : reader.integer("TENANT_STORAGE_QUOTA_MB", 0, 1, 1024 * 1024 * 1024) * 1024 * 1024,
    },
    signUpThrottle: {
      addressFreeSignUps: reader.integer("SIGNUP_ADDRESS_FREE", 5, 1, 10_000),
      networkFreeSignUps: reader.integer("SIGNUP_NETWORK_FREE", 20, 1, 100_000),
    },
    production,
    // A production server does not describe its schema to strangers unless its operator wants it to.
    graphqlIntrospection: reader.boolean("GRAPHQL_INTROSPECTION", !production),
    graphqlBudget: {
      // The client's deepest operation nests 4 levels; introspection is not counted.
      maxDepth: reader.integer("GRAPHQL_MAX_DEPTH", 12, 2, 100),
      // Aliases let one request repeat an expensive field; the client uses none.
      maxAliases: reader.integer("GRAPHQL_MAX_ALIASES", 20, 0, 1000),
      // The client's costliest operation (a document's every chunk) estimates about 2,000; one retrieval is about 600.
      maxCost: reader.integer("GRAPHQL_MAX_COST", 5000, 100, 1_000_000),
      // An answer no one waits for any more only holds resources.
      timeoutMs: reader.integer("GRAPHQL_TIMEOUT_SECONDS", 30, 1, 3600) * 1000,
    },
    heavyWork: {
      // The embedded database has one connection: a few slots keep everyone else's queries a short wait away.
      slots: reader.integer("HEAVY_WORK_SLOTS", 4, 1, 256),
      // Below the total, so one tenant's flood always leaves a slot for the others.
      slotsPerTenant: reader.integer("HEAVY_WORK_SLOTS_PER_TENANT", 2, 1, 256),
    },
    flows: {
      // RAGFlow's templates take 5 to 25 steps a turn (DB Assistant's SQL repair loop included); an Iteration's body counts too.
      maxStepsPerTurn: reader.integer("FLOW_MAX_STEPS_PER_TURN", 500, 10, 100_000),
      // Several long answers of a slow local model fit; a turn no one waits for any more only holds a worker.
      turnTimeoutSeconds: reader.integer("FLOW_TURN_TIMEOUT_SECONDS", 600, 5, 86_400),
      // SEO Blog, the hungriest template, spends about 30,000 tokens a turn; a runaway loop of model calls stops well before it costs much.
      turnTokenBudget: reader.integer("FLOW_TURN_TOKEN_BUDGET", 200_000, 0, 100_000_000),
    },
    // Behind a proxy that rewrites the host, the redirect URIs registered with the providers name the public address.
    publicUrl: reader.url("PUBLIC_URL", ["http:", "https:"])?.replace(/\/+$/, ""),
    identityProviders: readIdentityProviders(reader),
    // Invitations reach people who are not looking at the app; without SMTP they wait in the app only.
    smtp: readSmtp(reader),
    // People who cannot sign in, or whose question the product does not answer, need a way to the operator.
    contact: readContact(reader),
  };
  if (config.secretKey && reader.optional("SECRET_KEY_FILE")) reader.problems.push("set SECRET_KEY or SECRET_KEY_FILE, not both");
  if (reader.problems.length > 0) throw new ConfigError(reader.problems);
  return config;
}
