import net from "node:net";
import { PGlite } from "@electric-sql/pglite";
import { vector } from "@electric-sql/pglite-pgvector";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";

export interface TestPostgres {
  /** postgres://postgres@127.0.0.1:PORT/postgres, for DATABASE_URL. */
  url: string;
  stop(): Promise<void>;
}

/**
 * An in-memory PGlite with pgvector, served over the Postgres wire protocol on a free loopback TCP port,
 * so that other processes (a server, workers) can use it as their DATABASE_URL, as they would a shared
 * PostgreSQL. PGlite is one backend session shared by every connection, and its socket server forwards
 * each connection's bytes as they come: a long message of one client (a Bind of a chunk batch) can land
 * between another's Parse and Bind ("bind message supplies 1 parameters, but prepared statement requires
 * 7"). A real server has a backend per connection. So the clients reach PGlite through a proxy that lets
 * one connection talk at a time, from its first byte until the server answers it ReadyForQuery.
 */
export async function startPostgres(): Promise<TestPostgres> {
  const db = await PGlite.create({ extensions: { vector } });
  const backend = new PGLiteSocketServer({ db, port: 0, host: "127.0.0.1", maxConnections: 64 });
  try {
    await backend.start();
  } catch (error) {
    await db.close();
    throw error;
  }
  const [host, port] = backend.getServerConn().split(":");
  const proxy = serializingProxy(host, Number(port));
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  return {
    url: `postgres://postgres@127.0.0.1:${(proxy.address() as net.AddressInfo).port}/postgres`,
    stop: async () => {
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
      await backend.stop();
      await db.close();
    },
  };
}

interface Client {
  pending: Buffer[];
  upstream: net.Socket;
  downstream: net.Socket;
}

function serializingProxy(host: string, port: number): net.Server {
  const waiting: Client[] = [];
  let speaking: Client | null = null;
  const sockets = new Set<net.Socket>();

  const pump = () => {
    while (!speaking && waiting.length > 0) {
      const next = waiting.shift()!;
      if (next.pending.length === 0) continue;
      speaking = next;
      flush(next);
    }
  };
  const flush = (client: Client) => {
    for (const chunk of client.pending.splice(0)) client.upstream.write(chunk);
  };
  const release = (client: Client) => {
    if (speaking === client) speaking = null;
    pump();
  };

  const server = net.createServer((downstream) => {
    const upstream = net.connect(port, host);
    const client: Client = { pending: [], upstream, downstream };
    sockets.add(downstream).add(upstream);
    downstream.on("data", (chunk) => {
      client.pending.push(chunk);
      if (speaking === client) flush(client);
      else if (!waiting.includes(client)) {
        waiting.push(client);
        pump();
      }
    });
    // Backend messages are a type byte and a length. The client's turn ends with a ReadyForQuery ('Z')
    // whose status is idle ('I'): inside a transaction ('T', 'E') it keeps the session until it ends.
    let header: number[] = [];
    let remaining = 0;
    let readyStatus: number | null = null;
    let awaitingStatus = false;
    upstream.on("data", (chunk: Buffer) => {
      downstream.write(chunk);
      for (let offset = 0; offset < chunk.length; ) {
        if (remaining > 0) {
          if (awaitingStatus) {
            readyStatus = chunk[offset];
            awaitingStatus = false;
          }
          const take = Math.min(remaining, chunk.length - offset);
          remaining -= take;
          offset += take;
          continue;
        }
        header.push(chunk[offset++]);
        if (header.length === 5) {
          remaining = ((header[1] << 24) >>> 0) + (header[2] << 16) + (header[3] << 8) + header[4] - 4;
          awaitingStatus = header[0] === 0x5a;
          header = [];
        }
      }
      if (readyStatus !== null && remaining === 0 && header.length === 0) {
        const idle = readyStatus === 0x49;
        readyStatus = null;
        if (idle) release(client);
      }
    });
    const end = () => {
      sockets.delete(downstream);
      sockets.delete(upstream);
      downstream.destroy();
      upstream.destroy();
      const index = waiting.indexOf(client);
      if (index >= 0) waiting.splice(index, 1);
      release(client);
    };
    downstream.on("close", end).on("error", end);
    upstream.on("close", end).on("error", end);
  });
  const close = server.close.bind(server);
  server.close = (callback?: (error?: Error) => void) => {
    for (const socket of sockets) socket.destroy();
    return close(callback);
  };
  return server;
}
