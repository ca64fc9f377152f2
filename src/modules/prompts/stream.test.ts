import { request as httpRequest } from "node:http";
import { sql } from "drizzle-orm";
import { afterEach, beforeAll, expect, it } from "vitest";
import { queryRows } from "../../db/rows.js";
import { callerFor, useApi } from "../../test-support/api.js";
import { FAKE_KEY, FAKE_MODEL, useFakeOpenAi } from "../../test-support/fake-openai.js";
import { adminCookie, bearer, makeKey, UNLIMITED_KEY } from "../../test-support/harness.js";
import { until } from "../../test-support/receiver.js";
import { promptBody, VALUES } from "./test-fixtures.js";

const fake = useFakeOpenAi();
afterEach(() => {
  fake.answer = undefined;
});

const { h, tenants } = useApi({ tenants: 1, env: () => ({ OUTBOUND_ALLOW_CIDRS: "127.0.0.2/32" }) });
const [a] = tenants;
let key: string;
let promptId: string;
const call = callerFor(h, () => ({ tenant: a, credential: key }));

beforeAll(async () => {
  key = await makeKey(h, a, ["ai:read", "ai:write"], UNLIMITED_KEY);
  const admin = await adminCookie(h, a);
  const provider = { baseUrl: fake.baseUrl, apiKey: FAKE_KEY, defaultModel: FAKE_MODEL };
  expect((await call("PUT", "/ai/provider", provider, admin)).statusCode).toBe(200);
  // Limits in tokens, so what a call is charged is visible to the token.
  const limits = await call("PUT", "/ai-limits", {
    enabled: true,
    unit: "tokens",
    period: "day",
    institutionLimit: 10_000_000,
  });
  expect(limits.statusCode, limits.body).toBe(200);
  promptId = (await call("POST", "/prompts", promptBody({ modelParams: { maxOutputTokens: 500 } }))).json()
    .id;
});

const spent = async () =>
  Number(
    (
      await queryRows<{ used: string }>(
        h.database.db,
        sql`SELECT coalesce(sum(used), 0)::text AS used FROM ai_limit_counters WHERE tenant_id = ${a.id}`,
      )
    )[0]?.used,
  );
const ledger = () =>
  queryRows<{ outcome: string; input_tokens: number; output_tokens: number }>(
    h.database.db,
    sql`SELECT outcome, input_tokens, output_tokens FROM ai_ledger WHERE tenant_id = ${a.id}
        ORDER BY occurred_at DESC, id DESC`,
  );

it("ends with an error event when the provider fails part-way, and charges what was used", async () => {
  fake.answer = "um dois três quatro cinco";
  fake.streamFailAfter = 2;
  const s0 = await spent();
  const res = await call("POST", `/prompts/${promptId}/run`, { ...VALUES, stream: true });
  expect(res.statusCode).toBe(200);
  const events = res.body.trim().split("\n\n");
  expect(events.map((e) => e.split("\n")[0])).toEqual(["event: delta", "event: delta", "event: error"]);
  const [last] = await ledger();
  expect(last?.outcome).toBe("failed");
  // The two words that came, in bytes; the input at its bound. Before, the call was charged nothing.
  expect(last?.output_tokens).toBe(Buffer.byteLength("um dois ", "utf8"));
  expect(last?.input_tokens).toBeGreaterThan(0);
  expect((await spent()) - s0).toBe((last?.input_tokens ?? 0) + (last?.output_tokens ?? 0));
});

it("aborts the provider's call when the client goes away, and settles what was used", async () => {
  fake.answer = Array.from({ length: 40 }, (_, i) => `palavra${i}`).join(" ");
  fake.streamDelayMs = 100;
  const address = await h.app.listen({ host: "127.0.0.1", port: 0 });
  const { port } = new URL(address);
  const s0 = await spent();
  const n0 = (await ledger()).length;
  const aborted = fake.aborted;
  await new Promise<void>((resolve, reject) => {
    const req = httpRequest(
      {
        host: "127.0.0.1",
        port: Number(port),
        method: "POST",
        path: `/api/institution/prompts/${promptId}/run`,
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
    req.end(JSON.stringify({ ...VALUES, stream: true }));
  });
  await until(() => fake.aborted > aborted, "the provider's request to be closed", 5_000);
  await until(async () => (await ledger()).length > n0, "the settlement", 5_000);
  const [last] = await ledger();
  expect(last?.outcome).toBe("failed");
  expect(last?.output_tokens).toBeGreaterThan(0);
  expect(last?.output_tokens).toBeLessThan(Buffer.byteLength(fake.answer, "utf8"));
  expect((await spent()) - s0).toBe((last?.input_tokens ?? 0) + (last?.output_tokens ?? 0));
});
