/**
 * The fan-out never breaks the write that caused it: a bulk operation's deliveries are written in statements
 * that each stay under PostgreSQL's 65,535 bind parameters, and the number of automations plus endpoints an
 * institution may have is capped (MAX_AUTOMATIONS_PER_INSTITUTION), checked under a lock.
 */
import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { automations, platformEvents, users, webhookDeliveries } from "../../db/schema/index.js";
import { adminCaller, tenantAdmin, useApi, WHOLE_PATHS } from "../../test-support/api.js";
import type { TestTenant } from "../../test-support/harness.js";

const { h } = useApi({ env: { MAX_AUTOMATIONS_PER_INSTITUTION: "12" } });

const URL_OK = "https://93.184.215.14/endpoint";

const admin = () => tenantAdmin(h);
const call = adminCaller(h, WHOLE_PATHS);

async function countWhere(
  table: typeof webhookDeliveries | typeof platformEvents | typeof users,
  t: TestTenant,
) {
  const rows = await h.database.db
    .select({ n: sql<number>`count(*)::int` })
    .from(table)
    .where(eq(table.tenantId, t.id));
  return rows[0]?.n ?? 0;
}

describe("fan-out of a bulk write", () => {
  it("1,000 users with 12 endpoints on user_created: 12,000 deliveries, written in chunks, nothing rolled back", async () => {
    const a = await admin();
    for (let i = 0; i < 12; i++) {
      const res = await call(a, "POST", "/api/institution/webhooks", {
        url: `${URL_OK}/${i}`,
        eventTypes: ["user_created"],
      });
      expect(res.statusCode, res.body).toBe(201);
    }
    const items = Array.from({ length: 1000 }, (_, i) => ({
      name: `Teacher ${i}`,
      email: `t${i}@${a.t.slug}.test`,
      role: "teacher",
    }));
    const res = await call(a, "POST", "/api/institution/users/bulk", { items });
    expect(res.statusCode, res.body.slice(0, 500)).toBe(200);
    expect(res.json().summary).toMatchObject({ created: 1000 });
    // The administrator, and the thousand.
    expect(await countWhere(users, a.t)).toBe(1001);
    const events = await h.database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(platformEvents)
      .where(and(eq(platformEvents.tenantId, a.t.id), eq(platformEvents.type, "user_created")));
    // The administrator's, from before the endpoints existed, and the thousand.
    expect(events[0]?.n).toBe(1001);
    expect(await countWhere(webhookDeliveries, a.t)).toBe(12_000);
    // Every (endpoint, event) pair once.
    const pairs = await h.database.db
      .select({
        pairs: sql<number>`count(DISTINCT (automation_id, event_id))::int`,
        events: sql<number>`count(DISTINCT event_id)::int`,
      })
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.tenantId, a.t.id));
    expect(pairs[0]).toEqual({ pairs: 12_000, events: 1000 });
  }, 120_000);
});

describe("MAX_AUTOMATIONS_PER_INSTITUTION (12 here)", () => {
  const automation = (n: number) => ({
    name: `Automation ${n}`,
    trigger: { event: "user_created" },
    action: { type: "send_webhook", url: `${URL_OK}/a${n}` },
  });
  const endpoint = (n: number) => ({ url: `${URL_OK}/e${n}`, eventTypes: ["user_created"] });

  async function total(t: TestTenant) {
    const rows = await h.database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(automations)
      .where(eq(automations.tenantId, t.id));
    return rows[0]?.n ?? 0;
  }

  it("counts automations and endpoints together, disabled ones too; the next is 409 conflict until one goes", async () => {
    const a = await admin();
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await call(a, "POST", "/api/institution/automations", { ...automation(i), enabled: i > 0 });
      expect(res.statusCode, res.body).toBe(201);
      ids.push(res.json().id);
    }
    for (let i = 0; i < 6; i++) {
      const res = await call(a, "POST", "/api/institution/webhooks", endpoint(i));
      expect(res.statusCode, res.body).toBe(201);
    }
    for (const [url, body] of [
      ["/api/institution/automations", automation(99)],
      ["/api/institution/webhooks", endpoint(99)],
    ] as const) {
      const res = await call(a, "POST", url, body);
      expect(res.statusCode, res.body).toBe(409);
      expect(res.json()).toEqual({
        error: "conflict",
        message:
          "This institution already has 12 automations and webhook endpoints, the most it may have. Delete one first.",
      });
    }
    expect(await total(a.t)).toBe(12);
    // Enabling the disabled one adds nothing: it was counted already.
    const enabled = await call(a, "PATCH", `/api/institution/automations/${ids[0]}`, { enabled: true });
    expect(enabled.statusCode, enabled.body).toBe(200);
    const gone = await call(a, "DELETE", `/api/institution/automations/${ids[1]}`);
    expect(gone.statusCode).toBe(204);
    const again = await call(a, "POST", "/api/institution/webhooks", endpoint(100));
    expect(again.statusCode, again.body).toBe(201);
    expect(await total(a.t)).toBe(12);
    // Another institution has its own allowance.
    const b = await admin();
    expect((await call(b, "POST", "/api/institution/automations", automation(0))).statusCode).toBe(201);
  });

  it("concurrent creations never pass the limit", async () => {
    const a = await admin();
    for (let i = 0; i < 10; i++) {
      const res = await call(a, "POST", "/api/institution/automations", automation(i));
      expect(res.statusCode, res.body).toBe(201);
    }
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        i % 2 === 0
          ? call(a, "POST", "/api/institution/automations", automation(50 + i))
          : call(a, "POST", "/api/institution/webhooks", endpoint(50 + i)),
      ),
    );
    const statuses = results.map((r) => r.statusCode).sort();
    expect(statuses).toEqual([201, 201, 409, 409, 409, 409]);
    expect(await total(a.t)).toBe(12);
  });
});
