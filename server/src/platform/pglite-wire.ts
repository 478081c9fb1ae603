import net from "node:net";
import type { PGlite } from "@electric-sql/pglite";

/**
 * PGlite served over the PostgreSQL wire protocol, so that TypeORM and `pg` talk to it as to a server:
 * the embedded database's thread (embedded-postgres.thread.ts), and the shared database of tests that run
 * several processes (testing/postgres.ts).
 *
 * PGlite is one backend session, so the connections take turns. A turn is one exchange of a connection, up
 * to the message that asks the backend to answer (Sync, a simple Query, Flush), given to PGlite in one call:
 * a statement of the extended protocol (Parse, Bind, Describe, Execute, Sync) is one turn, and no other
 * connection's message can land between its Parse and its Bind. Turns run in the order they arrive, except
 * that a connection that has not come back to idle (a transaction open, or an exchange not yet synced) holds
 * the session: only its own turns run until it does. Several connections can therefore keep statements
 * waiting here while the database works on one, instead of the database waiting for the next statement to
 * cross from the server's thread.
 */

const SSL_REQUEST = 80877103;
const GSS_ENCRYPTION_REQUEST = 80877104;
const CANCEL_REQUEST = 80877102;
/** Frontend messages after which the backend answers: Sync, Query, Flush, and the end of a COPY's data. */
const TURN_ENDS = new Set(["S", "Q", "H", "c", "f"].map((letter) => letter.charCodeAt(0)));
const TERMINATE = "X".charCodeAt(0);
const READY_FOR_QUERY = "Z".charCodeAt(0);
const IDLE = "I".charCodeAt(0);
/** What ends a connection's exchange when it goes away holding the session: a Sync, then the simple Query ROLLBACK. */
const SYNC_AND_ROLLBACK = (() => {
  const rollback = Buffer.from("ROLLBACK\0");
  const query = Buffer.alloc(5 + rollback.length);
  query.write("Q", 0);
  query.writeInt32BE(4 + rollback.length, 1);
  rollback.copy(query, 5);
  return Buffer.concat([Buffer.from([0x53, 0, 0, 0, 4]), query]);
})();

/** Whether an answer ends with ReadyForQuery saying idle: no transaction open, nothing left unsynced. */
function endsIdle(answer: Uint8Array): boolean {
  const at = answer.length - 6;
  return at >= 0 && answer[at] === READY_FOR_QUERY && answer[at + 4] === 5 && answer[at + 5] === IDLE;
}

interface Turn {
  connection: Connection;
  message: Uint8Array;
}

class Connection {
  private pending: Buffer = Buffer.alloc(0);
  private started = false;
  /** Complete messages received since the last turn ended. */
  private turn: Buffer[] = [];
  closed = false;

  constructor(
    readonly socket: net.Socket,
    private readonly onTurn: (turn: Turn) => void,
  ) {}

  receive(data: Buffer): void {
    this.pending = this.pending.length === 0 ? data : Buffer.concat([this.pending, data]);
    for (;;) {
      if (!this.started) {
        if (this.pending.length < 8) return;
        const length = this.pending.readInt32BE(0);
        if (this.pending.length < length) return;
        const code = this.pending.readInt32BE(4);
        const packet = this.pending.subarray(0, length);
        this.pending = this.pending.subarray(length);
        if (code === SSL_REQUEST || code === GSS_ENCRYPTION_REQUEST) this.socket.write("N");
        else if (code === CANCEL_REQUEST) this.socket.end();
        else {
          this.started = true;
          this.onTurn({ connection: this, message: packet });
        }
        continue;
      }
      if (this.pending.length < 5) return;
      const length = 1 + this.pending.readInt32BE(1);
      if (this.pending.length < length) return;
      const type = this.pending[0];
      const message = this.pending.subarray(0, length);
      this.pending = this.pending.subarray(length);
      if (type === TERMINATE) {
        this.socket.end();
        return;
      }
      this.turn.push(message);
      if (TURN_ENDS.has(type)) {
        this.onTurn({ connection: this, message: Buffer.concat(this.turn) });
        this.turn = [];
      }
    }
  }
}

class TurnQueue {
  private turns: Turn[] = [];
  private running = false;
  /** The connection that has not come back to idle: only its turns may run until it does. */
  private holder: Connection | null = null;

  constructor(private readonly db: PGlite) {}

  add(turn: Turn): void {
    this.turns.push(turn);
    void this.run();
  }

  async closed(connection: Connection): Promise<void> {
    this.turns = this.turns.filter((turn) => turn.connection !== connection);
    if (this.holder !== connection) return;
    // A connection that went away inside its exchange or transaction leaves nothing half done behind it. (No
    // turn runs meanwhile: a turn's call into PGlite resolves without giving the event loop a turn of its own.)
    this.holder = null;
    await this.db
      .execProtocolRaw(SYNC_AND_ROLLBACK, { syncToFs: false })
      .catch((error: unknown) => console.error("[database] the embedded database could not roll back a closed connection:", error));
    void this.run();
  }

  private next(): Turn | undefined {
    if (this.holder === null) return this.turns.shift();
    const index = this.turns.findIndex((turn) => turn.connection === this.holder);
    return index === -1 ? undefined : this.turns.splice(index, 1)[0];
  }

  private async run(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      for (let turn = this.next(); turn; turn = this.next()) {
        let answer: Uint8Array;
        try {
          answer = await this.db.execProtocolRaw(turn.message, { syncToFs: false });
        } catch (error) {
          // Not a database error (those come back as ErrorResponse): PGlite itself failed. The connection is
          // closed, so that its client fails at once instead of waiting for an answer that will not come.
          console.error("[database] the embedded database could not run a statement:", error);
          this.holder = null;
          turn.connection.socket.destroy();
          continue;
        }
        this.holder = endsIdle(answer) ? null : turn.connection;
        if (answer.length > 0 && !turn.connection.closed) turn.connection.socket.write(answer);
      }
    } finally {
      this.running = false;
    }
  }
}

export interface ServedPGlite {
  /** Where it listens: the socket path, or the loopback port. */
  address: string | net.AddressInfo | null;
  /** Closes every connection and stops listening; the database stays open. */
  stop(): Promise<void>;
}

/** Serves `db` on a Unix socket (`{ path }`) or a TCP port (`{ host, port }`, 0 for any free one). */
export async function servePGlite(db: PGlite, listen: { path: string } | { host: string; port: number }): Promise<ServedPGlite> {
  const queue = new TurnQueue(db);
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    const connection = new Connection(socket, (turn) => queue.add(turn));
    socket.on("data", (data) => connection.receive(data));
    socket.on("error", () => socket.destroy());
    socket.on("close", () => {
      sockets.delete(socket);
      connection.closed = true;
      void queue.closed(connection);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(listen, resolve);
  });
  return {
    address: server.address(),
    async stop() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
