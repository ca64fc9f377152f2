import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../../db/rows.js";
import { callerFor, useApi } from "../../test-support/api.js";
import { FAKE_KEY, FAKE_MODEL, type FakeOpenAi, startFakeOpenAi } from "../../test-support/fake-openai.js";
import { adminCookie, makeKey, signedInUser, UNLIMITED_KEY } from "../../test-support/harness.js";
import { promptBody, VALUES } from "../prompts/test-fixtures.js";

let fake: FakeOpenAi;
beforeAll(async () => {
  fake = await startFakeOpenAi();
});
afterAll(() => fake.close());

const { h, tenants } = useApi({ tenants: 2, env: () => ({ OUTBOUND_ALLOW_CIDRS: "127.0.0.2/32" }) });
const [a, b] = tenants;
let key: string;
let keyB: string;
let admin: string;
let promptId: string;
const call = callerFor(h, () => ({ tenant: a, credential: key }));

beforeAll(async () => {
  key = await makeKey(h, a, ["ai:read", "ai:write"], UNLIMITED_KEY);
  keyB = await makeKey(h, b, ["ai:read", "ai:write"], UNLIMITED_KEY);
  admin = await adminCookie(h, a);
  const provider = { baseUrl: fake.baseUrl, apiKey: FAKE_KEY, defaultModel: FAKE_MODEL };
  expect((await call("PUT", "/ai/provider", provider, admin)).statusCode).toBe(200);
  promptId = (await call("POST", "/prompts", promptBody({ status: "active" }))).json().id;
});

const run = (cookie: string, extra: Record<string, unknown> = {}) =>
  call("POST", `/prompts/${promptId}/run`, { ...VALUES, ...extra }, cookie);

