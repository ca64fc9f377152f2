import { randomBytes } from "node:crypto";
import pg from "pg";
import { type Harness, startHarness } from "./harness.js";

async function onServer(url: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/**
 * A harness on a database of the test file's own when the tests run on a PostgreSQL server (DATABASE_URL): the
 * planner's statistics then describe the file's tenants alone, not whatever rows other files (or earlier runs)
 * left in the shared database, so a plan is the same on every run and on CI's fresh server. The harness
 * migrates it; closing the harness drops it. PGlite gives every harness its own database already.
 */
export async function startHarnessOnOwnDatabase(prefix: string): Promise<Harness> {
  const shared = process.env.DATABASE_URL;
  if (shared === undefined || shared === "") return startHarness();
  const name = `${prefix}_${randomBytes(6).toString("hex")}`;
  await onServer(shared, `CREATE DATABASE ${name}`);
  const url = new URL(shared);
  url.pathname = `/${name}`;
  const h = await startHarness({ DATABASE_URL: url.toString() });
  return {
    ...h,
    async close() {
      try {
        await h.close();
      } finally {
        await onServer(shared, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      }
    },
  };
}
