import type { Config } from "./config/index.js";
import { ConfigError } from "./config/index.js";
import { EMBEDDED_WAIT_MS, type EmbeddedAccess, EmbeddedDatabaseError } from "./db/data-dir.js";
import { migrationSummary } from "./db/migrations-folder.js";
import { openDatabase } from "./db/open-database.js";
import { type AppContext, createContext } from "./platform/context.js";

export interface OpenContextOptions {
  /**
   * For tests: an in-memory PGlite (no DATABASE_URL, DATA_DIR `:memory:`) starts as a copy of this image (see
   * writePgliteImage) instead of an empty cluster. Ignored for any other database.
   */
  pgliteImage?: string;
  /** Told what start-up is doing (the database it opens, the migrations it applies), so a start is not silent. */
  onProgress?: (message: string) => void;
  /** The embedded database when another process holds it (db/data-dir.ts); "open" unless said. */
  embedded?: EmbeddedAccess;
  /** The embedded database opened here, once migrated: serve it to other local processes (npm start). */
  serve?: boolean;
}

/** What every entry point does first: open the configured database, bring its schema up to date, build the context. */
export async function openContext(
  config: Config,
  poolSize = config.db.poolSize,
  options: OpenContextOptions = {},
): Promise<AppContext> {
  const say = options.onProgress ?? (() => {});
  const memory = config.db.url === undefined && config.db.dataDir === ":memory:";
  const database = await openDatabase({
    url: config.db.url,
    dataDir: config.db.dataDir,
    poolSize,
    ...(options.pgliteImage !== undefined && memory ? { image: options.pgliteImage } : {}),
    embedded: options.embedded,
    waitMs: memory ? 0 : EMBEDDED_WAIT_MS,
    onProgress: say,
  });
  try {
    say(`database: ${database.description}`);
    say(`migrations: ${migrationSummary(await database.migrate())}`);
    // Only once migrated: a process joining it never meets a schema half way.
    if (options.serve && database.serve !== undefined) {
      try {
        say(
          `database: serving other local processes (npm run cli, npm run worker) at ${await database.serve()}`,
        );
      } catch (err) {
        // Serving is a convenience: the server runs without it, as before it existed.
        say(
          `database: not served to other local processes (${(err as Error).message}); the CLI needs this ` +
            "server stopped, and npm run worker needs DATABASE_URL",
        );
      }
    }
  } catch (err) {
    await database.close();
    throw err;
  }
  return createContext(config, database);
}

/** Ends a process that could not start: configuration mistakes in one line, anything else in full. */
export function exitOnStartupFailure(err: unknown): never {
  if (err instanceof ConfigError) {
    console.error(`configuration error: ${err.message}`);
  } else if (err instanceof EmbeddedDatabaseError) {
    console.error(`error: ${err.message}`);
  } else {
    console.error(err);
  }
  process.exit(1);
}
