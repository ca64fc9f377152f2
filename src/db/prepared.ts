import { createHash } from "node:crypto";
import type { Executor } from "./client.js";

const statements = new WeakMap<Executor, Map<string, unknown>>();

/** PostgreSQL cuts identifiers, prepared statements' names among them, to NAMEDATALEN - 1 bytes. */
const MAX_NAME_BYTES = 63;

/**
 * The server-side name of a prepared statement: the name itself when PostgreSQL keeps it whole, else its start and
 * a digest of all of it. A list's name grows with the filters present (`users_createdAt_desc_list_profileEq0_…`),
 * and two long names cut alike would be one statement on the server: the second to be prepared on a connection
 * fails ("already exists").
 */
export function statementName(name: string): string {
  if (Buffer.byteLength(name) <= MAX_NAME_BYTES) return name;
  const digest = createHash("sha256").update(name).digest("hex").slice(0, 16);
  return `${name.slice(0, MAX_NAME_BYTES - digest.length - 1)}_${digest}`;
}

/**
 * A prepared statement per database handle, built on first use. Hot queries skip parsing and planning on every
 * request (the list benchmark measured them about a third slower unprepared). The name must be unique per shape;
 * `build` gets the name to prepare the statement under on the server (`statementName`).
 */
export function prepared<T>(db: Executor, name: string, build: (serverName: string) => T): T {
  let byName = statements.get(db);
  if (byName === undefined) {
    byName = new Map();
    statements.set(db, byName);
  }
  let statement = byName.get(name) as T | undefined;
  if (statement === undefined) {
    statement = build(statementName(name));
    byName.set(name, statement);
  }
  return statement;
}
