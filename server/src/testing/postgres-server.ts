import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { freePort, launchServer, runToEnd, stopProcess } from "./processes";

export interface TestPostgresServer {
  host: "127.0.0.1";
  port: number;
  /** The superuser "postgres" and its password. */
  user: string;
  password: string;
  /** Runs SQL as the superuser, to set up roles, tables and functions. */
  admin(sql: string): Promise<unknown>;
  stop(): Promise<void>;
}

const INSTALL = "apt-get install postgresql";

/** Debian installs the server's programs outside PATH (/usr/lib/postgresql/<version>/bin). */
function binary(name: string): string {
  for (const dir of (process.env.PATH ?? "").split(path.delimiter)) {
    if (fs.existsSync(path.join(dir, name))) return path.join(dir, name);
  }
  const root = "/usr/lib/postgresql";
  const versions = fs.existsSync(root) ? fs.readdirSync(root).sort((a, b) => Number(b) - Number(a)) : [];
  const found = versions.map((version) => path.join(root, version, "bin", name)).find((candidate) => fs.existsSync(candidate));
  return found ?? name;
}

/** PostgreSQL refuses to run as root: then it runs as the "postgres" account the package creates. */
function serverAccount(): { uid?: number; gid?: number } {
  if (process.getuid?.() !== 0) return {};
  try {
    const [uid, gid] = ["-u", "-g"].map((flag) => Number(execFileSync("id", [flag, "postgres"]).toString().trim()));
    return { uid, gid };
  } catch {
    throw new Error(`There is no "postgres" account to run PostgreSQL as (it refuses root); install it (Debian: ${INSTALL}).`);
  }
}

/**
 * A real, throw-away PostgreSQL (Debian's postgresql package; the embedded PGlite of ./postgres.ts has no
 * password authentication, time-outs or separate sessions) on a free loopback port, its cluster in a temporary
 * folder, with password (scram) authentication. Missing binaries are a failure, never a skip.
 */
export async function startPostgresServer(): Promise<TestPostgresServer> {
  const account = serverAccount();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cairn-postgres-"));
  const data = path.join(dir, "data");
  const password = "cairn-test-superuser";
  const passwordFile = path.join(dir, "password");
  fs.writeFileSync(passwordFile, password);
  if (account.uid !== undefined) {
    fs.chownSync(dir, account.uid, account.gid!);
    fs.chownSync(passwordFile, account.uid, account.gid!);
  }
  try {
    await runToEnd(binary("initdb"), ["-D", data, "-U", "postgres", "--auth=scram-sha-256", `--pwfile=${passwordFile}`, "-E", "UTF8", "--no-sync", "--locale=C"], {
      ...account,
      cwd: dir,
      install: INSTALL,
    });
    let lastError: Error | undefined;
    // The free port is found by binding and releasing it, so another process may take it first: then try another.
    for (let attempt = 0; attempt < 3; attempt++) {
      const port = await freePort();
      try {
        const child = await launchServer(
          binary("postgres"),
          ["-D", data, "-p", String(port), "-k", dir, "-c", "listen_addresses=127.0.0.1", "-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off"],
          { ...account, cwd: dir, ready: /database system is ready to accept connections/, install: INSTALL },
        );
        const superuser = new pg.Client({ host: "127.0.0.1", port, user: "postgres", password, database: "postgres" });
        await superuser.connect();
        return {
          host: "127.0.0.1",
          port,
          user: "postgres",
          password,
          admin: async (sql) => (await superuser.query(sql)).rows,
          stop: async () => {
            await superuser.end().catch(() => undefined);
            await stopProcess(child, 10_000);
            fs.rmSync(dir, { recursive: true, force: true });
          },
        };
      } catch (error) {
        lastError = error as Error;
        if (!/already in use|could not bind/i.test(lastError.message)) break;
      }
    }
    throw lastError;
  } catch (error) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}
