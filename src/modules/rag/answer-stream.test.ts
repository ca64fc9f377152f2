import { request as httpRequest } from "node:http";
import { sql } from "drizzle-orm";
import { beforeAll, expect, it } from "vitest";
import { queryRows } from "../../db/rows.js";
import { callerFor, fieldsOf, useApi } from "../../test-support/api.js";
import { FAKE_KEY, FAKE_MODEL, useFakeOpenAi } from "../../test-support/fake-openai.js";
import { adminCookie, bearer, makeKey, UNLIMITED_KEY } from "../../test-support/harness.js";
import { until } from "../../test-support/receiver.js";
import { runJobs } from "../../test-support/reports.js";
import { kbIndexJobHandler } from "./indexing.js";

const fake = useFakeOpenAi();

const { h, tenants } = useApi({ tenants: 1, env: () => ({ OUTBOUND_ALLOW_CIDRS: "127.0.0.2/32" }) });
const [a] = tenants;
let key: string;
let kbId: string;
const call = callerFor(h, () => ({ tenant: a, credential: key }));
const QUERY = "Onde acontece a fotossíntese?";
const ANSWER = "A fotossíntese acontece nos cloroplastos [1], não nas mitocôndrias [2].";

beforeAll(async () => {
  key = await makeKey(h, a, ["ai:read", "ai:write"], UNLIMITED_KEY);
  const admin = await adminCookie(h, a);
  const put = await call(
    "PUT",
    "/ai/provider",
    { baseUrl: fake.baseUrl, apiKey: FAKE_KEY, defaultModel: FAKE_MODEL },
    admin,
  );
  expect(put.statusCode, put.body).toBe(200);
  // Limits in tokens, so what a call is charged is visible to the token.
  const limits = await call("PUT", "/ai-limits", {
    enabled: true,
    unit: "tokens",
    period: "day",
    institutionLimit: 10_000_000,
  });
  expect(limits.statusCode, limits.body).toBe(200);
  const kb = (await call("POST", "/rag/knowledge-bases", { name: "Ciências" })).json();
  kbId = kb.id;
  await call("POST", `/rag/knowledge-bases/${kbId}/documents`, {
    documents: [
      {
        sourceType: "text",
        title: "Fotossíntese",
        text: "A fotossíntese acontece nos cloroplastos das plantas.",
      },
      {
        sourceType: "text",
        title: "Respiração",
        text: "A respiração celular acontece nas mitocôndrias, não a fotossíntese.",
      },
    ],
  });
  await runJobs(h, a, { kb_index: kbIndexJobHandler });
  fake.answer = ANSWER;
});

const spent = async () => {
  const [row] = await queryRows<{ used: string }>(
    h.database.db,
    sql`SELECT coalesce(sum(used), 0)::text AS used FROM ai_limit_counters WHERE tenant_id = ${a.id}`,
  );
  return Number(row?.used);
};
const calls = async () =>
  Number(
    (
      await queryRows<{ n: number }>(
        h.database.db,
        sql`SELECT count(*)::int AS n FROM ai_ledger WHERE tenant_id = ${a.id}`,
      )
    )[0]?.n,
  );
const lastCall = async () =>
  (
    await queryRows<{ outcome: string; input_tokens: number; output_tokens: number }>(
      h.database.db,
      sql`SELECT outcome, input_tokens, output_tokens FROM ai_ledger WHERE tenant_id = ${a.id}
          ORDER BY occurred_at DESC, id DESC LIMIT 1`,
    )
  )[0];

function eventsOf(body: string): { event: string; data: unknown }[] {
  return body
    .trim()
    .split("\n\n")
    .map((block) => {
      const [event, data] = block.split("\n");
      return { event: event?.slice(7) ?? "", data: JSON.parse(data?.slice(6) ?? "null") };
    });
}

const searchBody = (extra: object = {}) => ({ query: QUERY, answer: true, ...extra });

