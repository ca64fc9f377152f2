import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { setImmediate as nextTurn } from "node:timers/promises";
import { PGlite } from "@electric-sql/pglite";
import { btree_gin } from "@electric-sql/pglite/contrib/btree_gin";
import { btree_gist } from "@electric-sql/pglite/contrib/btree_gist";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { unaccent } from "@electric-sql/pglite/contrib/unaccent";
import { sql } from "drizzle-orm";
import { drizzle as drizzleNodePg } from "drizzle-orm/node-postgres";
import { migrate as migrateNodePg } from "drizzle-orm/node-postgres/migrator";
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import { claimDataDir, type EmbeddedAccess, EmbeddedDatabaseError } from "./data-dir.js";
import { joinServedDatabase } from "./joined.js";
import { type MigrationReport, migrationsFolder, reportingMigration } from "./migrations-folder.js";
import { type SocketServer, serveSocket } from "./pglite-socket.js";
import * as schema from "./schema/index.js";

export { DataDirInUseError, EmbeddedDatabaseError, isAlive } from "./data-dir.js";
export { type MigrationReport, migrationsFolder } from "./migrations-folder.js";

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = PgTransaction<PgQueryResultHKT, Schema>;
/** Repository functions take either the database or an open transaction. */
export type Executor = Db | Tx;

export interface Database {
  /** "pglite-socket": the embedded database of another process (a running server), through its socket. */
  kind: "pglite" | "postgres" | "pglite-socket";
  /** Which database this is, for start-up messages (never a password). */
  description: string;
  db: Db;
  /** Brings the schema up to date; says how many migrations this call applied, of how many there are. */
  migrate(): Promise<MigrationReport>;
  /**
   * The embedded database in a directory only: serves it to other local processes (the CLI, a worker) over a Unix
   * socket in the directory, while this process goes on using it; resolves to the socket's path.
   */
  serve?(): Promise<string>;
  ping(): Promise<void>;
  close(): Promise<void>;
  /**
   * Calls `onNotify` for every `NOTIFY channel` committed by any session (any process, on a server), and once
   * more whenever the listening connection is re-established, since notifications sent while it was down are
   * lost. Resolves once listening; the function it resolves to stops. Absent where no notification reaches this
   * process (the embedded database of another process, joined over its socket), which must poll.
   */
  listen?(channel: string, onNotify: () => void): Promise<() => Promise<void>>;
}

/** A channel name as LISTEN takes it: an identifier, so only these characters (it is spliced into the statement). */
function channelIdentifier(channel: string): string {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(channel)) throw new Error(`invalid channel name "${channel}"`);
  return channel;
}

export interface DatabaseOptions {
  /** `postgres://…`: a server through a `pg` pool. Otherwise PGlite in `dataDir` (`:memory:` for none). */
  url?: string;
  dataDir: string;
  poolSize?: number;
  /**
   * PGlite in memory only: start as a copy of this image (a file written by `writePgliteImage`) instead of
   * running initdb on an empty cluster. The tests load one migrated image per run this way.
   */
  image?: string;
  /** The embedded database in a directory another process may hold: how to reach it (data-dir.ts). */
  embedded?: EmbeddedAccess;
  /** How long to wait for another process that holds the directory without serving it; 0 (the default) fails. */
  waitMs?: number;
  /** Told what opening does that takes time: waiting for another process, creating a new database. */
  onProgress?: (message: string) => void;
}

// Any constant shared by every process of this service: the advisory lock serialises concurrent migrations.
const MIGRATION_LOCK_ID = 724_311_001;

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  const poolSize = options.poolSize ?? 10;
  if (options.url !== undefined) return openPostgres(options.url, poolSize);
  const { dataDir } = options;
  if (dataDir === ":memory:") {
    if (options.embedded === "join")
      throw new EmbeddedDatabaseError("an in-memory database cannot be joined");
    return openPglite(dataDir, () => {}, options.image);
  }
  if (options.image !== undefined) throw new Error("a PGlite image can only seed an in-memory database");
  await mkdir(dataDir, { recursive: true });
  const claim = await claimDataDir(dataDir, {
    access: options.embedded ?? "open",
    waitMs: options.waitMs ?? 0,
    onWait: options.onProgress,
    join: (pid) => joinServedDatabase(dataDir, pid, poolSize),
  });
  return "joined" in claim ? claim.joined : openPglite(dataDir, claim.unlock, undefined, options.onProgress);
}

