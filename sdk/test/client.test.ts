/**
 * The SDK against the real app listening on a port: operations by operationId with typed inputs and results,
 * lists iterated across pages, typed errors, a session's cookies, and retries (a 429 after its Retry-After, a
 * 500 with the POST's Idempotency-Key kept, a 429 too far off thrown with its retryAfter).
 */
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, expectTypeOf, it } from "vitest";
import { useApi } from "../../src/test-support/api.js";
import { makeKey, UNLIMITED_KEY } from "../../src/test-support/harness.js";
import {
  type Aula,
  AulaConnectionError,
  AulaError,
  type AulaOptions,
  createAula,
  type Item,
  type Result,
} from "../src/index.js";
import { listen, localFetch, originOf } from "./live.js";

interface Sent {
  method: string;
  path: string;
  idempotencyKey: string | null;
  status: number;
}

/** Every request the client sends and the status it got, as the wire saw them. */
function recording(sent: Sent[]): NonNullable<AulaOptions["fetch"]> {
  return async (input, init) => {
    const response = await localFetch(input, init);
    const headers = new Headers(init.headers);
    sent.push({
      method: init.method ?? "GET",
      path: new URL(input).pathname,
      idempotencyKey: headers.get("idempotency-key"),
      status: response.status,
    });
    return response;
  };
}

let flakyCalls = 0;
const { h, tenants } = useApi({
  tenants: 1,
  // Sign-in allows one failure a second per e-mail: a second attempt at once is a 429 with Retry-After: 1.
  env: { LOGIN_MAX_PER_EMAIL: "1", LOGIN_WINDOW_SECONDS: "1" },
  harness: {
    routes: (app) => {
      app.get(
        "/api/institution/sdk-slow",
        {
          schema: { hide: true },
          config: { access: { kind: "authenticated", auth: ["key"], scope: "courses:read" } },
        },
        async () => {
          await new Promise((resolve) => setTimeout(resolve, 400));
          return { slow: true };
        },
      );
      app.post(
        "/api/institution/sdk-flaky",
        {
          schema: { hide: true },
          config: { access: { kind: "authenticated", auth: ["key"], scope: "courses:write" } },
        },
        async () => {
          flakyCalls += 1;
          if (flakyCalls === 1) throw new Error("the first attempt fails");
          return { calls: flakyCalls };
        },
      );
    },
  },
});
const [t] = tenants;
let origin: string;
let aula: Aula;
const sent: Sent[] = [];

beforeAll(async () => {
  origin = originOf(t, await listen(h));
  const apiKey = await makeKey(h, t, [], UNLIMITED_KEY);
  aula = createAula({ baseUrl: origin, apiKey, language: "en-US", fetch: recording(sent) });
});

describe("operations by operationId", () => {
  it("creates, reads, updates and deletes with typed inputs and results", async () => {
    const created = await aula.courses.create({ body: { title: "Álgebra Linear" } });
    expectTypeOf(created.id).toEqualTypeOf<string>();
    expectTypeOf(created.status).toEqualTypeOf<"draft" | "published" | "archived">();
    expect(created).toMatchObject({ title: "Álgebra Linear", status: "draft" });

    const read = await aula.courses.get({ path: { id: created.id } });
    expect(read.id).toBe(created.id);
    const updated = await aula.courses.update({ path: { id: created.id }, body: { status: "published" } });
    expect(updated.status).toBe("published");
    const same = await aula.call("courses.get", { path: { id: created.id } });
    expect(same.status).toBe("published");

    const deleted = await aula.courses.delete({ path: { id: created.id } });
    expectTypeOf(deleted).toEqualTypeOf<undefined>();
    expect(deleted).toBeUndefined();
  });

  it("sends an Idempotency-Key with every POST, and the caller's own when given", async () => {
    const key = randomUUID();
    await aula.courses.create({ body: { title: "Com chave" }, idempotencyKey: key });
    const replay = await aula.request("POST", "/api/institution/courses", {
      body: { title: "Com chave" },
      idempotencyKey: key,
    });
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    const posts = sent.filter((s) => s.method === "POST");
    expect(posts.every((s) => s.idempotencyKey !== null)).toBe(true);
    expect(posts.filter((s) => s.idempotencyKey === key)).toHaveLength(2);
  });
});

describe("result types", () => {
  it("say what fetch may give: a Response after a redirect, undefined for a 304, no undefined otherwise", () => {
    expectTypeOf<Response>().toExtend<Result<"reports.download.get">>();
    expectTypeOf<undefined>().toExtend<Result<"themes.active.variables.get">>();
    expectTypeOf<undefined>().not.toExtend<Result<"courses.get">>();
    expectTypeOf<Response>().toExtend<Result<"certificates.pdf.get">>();
  });
});

describe("lists", () => {
  it("awaits to the page asked for and iterates every item of every page", async () => {
    for (let i = 0; i < 45; i++) await aula.courses.create({ body: { title: `Paginado ${i}` } });
    const query = { search: "paginado", perPage: 20 };
    const first = await aula.courses.list({ query });
    expect(first.pagination).toMatchObject({ page: 1, perPage: 20, total: 45, totalPages: 3 });
    expect(first.data).toHaveLength(20);

    const before = sent.length;
    const titles: string[] = [];
    for await (const course of aula.courses.list({ query })) {
      expectTypeOf(course).toEqualTypeOf<Item<"courses.list">>();
      titles.push(course.title);
    }
    expect(new Set(titles).size).toBe(45);
    expect(sent.slice(before).map((s) => s.path)).toEqual(Array(3).fill("/api/institution/courses"));

    const fromPage3 = await aula.courses.list({ query: { ...query, page: 3 } }).toArray();
    expect(fromPage3).toHaveLength(5);
    let pages = 0;
    for await (const page of aula.courses.list({ query }).pages()) pages += page.data.length > 0 ? 1 : 0;
    expect(pages).toBe(3);
  });

  it("iterates an empty list without a second request", async () => {
    const before = sent.length;
    const none = await aula.courses.list({ query: { search: "nada-disso" } }).toArray();
    expect(none).toEqual([]);
    expect(sent.length - before).toBe(1);
  });
});

