import { sql } from "drizzle-orm";
import { AT, analyze, insertedId, type ListFixture, rare } from "./types.js";

/** `size` prompts (each with its one version), a rare few `translate` and a rare few (others) `archived`. */
const seedPrompts: ListFixture["seed"] = async (db, tenant, size) => {
  await db.execute(sql`
    INSERT INTO prompts (tenant_id, key, name, feature, status, created_at, updated_at)
    SELECT ${tenant.id}::uuid, 'p' || i, 'Prompt ' || i,
           CASE WHEN ${rare(size)} THEN 'translate' ELSE 'tutor_chat' END,
           CASE WHEN i % ${Math.max(1, Math.floor(size / 10))} = 3 THEN 'archived' ELSE 'draft' END, ${AT}, ${AT}
    FROM generate_series(1, ${size}) AS i`);
  await db.execute(sql`
    INSERT INTO prompt_versions (tenant_id, prompt_id, version, template, variables, model_params)
    SELECT tenant_id, id, 1, 'Answer {{question}}', '[{"name":"question","required":true,"description":null}]'::jsonb, '{}'::jsonb
    FROM prompts WHERE tenant_id = ${tenant.id}::uuid`);
  await analyze(db, "prompts", "prompt_versions");
  return {};
};

/** One prompt with `size` versions. */
const seedVersions: ListFixture["seed"] = async (db, tenant, size) => {
  const id = await insertedId(
    db,
    sql`INSERT INTO prompts (tenant_id, key, name, feature, version)
        VALUES (${tenant.id}::uuid, 'versioned', 'Versioned', 'tutor_chat', ${size}) RETURNING id`,
  );
  await db.execute(sql`
    INSERT INTO prompt_versions (tenant_id, prompt_id, version, template, variables, model_params, created_at)
    SELECT ${tenant.id}::uuid, ${id}::uuid, i, 'Version ' || i || ' {{q}}', '[{"name":"q","required":true,"description":null}]'::jsonb,
           '{}'::jsonb, ${AT}
    FROM generate_series(1, ${size}) AS i`);
  await analyze(db, "prompt_versions");
  return { id };
};

/** `size` overrides, a rare few for roles' names (`role`), the rest for users' ids (need not exist for a list). */
const seedOverrides: ListFixture["seed"] = async (db, tenant, size) => {
  await db.execute(sql`
    INSERT INTO ai_limit_overrides (tenant_id, subject_type, subject_id, "limit", created_at, updated_at)
    SELECT ${tenant.id}::uuid, CASE WHEN ${rare(size)} THEN 'role' ELSE 'user' END, gen_random_uuid()::text, i,
           ${AT}, ${AT}
    FROM generate_series(1, ${size}) AS i`);
  await analyze(db, "ai_limit_overrides");
  return {};
};

/** `size` conversations through API keys (no user), a rare few `translate` and a rare few (others) flagged. */
const seedConversations: ListFixture["seed"] = async (db, tenant, size) => {
  await db.execute(sql`
    INSERT INTO ai_conversations (tenant_id, feature, flagged, started_at, last_message_at, message_count)
    SELECT ${tenant.id}::uuid, CASE WHEN ${rare(size)} THEN 'translate' ELSE 'tutor_chat' END,
           i % ${Math.max(1, Math.floor(size / 10))} = 3, ${AT}, ${AT}, 2
    FROM generate_series(1, ${size}) AS i`);
  await analyze(db, "ai_conversations");
  return {};
};

export const AI: ListFixture[] = [
  {
    name: "prompts",
    path: "/api/institution/prompts",
    scopes: ["ai:read"],
    tables: ["prompts", "prompt_versions"],
    seed: seedPrompts,
    queries: [
      { name: "newest first", query: "" },
      { name: "feature rare", query: "feature=translate", rare: true, filtered: true, counter: true },
      { name: "feature common", query: "feature=tutor_chat", filtered: true, counter: true },
      { name: "status rare", query: "status=archived", rare: true, filtered: true, counter: true },
      { name: "status common", query: "status=draft", filtered: true, counter: true },
    ],
  },
  {
    name: "a prompt's versions",
    path: "/api/institution/prompts/:id/versions",
    scopes: ["ai:read"],
    tables: ["prompt_versions"],
    seed: seedVersions,
    queries: [{ name: "newest first", query: "" }],
  },
  {
    name: "AI limit overrides",
    path: "/api/institution/ai-limits/overrides",
    scopes: ["ai:read"],
    tables: ["ai_limit_overrides"],
    seed: seedOverrides,
    queries: [
      { name: "by subject", query: "" },
      { name: "subject type rare", query: "subjectType=role", rare: true, filtered: true, counter: true },
      { name: "subject type common", query: "subjectType=user", filtered: true, counter: true },
    ],
  },
  {
    name: "AI conversations",
    path: "/api/institution/ai-analytics/conversations",
    scopes: ["ai:read"],
    tables: ["ai_conversations"],
    seed: seedConversations,
    queries: [
      { name: "newest activity first", query: "" },
      { name: "feature rare", query: "feature=translate", rare: true, filtered: true, counter: true },
      { name: "feature common", query: "feature=tutor_chat", filtered: true, counter: true },
      { name: "flagged rare", query: "flagged=true", rare: true, filtered: true, counter: true },
      { name: "not flagged", query: "flagged=false", filtered: true, counter: true },
    ],
  },
];
