/**
 * Hostile input is a 4xx, never a 5xx (issue 10, items 7 and 11): nesting deep enough to overflow a recursive
 * reader, text PostgreSQL cannot store (U+0000 and lone surrogates, in values and in keys), numbers in the query
 * that JavaScript reads but nobody writes (`Infinity`, `1e400`, `0x10`), path parameters the router cannot take,
 * and a Host header that is not `name[:port]`, which would otherwise be copied into the URLs the API answers.
 */
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { courses, platformEvents } from "../../db/schema/index.js";
import { useApi } from "../../test-support/api.js";
import { adminCookie, bearer, type Harness, json, makeKey } from "../../test-support/harness.js";
import { MAX_JSON_DEPTH } from "./nul-guard.js";

const { h, tenants } = useApi({ tenants: 1 });
const [t] = tenants;
let key: string;
let cookie: string;

beforeAll(async () => {
  key = await makeKey(h, t, []);
  cookie = await adminCookie(h, t);
});

/** `levels` objects nested in one another, innermost `{"a": 1}`. */
const nested = (levels: number) => `${'{"a":'.repeat(levels - 1)}{"a":1}${"}".repeat(levels - 1)}`;

type Res = Awaited<ReturnType<Harness["inject"]>>;

function refused(res: Res, field: string, status = 400) {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.json().error).toBe("validation_failed");
  expect(res.json().details.map((d: { field: string }) => d.field)).toEqual([field]);
}

async function inboundPath(): Promise<string> {
  const res = await h.inject({
    method: "POST",
    url: "/api/institution/automations",
    headers: { host: t.host, cookie, ...json },
    payload: {
      name: "Inbound",
      trigger: { event: "webhook" },
      action: { type: "send_webhook", url: "https://93.184.215.14/hook" },
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  return new URL(res.json().inboundUrl).pathname;
}

const courseTitles = async () =>
  (await h.database.db.select({ title: courses.title }).from(courses).where(eq(courses.tenantId, t.id))).map(
    (c) => c.title,
  );

describe("deeply nested JSON", () => {
  it("is 400 naming body on login, invite acceptance, the inbound URL and an authenticated route, at 100,000 levels", async () => {
    // Arrays, so 100,000 levels (200 KB) also fit in the inbound URL's 256 KiB.
    const deep = `{"a":${"[".repeat(100_000)}${"]".repeat(100_000)}}`;
    const path = await inboundPath();
    const sends = [
      { url: "/api/auth/login", headers: { host: t.host, ...json } },
      { url: "/api/invites/accept", headers: { host: t.host, ...json } },
      { url: path, headers: json },
      { url: "/api/institution/courses", headers: { host: t.host, ...json, ...bearer(key) } },
    ];
    for (const send of sends) {
      const res = await h.inject({ method: "POST", ...send, payload: deep });
      refused(res, "body");
      expect(res.json().details[0].message).toContain(String(MAX_JSON_DEPTH));
    }
    expect(await courseTitles()).toEqual([]);
  });

  it(`stores an inbound body nested ${MAX_JSON_DEPTH} levels deep and refuses one level more`, async () => {
    const path = await inboundPath();
    const ok = await h.inject({ method: "POST", url: path, headers: json, payload: nested(MAX_JSON_DEPTH) });
    expect(ok.statusCode, ok.body).toBe(202);
    const [event] = await h.database.db
      .select({ data: platformEvents.data })
      .from(platformEvents)
      .where(and(eq(platformEvents.tenantId, t.id), eq(platformEvents.id, ok.json().eventId)));
    expect(event?.data).toEqual(JSON.parse(nested(MAX_JSON_DEPTH)));
    const deeper = await h.inject({
      method: "POST",
      url: path,
      headers: json,
      payload: nested(MAX_JSON_DEPTH + 1),
    });
    refused(deeper, "body");
    const arrays = `${"[".repeat(MAX_JSON_DEPTH)}${"]".repeat(MAX_JSON_DEPTH)}`;
    refused(await h.inject({ method: "POST", url: path, headers: json, payload: `{"a":${arrays}}` }), "body");
  });
});

describe("text PostgreSQL cannot store", () => {
  const post = (url: string, payload: string) =>
    h.inject({ method: "POST", url, headers: { host: t.host, ...json, ...bearer(key) }, payload });

  it("is 400 naming the field for U+0000 in a key, anywhere a value becomes jsonb", async () => {
    const path = await inboundPath();
    const inbound = await h.inject({
      method: "POST",
      url: path,
      headers: json,
      payload: '{"person": {"na\\u0000me": "Ana"}}',
    });
    refused(inbound, "person.na\uFFFDme");
    const automation = await h.inject({
      method: "POST",
      url: "/api/institution/automations",
      headers: { host: t.host, cookie, ...json },
      payload: JSON.stringify({
        name: "Headers",
        trigger: { event: "user_created" },
        action: { type: "send_webhook", url: "https://93.184.215.14/hook", headers: { "X-\u0000": "v" } },
      }),
    });
    refused(automation, "action.headers.X-\uFFFD");
    refused(await post("/api/institution/courses", '{"title": "x", "\\u0000": 1}'), "\uFFFD");
  });

  it("is 400 naming the field for a lone surrogate in a value or a key, and stores nothing", async () => {
    refused(await post("/api/institution/courses", '{"title": "x\\ud800"}'), "title");
    refused(await post("/api/institution/courses", '{"title": "\\udc00x"}'), "title");
    refused(await post("/api/institution/courses", '{"title": "x", "\\ud83d": 1}'), "\uFFFD");
    const path = await inboundPath();
    refused(
      await h.inject({ method: "POST", url: path, headers: json, payload: '{"list": ["ok", "\\ud800"]}' }),
      "list[1]",
    );
    // A whole pair is ordinary text.
    const pair = await post("/api/institution/courses", '{"title": "ok \\ud83d\\ude00"}');
    expect(pair.statusCode, pair.body).toBe(201);
    expect(await courseTitles()).toEqual(["ok 😀"]);
  });
});

describe("numbers in the query", () => {
  const list = (query: string) =>
    h.inject({
      method: "GET",
      url: `/api/institution/courses?${query}`,
      headers: { host: t.host, ...bearer(key) },
    });

  it("takes plain decimal integers only", async () => {
    for (const [query, field] of [
      ["page=Infinity", "page"],
      ["page=-Infinity", "page"],
      ["perPage=Infinity", "perPage"],
      ["page=1e400", "page"],
      ["perPage=1e400", "perPage"],
      [`perPage=1${"0".repeat(400)}`, "perPage"],
      ["perPage=0x10", "perPage"],
      ["page=1e3", "page"],
      ["page=%2012", "page"],
      ["page=12%20", "page"],
      ["page=1.0", "page"],
      ["page=", "page"],
      ["page=+2", "page"],
    ]) {
      const res = await list(query as string);
      refused(res, field as string);
    }
  });

  it("still serves ?page=2 and ?perPage=5", async () => {
    const res = await list("page=2&perPage=5");
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().pagination).toMatchObject({ page: 2, perPage: 5 });
  });
});

describe("errors raised before routing", () => {
  it("answers a path parameter past the router's limit like an unknown id, without echoing the path", async () => {
    const long = "a".repeat(300);
    const res = await h.inject({
      method: "GET",
      url: `/api/institution/courses/${long}`,
      headers: { host: t.host, ...bearer(key), "accept-language": "en-US" },
    });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: "not_found", message: "The requested resource was not found." });
    expect(res.headers["content-language"]).toBe("en-US");
    expect(res.body).not.toContain(long);
  });

  it("answers a path parameter that cannot be percent-decoded like an unknown id", async () => {
    const res = await h.inject({
      method: "GET",
      url: "/api/institution/courses/%E0%A4%A",
      headers: { host: t.host, ...bearer(key) },
    });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: "not_found", message: expect.any(String) });
    expect(res.body).not.toContain("%E0");
  });
});