describe("errors", () => {
  it("are AulaErrors with the code, details, status and request id", async () => {
    const bad = await aula.courses
      .create({ body: { title: "x", nope: true } as never })
      .catch((err: unknown) => err);
    expect(bad).toBeInstanceOf(AulaError);
    const error = bad as AulaError;
    expect(error.status).toBe(400);
    expect(error.code).toBe("validation_failed");
    expect(error.details.map((d) => d.field)).toContain("nope");
    expect(error.requestId).toMatch(/^[0-9a-f-]{36}$/);

    const missing = await aula.courses.get({ path: { id: randomUUID() } }).catch((err: unknown) => err);
    expect(missing).toMatchObject({
      status: 404,
      code: "not_found",
      message: expect.stringContaining("not_found"),
    });
  });

  it("are not retried when they are the caller's (4xx other than 429)", async () => {
    const before = sent.length;
    await aula.courses.get({ path: { id: randomUUID() } }).catch(() => undefined);
    expect(sent.length - before).toBe(1);
  });
});

describe("retries", () => {
  it("retry a 500 with the same Idempotency-Key, so the POST is applied once", async () => {
    const before = sent.length;
    const res = await aula.request("POST", "/api/institution/sdk-flaky", { body: {} });
    expect(await res.json()).toEqual({ calls: 2 });
    const attempts = sent.slice(before);
    expect(attempts.map((s) => s.status)).toEqual([500, 200]);
    expect(attempts[0]?.idempotencyKey).toBe(attempts[1]?.idempotencyKey);
    const again = await aula.request("POST", "/api/institution/sdk-flaky", {
      body: {},
      idempotencyKey: attempts[0]?.idempotencyKey ?? "",
    });
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(flakyCalls).toBe(2);
  });

  it("retry a 429 after its Retry-After with the same Idempotency-Key, then keep the session", async () => {
    const log: Sent[] = [];
    const session = createAula({ baseUrl: origin, session: true, language: "en-US", fetch: recording(log) });
    const wrong = await session.auth
      .login({ body: { email: t.adminEmail, password: "not the password" } })
      .catch((err: unknown) => err);
    expect(wrong).toMatchObject({ status: 401, code: "invalid_credentials" });

    const started = Date.now();
    const signedIn = await session.auth.login({ body: { email: t.adminEmail, password: t.password } });
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(signedIn.user.email).toBe(t.adminEmail);
    const logins = log.slice(1);
    expect(logins.map((s) => s.status)).toEqual([429, 200]);
    expect(logins[0]?.idempotencyKey).toBeTruthy();
    expect(logins[1]?.idempotencyKey).toBe(logins[0]?.idempotencyKey);

    // The cookies the sign-in set now authenticate; sign-out clears them.
    const users = await session.users.list();
    expect(users.data.map((u) => u.email)).toContain(t.adminEmail);
    await session.auth.logout();
    await expect(session.users.list()).rejects.toMatchObject({ status: 401, code: "unauthorized" });
  });

  it("give up on attempts past timeoutMs (retried like lost connections), and stop at the caller's signal", async () => {
    const log: Sent[] = [];
    const apiKey = await makeKey(h, t, ["courses:read"]);
    const hasty = createAula({
      baseUrl: origin,
      apiKey,
      timeoutMs: 50,
      maxRetries: 1,
      fetch: recording(log),
    });
    const attempts: string[] = [];
    const counting: NonNullable<AulaOptions["fetch"]> = (input, init) => {
      attempts.push(input);
      return localFetch(input, init);
    };
    const timed = createAula({ baseUrl: origin, apiKey, timeoutMs: 50, maxRetries: 1, fetch: counting });
    await expect(timed.request("GET", "/api/institution/sdk-slow")).rejects.toBeInstanceOf(
      AulaConnectionError,
    );
    expect(attempts).toHaveLength(2);
    const patient = await hasty.request("GET", "/api/institution/courses");
    expect(patient.status).toBe(200);

    const controller = new AbortController();
    const aborted = createAula({ baseUrl: origin, apiKey, fetch: counting });
    const pending = aborted.request("GET", "/api/institution/sdk-slow", { signal: controller.signal });
    setTimeout(() => controller.abort(new Error("the caller gave up")), 50);
    await expect(pending).rejects.toThrow("the caller gave up");
    expect(attempts).toHaveLength(3);
  });

  it("throw a 429 whose wait is past maxRetryDelayMs, with retryAfter and the key's window", async () => {
    const apiKey = await makeKey(h, t, ["courses:read"], {
      rateTier: "custom",
      customLimits: { perHour: 100, perMinute: 1 },
    });
    const log: Sent[] = [];
    const limited = createAula({ baseUrl: origin, apiKey, maxRetryDelayMs: 1_000, fetch: recording(log) });
    await limited.courses.list();
    const refused = await limited.courses.list().catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(AulaError);
    const error = refused as AulaError;
    expect(error).toMatchObject({ status: 429, code: "rate_limit_exceeded" });
    expect(error.retryAfter).toBeGreaterThan(1);
    expect(error.retryAfter).toBeLessThanOrEqual(60);
    expect(error.rateLimit).toMatchObject({ limit: 1, remaining: 0 });
    expect(log.map((s) => s.status)).toEqual([200, 429]);
  });
});
