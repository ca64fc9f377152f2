import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { grantPoints } from "../../src/modules/gamification/people.js";
import { makeBadge } from "../../src/test-support/gamification.js";
import { type Harness, makeUser, type TestTenant } from "../../src/test-support/harness.js";
import type { Fixtures } from "./fixture.js";

type Params = string | Record<string, string>;
const idOf = (params: Params) => (typeof params === "string" ? params : (params.id as string));

const badge = (h: Harness, t: TestTenant) => makeBadge(h.database.db, t.id, "Matrix");

const badgeRow = async (h: Harness, t: TestTenant, params: Params) =>
  (
    (await h.database.db.execute(sql`SELECT * FROM gamification_badges WHERE tenant_id = ${t.id}
      AND id = ${idOf(params)}`)) as unknown as { rows: unknown[] }
  ).rows[0];

/** A teacher's badge award (the matrix's tenants are on the free plan's student limit). */
const award = async (h: Harness, t: TestTenant) => {
  const badgeId = await badge(h, t);
  const user = await makeUser(h, t, "teacher");
  await h.database.db.execute(sql`INSERT INTO gamification_awards (tenant_id, badge_id, user_id, awarded_by,
      achievement, recipient) VALUES (${t.id}, ${badgeId}, ${user.id}, 'api', '{}'::jsonb, '{}'::jsonb)`);
  const rows = (await h.database.db.execute(sql`SELECT id FROM gamification_awards WHERE tenant_id = ${t.id}
      AND badge_id = ${badgeId}`)) as unknown as { rows: { id: string }[] };
  return (rows.rows[0] as { id: string }).id;
};

const awardRow = async (h: Harness, t: TestTenant, params: Params) =>
  (
    (await h.database.db.execute(sql`SELECT * FROM gamification_awards WHERE tenant_id = ${t.id}
      AND id = ${idOf(params)}`)) as unknown as { rows: unknown[] }
  ).rows[0];

/** A user with one ledger entry. */
const holder = async (h: Harness, t: TestTenant) => {
  const user = await makeUser(h, t, "teacher");
  await grantPoints(h.database.db, t.id, { userId: user.id, points: 5, note: "Matrix" }, { kind: "system" });
  return user.id;
};

const balanceRow = async (h: Harness, t: TestTenant, params: Params) =>
  (
    (await h.database.db.execute(sql`SELECT * FROM gamification_balances WHERE tenant_id = ${t.id}
      AND user_id = ${idOf(params)}`)) as unknown as { rows: unknown[] }
  ).rows[0];

export const fixtures: Fixtures = {
  "GET /api/institution/gamification/settings": { single: true },
  "PATCH /api/institution/gamification/settings": { body: { enabled: true } },
  "GET /api/institution/gamification/badges": {},
  "POST /api/institution/gamification/badges": {
    body: { name: "Matrix", description: "x", imageMediaId: randomUUID(), criteriaNarrative: "x" },
  },
  "GET /api/institution/gamification/badges/:id": { makeObject: badge, snapshot: badgeRow },
  "PATCH /api/institution/gamification/badges/:id": {
    body: { name: "Renamed" },
    makeObject: badge,
    snapshot: badgeRow,
  },
  "POST /api/institution/gamification/badges/:id/awards": {
    body: { userIds: [randomUUID()] },
    makeObject: badge,
    snapshot: badgeRow,
  },
  "DELETE /api/institution/gamification/awards/:id": {
    body: { reason: "Matrix" },
    makeObject: award,
    snapshot: awardRow,
  },
  // Rows are named by userId (no id); leaderboard.test.ts shows another institution sees none of them.
  "GET /api/institution/gamification/leaderboard": { single: true },
  "POST /api/institution/gamification/points": { body: { userId: randomUUID(), points: 5, note: "Matrix" } },
  "GET /api/institution/gamification/users/:id": { makeObject: holder, snapshot: balanceRow },
  "GET /api/institution/gamification/users/:id/points": { makeObject: holder, snapshot: balanceRow },
};
