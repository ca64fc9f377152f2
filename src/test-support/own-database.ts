import { randomBytes } from "node:crypto";
import pg from "pg";
import { type Harness, startHarness } from "./harness.js";

/** A database of a test's own on the server of `serverUrl`, dropped WITH (FORCE) (connections and all) by `drop`. */
export interface ScratchDatabase {
  url: string;
  drop(): Promise<void>;
}

async function onServer(serverUrl: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

export async function createScratchDatabase(serverUrl: string, prefix: string): Promise<ScratchDatabase> {
  const name = `${prefix}_${randomBytes(6).toString("hex")}`;
  await onServer(serverUrl, `CREATE DATABASE "${name}"`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => onServer(serverUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
  };
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
  const scratch = await createScratchDatabase(shared, prefix);
  const h = await startHarness({ DATABASE_URL: scratch.url });
  return {
    ...h,
    async close() {
      try {
        await h.close();
      } finally {
        await scratch.drop();
      }
    },
  };
}
