import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../../db/rows.js";
import { callerFor, fieldsOf, useApi } from "../../test-support/api.js";
import { FAKE_KEY, FAKE_MODEL, type FakeOpenAi, startFakeOpenAi } from "../../test-support/fake-openai.js";
import { adminCookie, makeKey, signedInUser, UNLIMITED_KEY } from "../../test-support/harness.js";
import { promptBody, VALUES } from "./test-fixtures.js";

let fake: FakeOpenAi;
beforeAll(async () => {
  fake = await startFakeOpenAi();
});
afterAll(() => fake.close());

const { h, tenants } = useApi({
  tenants: 3,
  env: () => ({ OUTBOUND_ALLOW_CIDRS: "127.0.0.2/32", AI_MAX_RETRIES: "2", AI_TIMEOUT_MS: "5000" }),
});
const [a, b, none] = tenants;
let key: string;
let admin: string;
const call = callerFor(h, () => ({ tenant: a, credential: key }));
const provider = () => ({ baseUrl: fake.baseUrl, apiKey: FAKE_KEY, defaultModel: FAKE_MODEL });

beforeAll(async () => {
  key = await makeKey(h, a, ["ai:read", "ai:write"], UNLIMITED_KEY);
  admin = await adminCookie(h, a);
  expect((await call("PUT", "/ai/provider", provider(), admin)).statusCode).toBe(200);
});

const ledger = (tenantId: string) =>
  queryRows<{ outcome: string; input_tokens: number; output_tokens: number; model: string }>(
    h.database.db,
    sql`SELECT outcome, input_tokens, output_tokens, model FROM ai_ledger WHERE tenant_id = ${tenantId} ORDER BY occurred_at`,
  );

describe("AI provider settings", () => {
  it("is written by an admin session only, never shows the key, and checks the URL", async () => {
    const view = (await call("GET", "/ai/provider")).json();
    expect(view).toMatchObject({
      configured: true,
      source: "institution",
      baseUrl: fake.baseUrl,
      defaultModel: FAKE_MODEL,
    });
    expect(JSON.stringify(view)).not.toContain(FAKE_KEY);
    expect(view.apiKeyFingerprint).toMatch(/^[0-9a-f]{16}$/);
    const byKey = await call("PUT", "/ai/provider", provider());
    expect(byKey.statusCode).toBe(403);
    expect(byKey.json().error).toBe("session_required");
    const teacher = await signedInUser(h, a, "teacher");
    expect((await call("PUT", "/ai/provider", provider(), teacher.cookie)).statusCode).toBe(403);
    for (const baseUrl of ["http://127.0.0.1:1/v1", "http://169.254.169.254/v1", "file:///etc/passwd"]) {
      const res = await call("PUT", "/ai/provider", { ...provider(), baseUrl }, admin);
      expect(fieldsOf(res), baseUrl).toEqual(["baseUrl"]);
    }
    const [row] = await queryRows<{ api_key: string }>(
      h.database.db,
      sql`SELECT api_key FROM ai_provider_settings WHERE tenant_id = ${a.id}`,
    );
    expect(row?.api_key).not.toContain(FAKE_KEY);
  });

  it("without a provider, running answers 503 ai_not_configured and everything else works", async () => {
    const k = await makeKey(h, none, ["ai:read", "ai:write"], UNLIMITED_KEY);
    expect((await call("GET", "/ai/provider", undefined, k, none)).json()).toMatchObject({
      configured: false,
    });
    const p = (await call("POST", "/prompts", promptBody(), k, none)).json();
    expect((await call("POST", `/prompts/${p.id}/render`, VALUES, k, none)).statusCode).toBe(200);
    const run = await call("POST", `/prompts/${p.id}/run`, VALUES, k, none);
    expect(run.statusCode).toBe(503);
    expect(run.json().error).toBe("ai_not_configured");
    expect(await ledger(none.id)).toEqual([]);
  });
});