/** `postgres://user:secret@host:5432/db?…` → `host:5432/db`: where, without the credentials. */
function serverAddress(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.host}${parsed.pathname}`;
  } catch {
    return "(an unparsable DATABASE_URL)";
  }
}

async function openPostgres(url: string, poolSize: number): Promise<Database> {
  // No JIT: the planner's cost of a statement over a large tenant's table (costed before LIMIT stops it) passes
  // jit_above_cost, and compiling then takes 140-170 ms for a page that runs in 3 ms. Our statements are short
  // OLTP reads and writes; none is the long analytic scan JIT pays off for.
  const pool = new pg.Pool({ connectionString: url, max: poolSize, options: "-c TimeZone=UTC -c jit=off" });
  // An idle client that loses its server must not crash the process; the next query reports the failure.
  pool.on("error", () => {});
  const db = drizzleNodePg(pool, { schema }) as unknown as Db;
  return {
    kind: "postgres",
    description: `PostgreSQL at ${serverAddress(url)}`,
    db,
    async migrate() {
      const client = await pool.connect();
      try {
        await client.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK_ID]);
        return await reportingMigration(
          (text) => client.query(text),
          () => migrateNodePg(drizzleNodePg(client, { schema }), { migrationsFolder: migrationsFolder() }),
        );
      } finally {
        await client.query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK_ID]).catch(() => {});
        client.release();
      }
    },
    async ping() {
      await db.execute(sql`SELECT 1`);
    },
    async close() {
      await pool.end();
    },
    listen: (channel, onNotify) => listenPostgres(url, channelIdentifier(channel), onNotify),
  };
}

/** Reconnection backoff of a lost LISTEN connection: from 100 ms, doubling, at most 10 s. */
const LISTEN_RETRY_MS = { first: 100, max: 10_000 };

/**
 * LISTEN needs a connection of its own for as long as it listens: a pooled one would be handed to queries, and its
 * subscription lost when released. A dropped connection is reopened with backoff (the caller is told, so it can
 * look for what it missed); the first connection must succeed, so a bad URL fails at start.
 */
async function listenPostgres(
  url: string,
  channel: string,
  onNotify: () => void,
): Promise<() => Promise<void>> {
  let stopped = false;
  let client: pg.Client | undefined;
  let retryTimer: NodeJS.Timeout | undefined;
  let delay = LISTEN_RETRY_MS.first;

  const connect = async (): Promise<void> => {
    const next = new pg.Client({ connectionString: url });
    next.on("notification", (message) => {
      if (message.channel === channel) onNotify();
    });
    next.on("error", () => reconnect(next));
    next.on("end", () => reconnect(next));
    try {
      await next.connect();
      await next.query(`LISTEN ${channel}`);
    } catch (err) {
      await next.end().catch(() => {});
      throw err;
    }
    client = next;
    delay = LISTEN_RETRY_MS.first;
  };

  const reconnect = (lost: pg.Client) => {
    if (stopped || client !== lost) return;
    client = undefined;
    lost.end().catch(() => {});
    const retry = () => {
      retryTimer = undefined;
      if (stopped) return;
      connect().then(onNotify, () => {
        delay = Math.min(LISTEN_RETRY_MS.max, delay * 2);
        retryTimer = setTimeout(retry, delay);
      });
    };
    retryTimer = setTimeout(retry, delay);
  };

  await connect();
  return async () => {
    stopped = true;
    clearTimeout(retryTimer);
    const last = client;
    client = undefined;
    await last?.end().catch(() => {});
  };
}

/** A PGlite with the extensions the migrations need, in `dir` (none: in memory), or a copy of `image`. */
async function createPglite(dir: string | undefined, image?: Blob): Promise<PGlite> {
  const client = await PGlite.create(dir, {
    extensions: { unaccent, pg_trgm, btree_gin, btree_gist },
    ...(image === undefined ? {} : { loadDataDir: image }),
  });
  await client.exec("SET TIME ZONE 'UTC'");
  // PGlite runs on the event loop, and its files live in memory (or go through it): filling each new 16 MB WAL
  // segment with zeros, which reserves disk space for a server, copied ever larger buffers for 40-70 ms of one
  // statement every 16 MB of writes, so a bulk write stalled every other request. Only this one session writes.
  await client.exec("SET wal_init_zero = off");
  yieldAfterEachStatement(client);
  return client;
}

/** The first byte of the protocol's Sync message, which ends each statement PGlite runs (query or exec). */
const SYNC = 0x53;

/**
 * PGlite runs each statement synchronously on the event loop, and its answers settle at once, so a chain of
 * statements (a transaction's lookups, checks and writes) would hold the loop from the first to the last: a bulk
 * write kept every other tenant's request waiting 50-100 ms. After each statement the loop gets a turn, so what
 * another request waits for is one statement, as on a server. (Another request's statements still queue behind
 * the open transaction: PGlite has one session.)
 */
function yieldAfterEachStatement(client: PGlite): void {
  const exec = client.execProtocolStream.bind(client);
  client.execProtocolStream = async (message, options) => {
    const answer = await exec(message, options);
    if (message[0] === SYNC) await nextTurn();
    return answer;
  };
}

function migratePgliteClient(client: PGlite): Promise<void> {
  return migratePglite(drizzlePglite(client, { schema }), { migrationsFolder: migrationsFolder() });
}

/**
 * Writes an image of a freshly migrated in-memory PGlite to `file` (an uncompressed tarball of its data
 * directory): openDatabase({ dataDir: ":memory:", image: file }) then starts from it in a fraction of the time
 * initdb and the migrations take. Made for tests, so made to load fast: 16 MB of shared buffers instead of
 * 128 MB (zeroed at every start) and no template databases (a third of the files; nothing creates databases).
 */
export async function writePgliteImage(file: string): Promise<void> {
  const client = await createPglite(undefined);
  try {
    await migratePgliteClient(client);
    for (const statement of [
      "ALTER SYSTEM SET shared_buffers = '16MB'",
      "ALTER DATABASE template0 IS_TEMPLATE false",
      "DROP DATABASE template0",
      "ALTER DATABASE template1 IS_TEMPLATE false",
      "DROP DATABASE template1",
      "CHECKPOINT",
    ]) {
      await client.query(statement);
    }
    const tarball = await client.dumpDataDir("none");
    await writeFile(file, new Uint8Array(await tarball.arrayBuffer()));
  } finally {
    await client.close();
  }
}

// An image is read once per process (a run writes each image to a new path, and never changes it).
const images = new Map<string, Promise<Blob>>();
function readImage(file: string): Promise<Blob> {
  let image = images.get(file);
  if (image === undefined) {
    image = readFile(file).then((bytes) => new Blob([bytes]));
    image.catch(() => images.delete(file));
    images.set(file, image);
  }
  return image;
}

/** PGlite in `dataDir` (whose lock `unlock` gives back), or in memory. */
async function openPglite(
  dataDir: string,
  unlock: () => void,
  image?: string,
  say?: (message: string) => void,
): Promise<Database> {
  const memory = dataDir === ":memory:";
  const dir = memory ? undefined : join(dataDir, "pglite");
  if (dir !== undefined && !existsSync(join(dir, "PG_VERSION"))) {
    say?.(`database: creating the embedded database in ${dataDir} (its first start: a few seconds)`);
  }
  let client: PGlite;
  try {
    const tarball = image === undefined ? undefined : await readImage(image);
    client = await createPglite(dir, tarball);
  } catch (err) {
    unlock();
    throw err;
  }
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  let socket: Promise<SocketServer> | undefined;
  return {
    kind: "pglite",
    description: memory ? "embedded, in memory" : `embedded, in ${dataDir}`,
    db,
    migrate() {
      return reportingMigration(
        (text) => client.query(text),
        () => migratePgliteClient(client),
      );
    },
    ...(memory
      ? {}
      : {
          async serve() {
            socket ??= serveSocket(client, dataDir);
            return (await socket).path;
          },
        }),
    async ping() {
      await client.query("SELECT 1");
    },
    async close() {
      // Clients of the socket first: each one's open transaction is rolled back before PGlite closes.
      await (await socket?.catch(() => undefined))?.close();
      await client.close();
      unlock();
    },
    // PGlite runs in this process: a NOTIFY committed by any of its queries calls back here, after the commit.
    async listen(channel, onNotify) {
      const unlisten = await client.listen(channelIdentifier(channel), () => onNotify());
      return async () => {
        if (!client.closed) await unlisten();
      };
    },
  };
}
