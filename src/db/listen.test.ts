/**
 * Database.listen on either database: a worker looks for work at start and then waits for notifications, and a row
 * committed between its look and its LISTEN notified no one, so listen calls back once as soon as it listens.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Database } from "./client.js";
import { openDatabase } from "./open-database.js";

const url = process.env.DATABASE_URL;
let database: Database;
beforeAll(async () => {
  database = await openDatabase({ ...(url ? { url } : {}), dataDir: ":memory:", poolSize: 2 });
});
afterAll(() => database?.close());

it("calls back once as soon as it listens, then once per committed NOTIFY", async () => {
  const channel = `listen_test_${process.pid}`;
  let calls = 0;
  const stop = await database.listen!(channel, () => calls++);
  try {
    expect(calls).toBe(1);
    await database.db.execute(sql.raw(`NOTIFY ${channel}`));
    const deadline = Date.now() + 5_000;
    while (calls < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    expect(calls).toBe(2);
  } finally {
    await stop();
  }
});
