import type { Executor } from "./client.js";

const statements = new WeakMap<Executor, Map<string, unknown>>();

/**
 * A prepared statement per database handle, built on first use. Hot queries skip parsing and planning on every
 * request (the list benchmark measured them about a third slower unprepared). The name must be unique per shape.
 */
export function prepared<T>(db: Executor, name: string, build: () => T): T {
  let byName = statements.get(db);
  if (byName === undefined) {
    byName = new Map();
    statements.set(db, byName);
  }
  let statement = byName.get(name) as T | undefined;
  if (statement === undefined) {
    statement = build();
    byName.set(name, statement);
  }
  return statement;
}
