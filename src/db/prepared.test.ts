/**
 * Prepared statements' server-side names: PostgreSQL keeps 63 bytes of a name, so two long names that start alike
 * must not reach the server cut to the same one.
 */
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { useApi } from "../test-support/api.js";
import { prepared, statementName } from "./prepared.js";

describe("statementName", () => {
  it("keeps a name PostgreSQL keeps whole, and makes a longer one 63 bytes, distinct from its look-alikes", () => {
    expect(statementName("users_createdAt_desc_list")).toBe("users_createdAt_desc_list");
    const stem = "users_createdAt_desc_list_profileEq0_profileEq1_profileField0_profileField1";
    const one = statementName(`${stem}_role`);
    const two = statementName(`${stem}_status`);
    expect(Buffer.byteLength(one)).toBe(63);
    expect(Buffer.byteLength(two)).toBe(63);
    expect(one).not.toBe(two);
    expect(one.startsWith(stem.slice(0, 40))).toBe(true);
  });
});

describe("prepared", () => {
  const { h } = useApi();

  it("runs two statements whose long names start alike on one connection, each its own", async () => {
    const stem = `probe_${"x".repeat(70)}`;
    const answers = await h.database.db.transaction(async (tx) => {
      const select = (name: string, n: number) =>
        prepared(tx, name, (server) =>
          tx
            .select({ n: sql<number>`${sql.raw(String(n))}::int` })
            .from(sql`(SELECT 1) AS one`)
            .prepare(server),
        );
      return [await select(`${stem}_a`, 1).execute(), await select(`${stem}_b`, 2).execute()];
    });
    expect(answers).toEqual([[{ n: 1 }], [{ n: 2 }]]);
  });
});
