import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import mysql from "mysql2/promise";
import { freePort, launchServer, runToEnd, stopProcess } from "./processes";

export interface TestMariadb {
  host: "127.0.0.1";
  port: number;
  /** Runs SQL as the server's root (over its socket), to set up users, databases and tables. */
  admin(sql: string): Promise<unknown>;
  stop(): Promise<void>;
}

const INSTALL = "apt-get install mariadb-server";

/** The server lives in /usr/sbin, which a user's PATH may lack. */
function binary(name: string): string {
  const dirs = [...(process.env.PATH ?? "").split(path.delimiter), "/usr/sbin", "/usr/bin"];
  return dirs.map((dir) => path.join(dir, name)).find((candidate) => fs.existsSync(candidate)) ?? name;
}

/**
 * A real, throw-away MariaDB (Debian's mariadb-server) on a free loopback port, its data in a temporary
 * folder: `mariadb-install-db` makes the system tables, `mariadbd` serves them. Missing binaries are a
 * failure, never a skip (CI installs the package). Root has no password and is reached over the socket;
 * tests create their own users, so that credentials are checked as in production.
 */
export async function startMariadb(): Promise<TestMariadb> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cairn-mariadb-"));
  const data = path.join(dir, "data");
  const socket = path.join(dir, "mariadb.sock");
  // mariadbd refuses to run as root unless told to.
  const user = os.userInfo().username;
  try {
    await runToEnd(binary("mariadb-install-db"), ["--no-defaults", `--datadir=${data}`, `--user=${user}`, "--auth-root-authentication-method=normal", "--skip-test-db"], { install: INSTALL });
    let lastError: Error | undefined;
    // The free port is found by binding and releasing it, so another process may take it first: then try another.
    for (let attempt = 0; attempt < 3; attempt++) {
      const port = await freePort();
      try {
        const child = await launchServer(
          binary("mariadbd"),
          [
            "--no-defaults",
            `--datadir=${data}`,
            `--socket=${socket}`,
            `--pid-file=${path.join(dir, "mariadb.pid")}`,
            `--port=${port}`,
            "--bind-address=127.0.0.1",
            `--user=${user}`,
            "--skip-log-bin",
            "--innodb-buffer-pool-size=16M",
            "--innodb-log-file-size=8M",
            "--innodb-flush-log-at-trx-commit=0",
          ],
          { ready: /ready for connections/, install: INSTALL },
        );
        const root = await mysql.createConnection({ socketPath: socket, user: "root", multipleStatements: true });
        return {
          host: "127.0.0.1",
          port,
          admin: async (sql) => (await root.query(sql))[0],
          stop: async () => {
            await root.end().catch(() => undefined);
            await stopProcess(child, 10_000);
            fs.rmSync(dir, { recursive: true, force: true });
          },
        };
      } catch (error) {
        lastError = error as Error;
        if (!/already in use|Can't start server: Bind/i.test(lastError.message)) break;
      }
    }
    throw lastError;
  } catch (error) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}
