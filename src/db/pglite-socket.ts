/**
 * The embedded database served to other local processes (`npm run cli`, `npm run worker`) over a Unix socket,
 * while this process keeps using it in-process.
 *
 * PGlite is one PostgreSQL session. @electric-sql/pglite-socket speaks the wire protocol to each client (framing,
 * SSL refusal, cancel requests) through its PGLiteSocketHandler, but its own multiplexer is not used: it takes turns
 * per protocol message, so two clients' Parse/Bind/Execute interleave on the one unnamed statement, and it takes
 * only PGlite's query lock, so a client's statements would run inside a transaction this process has open, and
 * this process's inside the client's (pglite issues 1046 and 985, pull request 977). Here the turn is the whole
 * exchange instead: a client holds the session from its first message until the backend is idle again (after a
 * Sync or a simple query, outside any transaction), and it holds it through PGlite's transaction lock, the one
 * every in-process query and transaction takes, so nothing else runs in between.
 */
import { chmod, mkdir, rm } from "node:fs/promises";
import { createServer, type Socket } from "node:net";
import { join } from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import { PGLiteSocketHandler, type PGLiteSocketHandlerOptions } from "@electric-sql/pglite-socket";

/** The port in the socket's name: `pg` (and psql) connect to `<host>/.s.PGSQL.<port>` when the host is a path. */
export const SOCKET_PORT = 5432;

/**
 * The directory clients connect in: inside the data directory, so a process finds it from DATA_DIR alone, and
 * readable only by its owner, since PGlite asks for no password and a connection is the whole database.
 */
export function socketDirectory(dataDir: string): string {
  return join(dataDir, "socket");
}

export function socketPath(dataDir: string): string {
  return join(socketDirectory(dataDir), `.s.PGSQL.${SOCKET_PORT}`);
}

/**
 * How long a client may keep the session between two messages (inside a transaction, or mid-exchange) before it
 * is disconnected and its transaction rolled back: meanwhile every request of this process waits.
 */
const HOLD_LIMIT_MS = 10_000;

export interface SocketOptions {
  /** HOLD_LIMIT_MS unless said (tests). */
  holdLimitMs?: number;
}

/** sun_path holds 108 bytes, with the terminating NUL. */
const MAX_SOCKET_PATH = 107;

const SYNC = 0x53;
const QUERY = 0x51;
const READY_FOR_QUERY = 0x5a;
const IDLE = 0x49;

/** A frontend message the backend answers with ReadyForQuery: Sync, a simple Query, or the startup message. */
function endsExchange(message: Uint8Array): boolean {
  // A startup message has no type byte: it begins with its length, whose first byte is 0.
  return message[0] === SYNC || message[0] === QUERY || message[0] === 0;
}

function queryMessage(text: string): Uint8Array {
  const body = Buffer.from(`${text}\0`);
  const message = Buffer.alloc(5 + body.length);
  message[0] = QUERY;
  message.writeInt32BE(4 + body.length, 1);
  body.copy(message, 5);
  return message;
}
const SYNC_MESSAGE = Uint8Array.of(SYNC, 0, 0, 0, 4);

type Queue = PGLiteSocketHandlerOptions["queryQueue"];
/** What PGLiteSocketHandler calls on its queue (the version is pinned in package.json; the tests run it). */
type QueueCalls = Pick<Queue, "enqueue" | "clearQueueForHandler" | "clearTransactionIfNeeded">;

/** Turns at the one PGlite session, a whole exchange at a time, between socket clients and this process. */
class Session implements QueueCalls {
  private owner: { handlerId: number; release: () => void } | undefined;
  private holdTimer: NodeJS.Timeout | undefined;
  /** Each client's messages, one after another. */
  private readonly chains = new Map<number, Promise<unknown>>();
  private readonly gone = new Set<number>();
  private readonly endings = new Map<number, Promise<void>>();

  constructor(
    private readonly client: PGlite,
    private readonly holdLimitMs: number,
    private readonly onHeldTooLong: (handlerId: number) => void,
  ) {}

  enqueue(handlerId: number, message: Uint8Array, onData: (data: Uint8Array) => void): Promise<number> {
    const previous = this.chains.get(handlerId) ?? Promise.resolve();
    const turn = previous.then(() => this.run(handlerId, message, onData));
    this.chains.set(
      handlerId,
      turn.catch(() => {}),
    );
    return turn;
  }

  clearQueueForHandler(handlerId: number): void {
    this.gone.add(handlerId);
  }

  /**
   * The client has gone: end what it left open (an exchange, a transaction) and give the session back. A handler
   * can be detached twice at once (an error, then its close): both wait for the one ending.
   */
  clearTransactionIfNeeded(handlerId: number): Promise<void> {
    this.gone.add(handlerId);
    let ending = this.endings.get(handlerId);
    if (ending === undefined) {
      ending = this.end(handlerId).finally(() => {
        this.endings.delete(handlerId);
        this.chains.delete(handlerId);
        this.gone.delete(handlerId);
      });
      this.endings.set(handlerId, ending);
    }
    return ending;
  }

