import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, makeTenant } from "../src/test-support/harness.js";
import { completions } from "../src/test-support/list-fixtures/learning.js";
import type { Seeded } from "../src/test-support/list-fixtures.js";
import { startHarnessOnOwnDatabase } from "../src/test-support/own-database.js";
import { explainPlan } from "../src/test-support/plans.js";

/**
 * Migration 0046: a parent belongs to one tenant. The planner multiplied the tenant's and the parent's
 * selectivities as if independent, so a lesson of 5,000 completions beside a tenant ten times larger was estimated
 * at about 450 rows; at bench (q)'s sizes (100,000 beside 1,000,000) that made the capped count of `?since=`
 * gather and sort all 100,000 matches rather than walk the lesson's index and stop at 10,001. With the
 * functional-dependency statistics the estimate is the lesson's size. Dropping them (in this test's own database)
 * is the control that shows the test can fail.
 */

const SMALL = 5_000;
const NEIGHBOUR = 50_000;

let h: Harness;

beforeAll(async () => {
  h = await startHarnessOnOwnDatabase("aula_parent_stats");
}, 120_000);
afterAll(() => h.close());

describe("a lesson's completions beside a tenant ten times larger", () => {
  let seeded: Seeded;
  let tenantId: string;

  beforeAll(async () => {
    const t = await makeTenant(h);
    const neighbour = await makeTenant(h);
    seeded = await completions.seed(h.database.db, t, SMALL);
    await completions.seed(h.database.db, neighbour, NEIGHBOUR);
    tenantId = t.id;
  }, 180_000);

  /** The planner's estimate of the lesson's completions in its tenant, as the list's statements filter them. */
  async function estimate(): Promise<number> {
    const plan = await explainPlan(
      h,
      "SELECT 1 FROM lesson_completions WHERE tenant_id = $1 AND lesson_id = $2",
      [tenantId, seeded.id],
    );
    return plan["Plan Rows"] as number;
  }

  it("estimates a lesson's completions in its tenant at the lesson's size", async () => {
    expect(await estimate()).toBeGreaterThan(SMALL / 2);
    expect(await estimate()).toBeLessThan(SMALL * 2);
  });

  it("(control) estimates a tenth of that without the statistics", async () => {
    await h.database.db.execute(sql`DROP STATISTICS lesson_completions_parents_stats`);
    await h.database.db.execute(sql`ANALYZE lesson_completions`);
    expect(await estimate()).toBeLessThan(SMALL / 4);
  });
});