it("streams the results, the answer's deltas and a done event with its citations, settled as unstreamed", async () => {
  const s0 = await spent();
  const plain = await call("POST", `/rag/knowledge-bases/${kbId}/search`, searchBody());
  expect(plain.statusCode, plain.body).toBe(200);
  const s1 = await spent();
  const plainCall = await lastCall();

  const res = await call("POST", `/rag/knowledge-bases/${kbId}/search`, searchBody({ stream: true }));
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers["content-type"]).toMatch(/^text\/event-stream/);
  const events = eventsOf(res.body);
  const names = events.map((e) => e.event);
  expect(names[0]).toBe("results");
  expect(names.at(-1)).toBe("done");
  expect(new Set(names.slice(1, -1))).toEqual(new Set(["delta"]));
  expect(
    events
      .slice(1, -1)
      .map((e) => (e.data as { text: string }).text)
      .join(""),
  ).toBe(ANSWER);
  const { rank, data } = plain.json();
  expect(events[0]?.data).toEqual({ rank, data });
  const { text: _, ...rest } = plain.json().answer;
  expect(events.at(-1)?.data).toEqual(rest);
  expect(rest.citations.map((c: { source: number }) => c.source)).toEqual([1, 2]);
  // The same call, streamed or not, is charged and written alike.
  expect((await spent()) - s1).toBe(s1 - s0);
  expect(s1 - s0).toBe(rest.usage.inputTokens + rest.usage.outputTokens);
  expect(await lastCall()).toEqual(plainCall);
});

it("ends with an error event when the provider fails part-way, and settles what was used", async () => {
  fake.streamFailAfter = 2;
  const s0 = await spent();
  const res = await call("POST", `/rag/knowledge-bases/${kbId}/search`, searchBody({ stream: true }));
  expect(res.statusCode).toBe(200);
  const events = eventsOf(res.body);
  expect(events.map((e) => e.event)).toEqual(["results", "delta", "delta", "error"]);
  expect(events.at(-1)?.data).toEqual({ error: "ai_provider_error" });
  const received = events
    .slice(1, 3)
    .map((e) => (e.data as { text: string }).text)
    .join("");
  const last = await lastCall();
  expect(last?.outcome).toBe("failed");
  expect(last?.output_tokens).toBe(Buffer.byteLength(received, "utf8"));
  expect(last?.input_tokens).toBeGreaterThan(0);
  expect((await spent()) - s0).toBe((last?.input_tokens ?? 0) + (last?.output_tokens ?? 0));
});

it("refuses stream without answer, and streams no call when nothing is found", async () => {
  const bad = await call("POST", `/rag/knowledge-bases/${kbId}/search`, { query: QUERY, stream: true });
  expect(bad.statusCode).toBe(400);
  expect(fieldsOf(bad)).toEqual(["answer"]);
  const before = fake.received.length;
  const res = await call(
    "POST",
    `/rag/knowledge-bases/${kbId}/search`,
    searchBody({ query: "zzzz", stream: true }),
  );
  expect(eventsOf(res.body)).toEqual([
    { event: "results", data: { rank: "text", data: [] } },
    { event: "done", data: null },
  ]);
  expect(fake.received.length).toBe(before);
});

it("aborts the provider's call when the client goes away, and settles what was used", async () => {
  fake.answer = Array.from({ length: 40 }, (_, i) => `palavra${i}`).join(" ");
  fake.streamDelayMs = 100;
  const address = await h.app.listen({ host: "127.0.0.1", port: 0 });
  const { port } = new URL(address);
  const s0 = await spent();
  const n0 = await calls();
  const aborted = fake.aborted;
  const payload = JSON.stringify(searchBody({ stream: true }));
  await new Promise<void>((resolve, reject) => {
    const req = httpRequest(
      {
        host: "127.0.0.1",
        port: Number(port),
        method: "POST",
        path: `/api/institution/rag/knowledge-bases/${kbId}/search`,
        headers: { host: a.host, "content-type": "application/json", ...bearer(key) },
      },
      (res) => {
        res.on("data", (chunk: Buffer) => {
          if (chunk.toString("utf8").includes("event: delta")) {
            req.destroy();
            resolve();
          }
        });
      },
    );
    req.on("error", () => {});
    req.setTimeout(10_000, () => reject(new Error("no delta")));
    req.end(payload);
  });
  await until(() => fake.aborted > aborted, "the provider's request to be closed", 5_000);
  await until(async () => (await calls()) > n0, "the settlement", 5_000);
  const last = await lastCall();
  expect((await spent()) - s0).toBe((last?.input_tokens ?? 0) + (last?.output_tokens ?? 0));
  expect(last?.outcome).toBe("failed");
  expect(last?.output_tokens).toBeGreaterThan(0);
  expect(last?.output_tokens).toBeLessThan(Buffer.byteLength(fake.answer, "utf8"));
  fake.answer = ANSWER;
});
