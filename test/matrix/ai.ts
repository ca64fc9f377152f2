import { sql } from "drizzle-orm";
import { queryRows } from "../../src/db/rows.js";
import { putOverride } from "../../src/modules/ai-limits/service.js";
import { createPrompt } from "../../src/modules/prompts/service.js";
import { promptBody, VALUES } from "../../src/modules/prompts/test-fixtures.js";
import { type Harness, makeUser, type TestTenant } from "../../src/test-support/harness.js";
import type { Fixtures } from "./fixture.js";

type Params = string | Record<string, string>;
const idOf = (params: Params) => (typeof params === "string" ? params : (params.id as string));

const prompt = async (h: Harness, t: TestTenant) =>
  (await createPrompt(h.database.db, t.id, promptBody() as never)).id;
const version = async (h: Harness, t: TestTenant) => ({ id: await prompt(h, t), version: "1" });
const student = async (h: Harness, t: TestTenant) => (await makeUser(h, t, "student")).id;
const override = async (h: Harness, t: TestTenant) => {
  const subjectId = await student(h, t);
  await putOverride(h.database.db, t.id, "user", subjectId, { limit: 3 });
  return { subjectType: "user", subjectId };
};

/** A conversation as a run records it (without messages: the matrix reads its record only). */
const conversation = async (h: Harness, t: TestTenant) => {
  const [row] = await queryRows<{ id: string }>(
    h.database.db,
    sql`INSERT INTO ai_conversations (tenant_id, feature) VALUES (${t.id}, 'tutor_chat') RETURNING id`,
  );
  return row?.id as string;
};

async function conversationSnapshot(h: Harness, t: TestTenant, params: Params) {
  return queryRows(
    h.database.db,
    sql`SELECT * FROM ai_conversations WHERE tenant_id = ${t.id} AND id = ${idOf(params)}`,
  );
}

/** The prompt's row and versions: nothing of it may change on a refused request. */
async function promptSnapshot(h: Harness, t: TestTenant, params: Params) {
  const id = idOf(params);
  return {
    row: await queryRows(h.database.db, sql`SELECT * FROM prompts WHERE tenant_id = ${t.id} AND id = ${id}`),
    versions: await queryRows(
      h.database.db,
      sql`SELECT version, template FROM prompt_versions WHERE tenant_id = ${t.id} AND prompt_id = ${id} ORDER BY version`,
    ),
  };
}

async function overrideSnapshot(h: Harness, t: TestTenant, params: Params) {
  const p = params as Record<string, string>;
  return queryRows(
    h.database.db,
    sql`SELECT "limit", reason FROM ai_limit_overrides WHERE tenant_id = ${t.id}
      AND subject_type = ${p.subjectType} AND subject_id = ${p.subjectId}`,
  );
}

async function counterSnapshot(h: Harness, t: TestTenant, params: Params) {
  const p = params as Record<string, string>;
  return queryRows(
    h.database.db,
    sql`SELECT used FROM ai_limit_counters WHERE tenant_id = ${t.id} AND subject_id = ${p.userId}`,
  );
}

export const fixtures: Fixtures = {
  "GET /api/institution/ai/provider": { single: true },
  "PUT /api/institution/ai/provider": {
    body: { baseUrl: "https://93.184.215.14/v1", apiKey: "sk-matrix", defaultModel: "m" },
  },
  "DELETE /api/institution/ai/provider": {},
  "GET /api/institution/prompts": {},
  "POST /api/institution/prompts": { body: promptBody() },
  "GET /api/institution/prompts/:id": { makeObject: prompt, snapshot: promptSnapshot },
  "PATCH /api/institution/prompts/:id": {
    body: { name: "Renamed" },
    makeObject: prompt,
    snapshot: promptSnapshot,
  },
  "DELETE /api/institution/prompts/:id": { makeObject: prompt, snapshot: promptSnapshot },
  "GET /api/institution/prompts/:id/versions": { makeObject: prompt, snapshot: promptSnapshot },
  "POST /api/institution/prompts/:id/versions/:version/restore": {
    makeObject: version,
    snapshot: promptSnapshot,
  },
  "POST /api/institution/prompts/:id/render": { body: VALUES, makeObject: prompt, snapshot: promptSnapshot },
  "POST /api/institution/prompts/:id/run": { body: VALUES, makeObject: prompt, snapshot: promptSnapshot },
  "GET /api/institution/ai-limits": { single: true },
  "PUT /api/institution/ai-limits": { body: { enabled: false } },
  "GET /api/institution/ai-limits/overrides": {},
  "PUT /api/institution/ai-limits/overrides/:subjectType/:subjectId": {
    body: { limit: 5 },
    makeObject: override,
    snapshot: overrideSnapshot,
  },
  "DELETE /api/institution/ai-limits/overrides/:subjectType/:subjectId": {
    makeObject: override,
    snapshot: overrideSnapshot,
  },
  "GET /api/institution/ai-limits/usage": { single: true },
  "GET /api/institution/ai-analytics/usage": { single: true },
  "GET /api/institution/ai-analytics/topics": { single: true },
  "GET /api/institution/ai-analytics/conversations": {},
  "GET /api/institution/ai-analytics/conversations/:id": {
    makeObject: conversation,
    snapshot: conversationSnapshot,
  },
  "POST /api/institution/ai-limits/usage/:userId/reset": {
    makeObject: async (h, t) => ({ userId: await student(h, t) }),
    snapshot: counterSnapshot,
  },
};
