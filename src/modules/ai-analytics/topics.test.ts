import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callerFor, useApi } from "../../test-support/api.js";
import { FAKE_KEY, FAKE_MODEL, type FakeOpenAi, startFakeOpenAi } from "../../test-support/fake-openai.js";
import { adminCookie, makeKey, signedInUser, UNLIMITED_KEY } from "../../test-support/harness.js";
import { publishedCourse } from "../gradebook/test-fixtures.js";
import { promptBody } from "../prompts/test-fixtures.js";

let fake: FakeOpenAi;
beforeAll(async () => {
  fake = await startFakeOpenAi();
});
afterAll(() => fake.close());

const { h, tenants } = useApi({ tenants: 2, env: () => ({ OUTBOUND_ALLOW_CIDRS: "127.0.0.2/32" }) });
const [a, b] = tenants;
let key: string;
let keyB: string;
let student: { id: string; cookie: string };
let course: string;
let institutionPrompt: string;
let coursePrompt: string;
const call = callerFor(h, () => ({ tenant: a, credential: key }));

/** A prompt whose template's words are not the question's: topics come from the values only. */
const body = (extra: Record<string, unknown>) =>
  promptBody({
    template: "Responda ao estudante: {{question}}",
    variables: [{ name: "question" }],
    ...extra,
  });

async function ask(promptId: string, question: string, conversationId?: string): Promise<string> {
  const res = await call(
    "POST",
    `/prompts/${promptId}/run`,
    { variables: { question }, ...(conversationId === undefined ? {} : { conversationId }) },
    student.cookie,
  );
  expect(res.statusCode, res.body).toBe(200);
  return res.json().conversationId;
}

let first: string;
let today: string;

beforeAll(async () => {
  key = await makeKey(h, a, ["ai:read", "ai:write"], UNLIMITED_KEY);
  keyB = await makeKey(h, b, ["ai:read", "ai:write"], UNLIMITED_KEY);
  const admin = await adminCookie(h, a);
  const provider = { baseUrl: fake.baseUrl, apiKey: FAKE_KEY, defaultModel: FAKE_MODEL };
  expect((await call("PUT", "/ai/provider", provider, admin)).statusCode).toBe(200);
  course = await publishedCourse(h.database.db, a.id);
  institutionPrompt = (await call("POST", "/prompts", body({ status: "active" }))).json().id;
  coursePrompt = (await call("POST", "/prompts", body({ status: "active", courseId: course }))).json().id;
  student = await signedInUser(h, a, "student");
  first = await ask(institutionPrompt, "O que é uma equação quadrática?");
  await ask(institutionPrompt, "Como resolver uma equação quadrática? E as equações lineares?", first);
  await ask(institutionPrompt, "Equação do segundo grau, 2 raízes");
  await ask(institutionPrompt, "What is photosynthesis in plants?");
  await ask(institutionPrompt, "Why do plants need photosynthesis and light?");
  await ask(coursePrompt, "Photosynthesis and the water cycle");
  const usage = (await call("GET", "/ai-analytics/usage")).json();
  today = usage.to;
});

const topicsOf = async (query = "", credential?: string) => {
  const res = await call("GET", `/ai-analytics/topics${query}`, undefined, credential);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { data: { topic: string; count: number; conversations: number }[]; period: object };
};

describe("AI topics", () => {
  it("ranks the questions' stems by count, in each question's language, without the template's words", async () => {
    const report = await topicsOf("?limit=4");
    expect(report.period).toEqual({ from: expect.any(String), to: today });
    // Stop words (o, que, what, is, and…), numbers and the template's words (responda, estudante) never count.
    expect(report.data).toEqual([
      // A conversation's second question adds to `count`, not to `conversations`.
      { topic: "equaçã", count: 3, conversations: 2 },
      { topic: "photosynthesi", count: 3, conversations: 3 },
      { topic: "plant", count: 2, conversations: 2 },
      { topic: "quadrát", count: 2, conversations: 1 },
    ]);
    const all = (await topicsOf("?limit=100")).data.map((t) => t.topic);
    for (const word of ["respond", "estud", "que", "what", "and", "the"]) expect(all).not.toContain(word);
    expect(all.some((t) => /[0-9]/.test(t) || t.length < 3)).toBe(false);
    expect(all).toEqual(expect.arrayContaining(["segund", "grau", "raíz", "water", "cycl", "light"]));
  });

  it("fills the conversation's topics, once each, in order of appearance", async () => {
    const record = (await call("GET", `/ai-analytics/conversations/${first}`)).json();
    expect(record.topics).toEqual(["equaçã", "quadrát", "resolv", "equaçõ", "lin"]);
  });

  it("filters by course and by period; a window longer than 366 days or ending before it starts is 400", async () => {
    expect((await topicsOf(`?courseId=${course}`)).data).toEqual([
      { topic: "cycl", count: 1, conversations: 1 },
      { topic: "photosynthesi", count: 1, conversations: 1 },
      { topic: "water", count: 1, conversations: 1 },
    ]);
    expect((await topicsOf(`?from=${today}&to=${today}&limit=1`)).data).toHaveLength(1);
    const before = (await topicsOf("?from=2025-01-01&to=2025-12-31")).data;
    expect(before).toEqual([]);
    for (const query of ["?from=2025-01-01&to=2026-01-02", "?from=2025-03-02&to=2025-03-01", "?limit=101"]) {
      const res = await call("GET", `/ai-analytics/topics${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().error).toBe("validation_failed");
    }
    expect((await call("GET", "/ai-analytics/topics?from=2025-01-01&to=2026-01-01")).statusCode).toBe(200);
  });

  it("is for administrators and ai:read keys: teachers and students are 403, another institution sees none", async () => {
    const teacher = await signedInUser(h, a, "teacher");
    expect((await call("GET", "/ai-analytics/topics", undefined, teacher.cookie)).statusCode).toBe(403);
    expect((await call("GET", "/ai-analytics/topics", undefined, student.cookie)).statusCode).toBe(403);
    const admin = await adminCookie(h, a);
    expect((await topicsOf("", admin)).data.length).toBeGreaterThan(0);
    const theirs = await call("GET", "/ai-analytics/topics", undefined, keyB, b);
    expect(theirs.statusCode).toBe(200);
    expect(theirs.json().data).toEqual([]);
  });

  it("adds concurrent runs' stems, in whatever order each question has them, without losing one", async () => {
    const questions = ["Gravity, orbits and planets", "Planets and orbits under gravity"];
    const runs = Array.from({ length: 8 }, (_, i) =>
      call("POST", `/prompts/${institutionPrompt}/run`, { variables: { question: questions[i % 2] } }),
    );
    for (const res of await Promise.all(runs)) expect(res.statusCode, res.body).toBe(200);
    const counts = (await topicsOf("?limit=100")).data.filter((t) =>
      ["graviti", "orbit", "planet"].includes(t.topic),
    );
    expect(counts).toEqual([
      { topic: "graviti", count: 8, conversations: 8 },
      { topic: "orbit", count: 8, conversations: 8 },
      { topic: "planet", count: 8, conversations: 8 },
    ]);
  });
});