describe("running a prompt", () => {
  it("calls the provider with the rendered prompt and writes the ledger and the daily rollup", async () => {
    const p = (await call("POST", "/prompts", promptBody())).json();
    const before = fake.received.length;
    const res = await call("POST", `/prompts/${p.id}/run`, VALUES);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ promptId: p.id, version: 1, model: FAKE_MODEL, text: "Olá, turma!" });
    const sent = JSON.parse(fake.received[before]?.body ?? "{}");
    expect(sent).toMatchObject({ model: FAKE_MODEL, max_tokens: 50 });
    expect(sent.messages[0].content).toBe("Você é tutor de Álgebra. Pergunta: O que é um grupo?");
    const rows = await ledger(a.id);
    expect(rows.at(-1)).toMatchObject({ outcome: "completed", output_tokens: 5, model: FAKE_MODEL });
    const [rollup] = await queryRows<{ requests: number }>(
      h.database.db,
      sql`SELECT sum(requests)::int AS requests FROM ai_usage_daily WHERE tenant_id = ${a.id}`,
    );
    expect(rollup?.requests).toBe(rows.length);
    const [monthly] = await queryRows<{ requests: number }>(
      h.database.db,
      sql`SELECT sum(requests)::int AS requests FROM ai_usage_monthly WHERE tenant_id = ${a.id}`,
    );
    expect(monthly?.requests).toBe(rows.length);
  });

  it("retries a 429 after the provider's Retry-After and a 500, then answers", async () => {
    const p = (await call("POST", "/prompts", promptBody())).json();
    fake.failNext(1, 429, 1);
    fake.failNext(1, 500);
    const before = fake.received.length;
    const started = Date.now();
    const res = await call("POST", `/prompts/${p.id}/run`, VALUES);
    expect(res.statusCode, res.body).toBe(200);
    expect(fake.received.length - before).toBe(3);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
  });

  it("answers 502 ai_provider_error after the retries, and records the failed call", async () => {
    const p = (await call("POST", "/prompts", promptBody())).json();
    fake.failNext(3, 503);
    const res = await call("POST", `/prompts/${p.id}/run`, VALUES);
    expect(res.statusCode).toBe(502);
    expect(res.json().error).toBe("ai_provider_error");
    expect((await ledger(a.id)).at(-1)).toMatchObject({ outcome: "failed", input_tokens: 0 });
  });

  it("streams deltas and a done event as Server-Sent Events", async () => {
    const p = (await call("POST", "/prompts", promptBody())).json();
    const res = await call("POST", `/prompts/${p.id}/run`, { ...VALUES, stream: true });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^text\/event-stream/);
    const events = res.body
      .trim()
      .split("\n\n")
      .map((e) => e.split("\n"));
    expect(events.map((e) => e[0])).toEqual(["event: delta", "event: delta", "event: done"]);
    expect(JSON.parse(events[0]?.[1]?.slice(6) ?? "")).toEqual({ text: "Olá" });
    expect(JSON.parse(events[2]?.[1]?.slice(6) ?? "").usage.outputTokens).toBe(5);
  });

  it("lets students run active prompts only, and refuses a model the provider does not offer", async () => {
    const student = await signedInUser(h, a, "student");
    const draft = (await call("POST", "/prompts", promptBody())).json();
    expect((await call("POST", `/prompts/${draft.id}/run`, VALUES, student.cookie)).statusCode).toBe(403);
    const active = (
      await call("POST", "/prompts", promptBody({ feature: "content_generation", status: "active" }))
    ).json();
    expect((await call("POST", `/prompts/${active.id}/run`, VALUES, student.cookie)).statusCode).toBe(200);
    const other = (await call("POST", "/prompts", promptBody({ modelParams: { model: "gpt-x" } }))).json();
    expect(fieldsOf(await call("POST", `/prompts/${other.id}/run`, VALUES))).toEqual(["modelParams.model"]);
  });

  it("uses another tenant's provider never: tenant b has none", async () => {
    const k = await makeKey(h, b, ["ai:read", "ai:write"], UNLIMITED_KEY);
    const p = (await call("POST", "/prompts", promptBody(), k, b)).json();
    expect((await call("POST", `/prompts/${p.id}/run`, VALUES, k, b)).statusCode).toBe(503);
    expect((await call("DELETE", "/ai/provider", undefined, await adminCookie(h, b), b)).statusCode).toBe(
      404,
    );
  });
});
