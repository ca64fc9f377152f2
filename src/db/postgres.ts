/** A PostgreSQL server through a `pg` pool (DATABASE_URL), with migrations under a lock and LISTEN. */
import { sql } from "drizzle-orm";
import { drizzle as drizzleNodePg } from "drizzle-orm/node-postgres";
import { migrate as migrateNodePg } from "drizzle-orm/node-postgres/migrator";
import pg from "pg";
import { channelIdentifier, type Database, type Db } from "./client.js";
import { migrationsFolder, reportingMigration } from "./migrations-folder.js";
import * as schema from "./schema/index.js";

// Any constant shared by every process of this service: the advisory lock serialises concurrent migrations.
const MIGRATION_LOCK_ID = 724_311_001;

/** `postgres://user:secret@host:5432/db?…` → `host:5432/db`: where, without the credentials. */
function serverAddress(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.host}${parsed.pathname}`;
  } catch {
    return "(an unparsable DATABASE_URL)";
  }
}

export async function openPostgres(url: string, poolSize: number): Promise<Database> {
  // No JIT: the planner's cost of a statement over a large tenant's table (costed before LIMIT stops it) passes
  // jit_above_cost, and compiling then takes 140-170 ms for a page that runs in 3 ms. Our statements are short
  // OLTP reads and writes; none is the long analytic scan JIT pays off for.
  // No parallel workers: a request runs on one backend, so one tenant's request cannot take the cores of the
  // others' (a parallel plan uses up to three). And the parallel paths were what the generic plan of a user's
  // enrollments page chose: a parallel sequential scan of the whole table (100 ms) over the user's index (0.3 ms),
  // once the per-row progress subqueries of a skewed catalogue made every plan look expensive.
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    options: "-c TimeZone=UTC -c jit=off -c max_parallel_workers_per_gather=0",
  });
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
  onNotify();
  return async () => {
    stopped = true;
    clearTimeout(retryTimer);
    const last = client;
    client = undefined;
    await last?.end().catch(() => {});
  };
}