describe("AI conversations", () => {
  it("records a run's messages sealed, continues a conversation, and shows the transcript to an admin session only", async () => {
    const student = await signedInUser(h, a, "student");
    const first = await run(student.cookie, { lessonId: "5d0c4f5e-1111-4222-8333-944455556666" });
    expect(first.statusCode, first.body).toBe(200);
    const conversationId = first.json().conversationId;
    expect(conversationId).toMatch(/^[0-9a-f-]{36}$/);
    const second = await run(student.cookie, { conversationId });
    expect(second.json().conversationId).toBe(conversationId);

    const record = (await call("GET", `/ai-analytics/conversations/${conversationId}`)).json();
    expect(record).toMatchObject({
      id: conversationId,
      userId: student.id,
      courseId: null,
      lessonId: "5d0c4f5e-1111-4222-8333-944455556666",
      feature: "tutor_chat",
      messageCount: 4,
      rating: null,
      flagged: false,
      // Stems of the values the student gave (Álgebra, O que é um grupo?), not of the template; twice asked, kept once.
      topics: ["álgebr", "grup"],
    });
    expect(record.credits).toBe(first.json().usage.credits + second.json().usage.credits);
    expect(record.messages).toBeUndefined();

    // Sealed at rest: the stored text is not the question.
    const stored = await queryRows<{ content: string }>(
      h.database.db,
      sql`SELECT content FROM ai_conversation_messages WHERE tenant_id = ${a.id} AND conversation_id = ${conversationId}`,
    );
    expect(stored).toHaveLength(4);
    for (const row of stored) expect(row.content).not.toContain("grupo");

    const byKey = await call("GET", `/ai-analytics/conversations/${conversationId}?include=messages`);
    expect(byKey.statusCode).toBe(403);
    expect(byKey.json().error).toBe("session_required");
    const teacher = await signedInUser(h, a, "teacher");
    const byTeacher = await call(
      "GET",
      `/ai-analytics/conversations/${conversationId}?include=messages`,
      undefined,
      teacher.cookie,
    );
    expect(byTeacher.statusCode).toBe(403);
    expect((await call("GET", "/ai-analytics/conversations", undefined, student.cookie)).statusCode).toBe(
      403,
    );

    const full = (
      await call("GET", `/ai-analytics/conversations/${conversationId}?include=messages`, undefined, admin)
    ).json();
    expect(full.messages.map((m: { seq: number; role: string }) => [m.seq, m.role])).toEqual([
      [1, "user"],
      [2, "assistant"],
      [3, "user"],
      [4, "assistant"],
    ]);
    expect(full.messages[0].content).toContain("O que é um grupo?");
    expect(full.messages[1].content).toBe(first.json().text);
  });

  it("refuses to continue another user's conversation or an unknown one (404)", async () => {
    const one = await signedInUser(h, a, "student");
    const other = await signedInUser(h, a, "student");
    const conversationId = (await run(one.cookie)).json().conversationId;
    expect((await run(other.cookie, { conversationId })).statusCode).toBe(404);
    expect(
      (await run(one.cookie, { conversationId: "00000000-0000-4000-8000-000000000001" })).statusCode,
    ).toBe(404);
    expect((await run(one.cookie, { conversationId: "nope" })).statusCode).toBe(400);
  });

  it("lists newest first with filters, never with messages", async () => {
    const student = await signedInUser(h, a, "student");
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await run(student.cookie)).json().conversationId);
    const page = (await call("GET", `/ai-analytics/conversations?userId=${student.id}&perPage=2`)).json();
    expect(page.data.map((c: { id: string }) => c.id)).toEqual([ids[2], ids[1]]);
    expect(page.pagination).toMatchObject({ page: 1, perPage: 2, total: 3, totalRelation: "eq" });
    expect(JSON.stringify(page)).not.toContain("messages");
    const second = (
      await call("GET", `/ai-analytics/conversations?userId=${student.id}&perPage=2&page=2`)
    ).json();
    expect(second.data.map((c: { id: string }) => c.id)).toEqual([ids[0]]);
    const none = await call("GET", `/ai-analytics/conversations?userId=${student.id}&feature=summarize`);
    expect(none.json().data).toEqual([]);
    const flagged = await call("GET", `/ai-analytics/conversations?userId=${student.id}&flagged=true`);
    expect(flagged.json().data).toEqual([]);
    const future = await call("GET", "/ai-analytics/conversations?from=2999-01-01T00:00:00Z");
    expect(future.json().data).toEqual([]);
    expect((await call("GET", "/ai-analytics/conversations?flagged=maybe")).statusCode).toBe(400);
  });

  it("totals the list from counters kept at commit, through a flag and a deletion", async () => {
    const student = await signedInUser(h, a, "student");
    const ids: string[] = [];
    for (let i = 0; i < 2; i++) ids.push((await run(student.cookie)).json().conversationId);
    const totalOf = async (query: string) =>
      (await call("GET", `/ai-analytics/conversations?perPage=1&${query}`)).json().pagination.total;
    const counted = async (where: ReturnType<typeof sql>) =>
      (
        await queryRows<{ n: number }>(
          h.database.db,
          sql`SELECT count(*)::int AS n FROM ai_conversations WHERE tenant_id = ${a.id} AND ${where}`,
        )
      )[0]?.n;
    expect(await totalOf("")).toBe(await counted(sql`true`));
    expect(await totalOf(`userId=${student.id}`)).toBe(2);
    expect(await totalOf("feature=tutor_chat")).toBe(await counted(sql`feature = 'tutor_chat'`));
    expect(await totalOf("flagged=true")).toBe(0);
    await h.database.db.execute(
      sql`UPDATE ai_conversations SET flagged = true WHERE tenant_id = ${a.id} AND id = ${ids[0]}`,
    );
    expect(await totalOf("flagged=true")).toBe(1);
    expect(await totalOf("flagged=false")).toBe(await counted(sql`NOT flagged`));
    await h.database.db.execute(
      sql`DELETE FROM ai_conversations WHERE tenant_id = ${a.id} AND id = ${ids[0]}`,
    );
    expect(await totalOf("flagged=true")).toBe(0);
    expect(await totalOf(`userId=${student.id}`)).toBe(1);
    expect(await totalOf("")).toBe(await counted(sql`true`));
    const pending = await queryRows<{ n: number }>(
      h.database.db,
      sql`SELECT count(*)::int AS n FROM counter_deltas`,
    );
    expect(pending[0]?.n).toBe(0);
  });

  it("never shows another institution's conversations", async () => {
    const student = await signedInUser(h, a, "student");
    const conversationId = (await run(student.cookie)).json().conversationId;
    const theirs = await call("GET", `/ai-analytics/conversations/${conversationId}`, undefined, keyB, b);
    expect(theirs.statusCode).toBe(404);
    const list = (
      await call("GET", `/ai-analytics/conversations?userId=${student.id}`, undefined, keyB, b)
    ).json();
    expect(list.data).toEqual([]);
    expect((await call("GET", "/ai-analytics/conversations/not-a-uuid")).statusCode).toBe(404);
  });
});
