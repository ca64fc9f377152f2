/**
 * The settings every pooled session of a PostgreSQL server starts with. CI runs this against its server; on the
 * embedded database (no DATABASE_URL) there is no server session to check.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "./client.js";
import { openDatabase } from "./open-database.js";

const url = process.env.DATABASE_URL;

describe.runIf(url !== undefined && url !== "")("a PostgreSQL server's pooled sessions", () => {
  let database: Database;
  beforeAll(async () => {
    database = await openDatabase({ url, dataDir: ":memory:", poolSize: 2 });
  });
  afterAll(() => database?.close());

  it("run in UTC, without JIT (which compiled a 3 ms page for 140-170 ms) and without parallel workers", async () => {
    const show = async (setting: string) => {
      const result = (await database.db.execute(sql.raw(`SHOW ${setting}`))) as unknown as {
        rows: Record<string, string>[];
      };
      return Object.values(result.rows[0] ?? {})[0];
    };
    expect(await show("TimeZone")).toBe("UTC");
    expect(await show("jit")).toBe("off");
    expect(await show("max_parallel_workers_per_gather")).toBe("0");
  });
});
