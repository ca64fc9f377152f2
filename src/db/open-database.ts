/**
 * Opens the database the configuration names: a PostgreSQL server (postgres.ts), the embedded PGlite in a directory
 * or in memory (pglite.ts), or the embedded database another process serves (joined.ts).
 */
import { mkdir } from "node:fs/promises";
import type { Database } from "./client.js";
import { claimDataDir, type EmbeddedAccess, EmbeddedDatabaseError } from "./data-dir.js";
import { joinServedDatabase } from "./joined.js";
import { openPglite } from "./pglite.js";
import { openPostgres } from "./postgres.js";

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