  private async end(handlerId: number): Promise<void> {
    await this.chains.get(handlerId);
    if (this.owner?.handlerId !== handlerId) return;
    try {
      const status = await this.execute(SYNC_MESSAGE, () => {});
      if (status !== IDLE) await this.execute(queryMessage("ROLLBACK"), () => {});
    } finally {
      this.release(handlerId);
    }
  }

  private async run(handlerId: number, message: Uint8Array, onData: (data: Uint8Array) => void) {
    if (this.gone.has(handlerId)) throw new Error("Handler disconnected");
    if (this.owner?.handlerId === handlerId) {
      clearTimeout(this.holdTimer);
    } else {
      const release = await this.acquire();
      this.owner = { handlerId, release };
      if (this.gone.has(handlerId)) {
        this.release(handlerId);
        throw new Error("Handler disconnected");
      }
    }
    let bytes = 0;
    const status = await this.execute(message, (data) => {
      bytes += data.length;
      onData(data);
    });
    if (endsExchange(message) && status === IDLE) {
      this.release(handlerId);
    } else {
      this.holdTimer = setTimeout(() => this.onHeldTooLong(handlerId), this.holdLimitMs);
      this.holdTimer.unref();
    }
    return bytes;
  }

  /** Runs one message; the transaction status of the ReadyForQuery that ends its answer, if it ends with one. */
  private async execute(
    message: Uint8Array,
    onData: (data: Uint8Array) => void,
  ): Promise<number | undefined> {
    let tail: Uint8Array = new Uint8Array(0);
    await this.client.runExclusive(() =>
      this.client.execProtocolRawStream(message, {
        onRawData: (data) => {
          tail = lastBytes(tail, data, 6);
          onData(data);
        },
      }),
    );
    const ready = tail.length === 6 && tail[0] === READY_FOR_QUERY && tail[4] === 5;
    return ready ? tail[5] : undefined;
  }

  /** PGlite's transaction lock, held until released: in-process queries and transactions wait for it. */
  private acquire(): Promise<() => void> {
    return new Promise((acquired, failed) => {
      this.client
        ._runExclusiveTransaction(() => new Promise<void>((release) => acquired(release)))
        .catch(failed);
    });
  }

  private release(handlerId: number): void {
    const owner = this.owner;
    if (owner?.handlerId !== handlerId) return;
    clearTimeout(this.holdTimer);
    this.owner = undefined;
    owner.release();
  }
}

function lastBytes(previous: Uint8Array, data: Uint8Array, n: number): Uint8Array {
  if (data.length >= n) return data.slice(data.length - n);
  const joined = new Uint8Array(previous.length + data.length);
  joined.set(previous);
  joined.set(data, previous.length);
  return joined.slice(Math.max(0, joined.length - n));
}

export interface SocketServer {
  path: string;
  /** Disconnects every client (rolling back what each left open) and stops listening. */
  close(): Promise<void>;
}

/**
 * Serves `client` at socketPath(dataDir). The caller holds the data directory's lock, so a socket file already
 * there was left by a process that died, and is replaced.
 */
export async function serveSocket(
  client: PGlite,
  dataDir: string,
  options: SocketOptions = {},
): Promise<SocketServer> {
  const dir = socketDirectory(dataDir);
  const path = socketPath(dataDir);
  // Node would listen at the path cut to what fits, where no client looks.
  if (Buffer.byteLength(path) > MAX_SOCKET_PATH) {
    throw new Error(
      `${path} is longer than the ${MAX_SOCKET_PATH} bytes of a Unix socket's path: use a shorter DATA_DIR`,
    );
  }
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await chmod(dir, 0o700);
  await rm(path, { force: true });

  const handlers = new Map<number, { handler: PGLiteSocketHandler; socket: Socket }>();
  const session = new Session(client, options.holdLimitMs ?? HOLD_LIMIT_MS, (handlerId) =>
    handlers.get(handlerId)?.socket.destroy(),
  );
  const queue = session as QueueCalls as Queue;
  const server = createServer((socket) => {
    const handler = new PGLiteSocketHandler({ queryQueue: queue, closeOnDetach: true });
    const forget = () => handlers.delete(handler.handlerId);
    handler.addEventListener("close", forget);
    handler.addEventListener("error", forget);
    handlers.set(handler.handlerId, { handler, socket });
    void handler.attach(socket);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(path, () => {
      server.off("error", reject);
      resolve();
    });
  });
  await chmod(path, 0o600);
  return {
    path,
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      await Promise.all([...handlers.values()].map(({ handler }) => handler.detach(true)));
      handlers.clear();
      await closed;
    },
  };
}
