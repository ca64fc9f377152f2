/**
 * The embedded database of another process (a running `npm start`), through the Unix socket it serves
 * (pglite-socket.ts), with the driver used for DATABASE_URL.
 */
import { sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/node-postgres";
import pg from "pg";
import type { Database, Db } from "./client.js";
import { EmbeddedDatabaseError } from "./data-dir.js";
import { knownMigrations, recordedMigrations } from "./migrations-folder.js";
import { SOCKET_PORT, socketDirectory, socketPath } from "./pglite-socket.js";
import * as schema from "./schema/index.js";

/** Errors of a socket nobody answers on: the serving process is stopping, or died without removing it. */
const UNANSWERED = new Set(["ENOENT", "ECONNREFUSED", "ECONNRESET"]);

/** Joins the process `pid` serving the database in `dataDir`; undefined when its socket does not answer. */
export async function joinServedDatabase(
  dataDir: string,
  pid: number,
  poolSize: number,
): Promise<Database | undefined> {
  // PGlite takes any user and database name, and has no password to give.
  const pool = new pg.Pool({
    host: socketDirectory(dataDir),
    port: SOCKET_PORT,
    user: "postgres",
    database: "postgres",
    max: poolSize,
  });
  pool.on("error", () => {});
  try {
    await pool.query("SELECT 1");
  } catch (err) {
    await pool.end().catch(() => {});
    if (UNANSWERED.has((err as NodeJS.ErrnoException).code ?? "")) return undefined;
    throw err;
  }
  const db = drizzle(pool, { schema }) as unknown as Db;
  return {
    kind: "pglite-socket",
    description: `the embedded database in ${dataDir}, through process ${pid} (its socket ${socketPath(dataDir)})`,
    db,
    /**
     * The serving process migrated the database when it started, and is the one that may: two migrations at once
     * over its one session would not exclude each other (an advisory lock is held by the session, and every
     * client shares it), and its running code would meet a schema newer than itself. Here they are only counted.
     */
    async migrate() {
      const recorded = await recordedMigrations((text) => pool.query(text));
      const known = knownMigrations();
      if (recorded < known) {
        throw new EmbeddedDatabaseError(
          `the embedded database in ${dataDir} has ${recorded} of the ${known} migrations of this code: process ` +
            `${pid} serves it with older code. Restart it (npm start applies them), then run this again`,
        );
      }
      return { applied: 0, total: recorded };
    },
    async ping() {
      await db.execute(sql`SELECT 1`);
    },
    async close() {
      await pool.end();
    },
    // No listen: PGlite hands a notification to the process running it, in-process, and none crosses the socket.
  };
}
