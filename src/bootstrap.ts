import type { Config } from "./config/index.js";
import { ConfigError } from "./config/index.js";
import { DataDirInUseError, openDatabase } from "./db/client.js";
import { type AppContext, createContext } from "./platform/context.js";

export interface OpenContextOptions {
  /**
   * For tests: an in-memory PGlite (no DATABASE_URL, DATA_DIR `:memory:`) starts as a copy of this image (see
   * writePgliteImage) instead of an empty cluster. Ignored for any other database.
   */
  pgliteImage?: string;
  /** Told what start-up is doing (the database it opens, the migrations it applies), so a start is not silent. */
  onProgress?: (message: string) => void;
}

/** What every entry point does first: open the configured database, bring its schema up to date, build the context. */
export async function openContext(
  config: Config,
  poolSize = config.db.poolSize,
  options: OpenContextOptions = {},
): Promise<AppContext> {
  const say = options.onProgress ?? (() => {});
  say(
    config.db.url !== undefined
      ? "database: connecting to PostgreSQL"
      : config.db.dataDir === ":memory:"
        ? "database: an embedded database in memory"
        : `database: opening the embedded database in ${config.db.dataDir} (created on the first start)`,
  );
  const database = await openDatabase({
    url: config.db.url,
    dataDir: config.db.dataDir,
    poolSize,
    ...(options.pgliteImage !== undefined && config.db.url === undefined && config.db.dataDir === ":memory:"
      ? { image: options.pgliteImage }
      : {}),
  });
  try {
    const { applied, total } = await database.migrate();
    say(`database: ${applied} migration${applied === 1 ? "" : "s"} applied (${total} in all)`);
  } catch (err) {
    await database.close();
    throw err;
  }
  return createContext(config, database);
}

/** Ends a process that could not start: configuration mistakes in one line, anything else in full. */
export function exitOnStartupFailure(err: unknown): never {
  if (err instanceof ConfigError || err instanceof DataDirInUseError) {
    console.error(`configuration error: ${err.message}`);
  } else {
    console.error(err);
  }
  process.exit(1);
}