describe("the Host header", () => {
  it("is refused unless it is name[:port], on every kind of route, before tenancy", async () => {
    for (const host of [
      `${t.host}:4000@evil.example`,
      `evil.example@${t.host}`,
      `${t.host}/x`,
      `${t.host}:`,
      `${t.host}:99999`,
      `${t.host}:80:80`,
      `${t.host} x`,
      `-${t.host}`,
      "[::1",
      "[not:an:ip]",
      `${"a".repeat(64)}.${t.host}`,
    ]) {
      for (const send of [
        { method: "GET" as const, url: "/api/institution/courses", headers: { ...bearer(key) } },
        { method: "POST" as const, url: "/api/auth/login", headers: json, payload: "{}" },
        { method: "GET" as const, url: "/healthz", headers: {} },
      ]) {
        const res = await h.inject({ ...send, headers: { ...send.headers, host } });
        refused(res, "Host");
      }
    }
  });

  it("accepts names, IPv4 and IPv6 literals, with or without a port", async () => {
    for (const host of [
      t.host,
      `${t.host}:3000`,
      `${t.host.toUpperCase()}:443`,
      "127.0.0.1:3000",
      "[::1]:3000",
      "[::1]",
    ]) {
      const res = await h.inject({ method: "GET", url: "/healthz", headers: { host } });
      expect(res.statusCode, `${host}: ${res.body}`).toBe(200);
    }
  });

  it("builds acceptUrl and inboundUrl from the validated host", async () => {
    const evil = `${t.host}:4000@evil.example`;
    const invite = await h.inject({
      method: "POST",
      url: "/api/institution/invites",
      headers: { host: evil, ...bearer(key), ...json },
      payload: { email: "someone@example.com", role: "student" },
    });
    refused(invite, "Host");
    const automation = await h.inject({
      method: "POST",
      url: "/api/institution/automations",
      headers: { host: evil, cookie, ...json },
      payload: {
        name: "Inbound",
        trigger: { event: "webhook" },
        action: { type: "send_webhook", url: "https://93.184.215.14/hook" },
      },
    });
    refused(automation, "Host");

    const good = await h.inject({
      method: "POST",
      url: "/api/institution/invites",
      headers: { host: `${t.host.toUpperCase()}:4000`, ...bearer(key), ...json },
      payload: { email: "someone@example.com", role: "student" },
    });
    expect(good.statusCode, good.body).toBe(201);
    expect(good.json().acceptUrl).toBe(`http://${t.host}:4000/invites/accept?token=${good.json().token}`);
    expect(await inboundPath()).toMatch(/^\/api\/automations\/webhook\/[0-9a-f]{64}$/);
  });
});
