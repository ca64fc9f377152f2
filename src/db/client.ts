import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { setImmediate as nextTurn } from "node:timers/promises";
import { fileURLToPath } from "node:url";
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
import * as schema from "./schema/index.js";

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = PgTransaction<PgQueryResultHKT, Schema>;
/** Repository functions take either the database or an open transaction. */
export type Executor = Db | Tx;

export interface Database {
  kind: "pglite" | "postgres";
  db: Db;
  /** Brings the schema up to date; says how many migrations this call applied, of how many there are. */
  migrate(): Promise<MigrationReport>;
  ping(): Promise<void>;
  close(): Promise<void>;
  /**
   * Calls `onNotify` for every `NOTIFY channel` committed by any session (any process, on a server), and once
   * more whenever the listening connection is re-established, since notifications sent while it was down are
   * lost. Resolves once listening; the function it resolves to stops.
   */
  listen(channel: string, onNotify: () => void): Promise<() => Promise<void>>;
}

export interface MigrationReport {
  applied: number;
  total: number;
}

/** The migrations drizzle has recorded in this database (none before the first). */
async function recordedMigrations(query: (text: string) => Promise<{ rows: unknown[] }>): Promise<number> {
  // Two statements: a query naming a table that does not exist fails when it is parsed, whatever guards it.
  const exists = await query("SELECT to_regclass('drizzle.__drizzle_migrations') IS NOT NULL AS e");
  if (!(exists.rows[0] as { e: boolean }).e) return 0;
  const result = await query("SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations");
  return (result.rows[0] as { n: number }).n;
}

/** Migrations around `run`: the count it applied, from drizzle's own record of them. */
async function reportingMigration(
  query: (text: string) => Promise<{ rows: unknown[] }>,
  run: () => Promise<void>,
): Promise<MigrationReport> {
  const before = await recordedMigrations(query);
  await run();
  const total = await recordedMigrations(query);
  return { applied: total - before, total };
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
}

/**
 * Migrations live in src/db/migrations. Code run from src/ finds them beside this file; compiled code (dist/db,
 * dist-bench/src/db, …) walks up to the project root, the folder holding package.json.
 */
export function migrationsFolder(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  if (existsSync(join(dir, "migrations", "meta"))) return join(dir, "migrations");
  for (let depth = 0; depth < 6; depth++) {
    if (existsSync(join(dir, "package.json"))) return join(dir, "src", "db", "migrations");
    dir = dirname(dir);
  }
  throw new Error("cannot find src/db/migrations above the running code");
}

// Any constant shared by every process of this service: the advisory lock serialises concurrent migrations.
const MIGRATION_LOCK_ID = 724_311_001;

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.url !== undefined) return openPostgres(options.url, options.poolSize ?? 10);
  return openPglite(options.dataDir, options.image);
}

async function openPostgres(url: string, poolSize: number): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: poolSize, options: "-c TimeZone=UTC" });
  // An idle client that loses its server must not crash the process; the next query reports the failure.
  pool.on("error", () => {});
  const db = drizzleNodePg(pool, { schema }) as unknown as Db;
  return {
    kind: "postgres",
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

/**
 * PGlite is one process's database: a second process opening the same directory would corrupt it. A lock file
 * holding the owner's pid turns that mistake into a clear error; a lock left by a dead process is taken over.
 */
function lockDataDir(dataDir: string): () => void {
  const lockFile = join(dataDir, "pglite.lock");
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(lockFile, String(process.pid), { flag: "wx" });
      return () => rmSync(lockFile, { force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      const owner = Number(readFileSync(lockFile, "utf8"));
      if (Number.isInteger(owner) && owner > 0 && owner !== process.pid && isAlive(owner)) {
        throw new DataDirInUseError(dataDir, owner);
      }
      rmSync(lockFile, { force: true });
    }
  }
  throw new DataDirInUseError(dataDir, 0);
}

/** Whether process `pid` runs (EPERM: it does, as another user). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

export class DataDirInUseError extends Error {
  constructor(dataDir: string, pid: number) {
    super(
      `the embedded database in ${dataDir} is in use by process ${pid}; PGlite serves one process at a time ` +
        "(stop it first, or use DATABASE_URL)",
    );
  }
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

async function openPglite(dataDir: string, image?: string): Promise<Database> {
  const memory = dataDir === ":memory:";
  if (image !== undefined && !memory) throw new Error("a PGlite image can only seed an in-memory database");
  if (!memory) await mkdir(dataDir, { recursive: true });
  const unlock = memory ? () => {} : lockDataDir(dataDir);
  let client: PGlite;
  try {
    const tarball = image === undefined ? undefined : await readImage(image);
    client = await createPglite(memory ? undefined : join(dataDir, "pglite"), tarball);
  } catch (err) {
    unlock();
    throw err;
  }
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  return {
    kind: "pglite",
    db,
    migrate() {
      return reportingMigration(
        (text) => client.query(text),
        () => migratePgliteClient(client),
      );
    },
    async ping() {
      await client.query("SELECT 1");
    },
    async close() {
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
