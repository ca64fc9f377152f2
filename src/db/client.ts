/**
 * What a database is to the rest of the code: the Drizzle handle (`Db`), a transaction (`Tx`), either one
 * (`Executor`, which every repository function takes), and the opened `Database` with its lifecycle. Opening one
 * is open-database.ts's, with postgres.ts, pglite.ts and joined.ts behind it; they import these types, so the types
 * live apart from the code that opens.
 */
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from "drizzle-orm/pg-core";
import type { MigrationReport } from "./migrations-folder.js";
import type * as schema from "./schema/index.js";

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
   * Calls `onNotify` for every `NOTIFY channel` committed by any session (any process, on a server); once as soon
   * as it listens, since what was committed before then notified no one (a worker's first look may have run before
   * it); and once more whenever the listening connection is re-established, since notifications sent while it was
   * down are lost. Resolves once listening; the function it resolves to stops. Absent where no notification
   * reaches this process (the embedded database of another process, joined over its socket), which must poll.
   */
  listen?(channel: string, onNotify: () => void): Promise<() => Promise<void>>;
}

/** A channel name as LISTEN takes it: an identifier, so only these characters (it is spliced into the statement). */
export function channelIdentifier(channel: string): string {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(channel)) throw new Error(`invalid channel name "${channel}"`);
  return channel;
}
