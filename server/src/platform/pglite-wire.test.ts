import type net from "node:net";
import { PGlite } from "@electric-sql/pglite";
import { Client } from "pg";
import { servePGlite, type ServedPGlite } from "./pglite-wire";

describe("PGlite over the wire protocol", () => {
  let db: PGlite;
  let served: ServedPGlite;
  const connect = async () => {
    const client = new Client({ host: "127.0.0.1", port: (served.address as net.AddressInfo).port, user: "postgres", database: "postgres" });
    await client.connect();
    return client;
  };

  beforeAll(async () => {
    db = await PGlite.create();
    // PGlite failing on one statement the way a broken WebAssembly call would: by throwing, with no answer.
    const failing = new Proxy(db, {
      get(target, property, receiver) {
        if (property !== "execProtocolRaw") return Reflect.get(target, property, receiver);
        return (message: Uint8Array, options: object) => {
          if (Buffer.from(message).includes("cannot run")) throw new Error("PGlite failed");
          return target.execProtocolRaw(message, options);
        };
      },
    });
    served = await servePGlite(failing, { host: "127.0.0.1", port: 0 });
  });
  afterAll(async () => {
    await served.stop();
    await db.close();
  });

  test("a statement PGlite cannot run closes its own connection at once, and the other connections go on", async () => {
    const doomed = await connect();
    doomed.on("error", () => undefined);
    const other = await connect();
    try {
      await expect(doomed.query(`SELECT 'cannot run' AS text`)).rejects.toThrow(/Connection terminated/);
      expect((await other.query(`SELECT $1::int AS n`, [7])).rows).toEqual([{ n: 7 }]);
      const fresh = await connect();
      expect((await fresh.query(`SELECT 1 AS one`)).rows).toEqual([{ one: 1 }]);
      await fresh.end();
    } finally {
      await other.end();
      await doomed.end().catch(() => undefined);
    }
  });
});
