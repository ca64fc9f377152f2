/**
 * No secret in the logs (SECURITY.md API2 15): every log line of a run that creates an inbound automation, posts
 * to its URL, sends credentials in query strings and fails two database statements run with a secret.
 */
import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { useApi } from "../../test-support/api.js";
import { adminCookie, json } from "../../test-support/harness.js";
import { redactError, redactUrl } from "./log-redaction.js";

const lines: string[] = [];
const SECRET = `s3cret-${randomBytes(12).toString("hex")}`;
const { h, tenants } = useApi({
  harness: {
    onLog: (line) => void lines.push(line),
    routes: (app) => {
      // Test hooks: statements PostgreSQL refuses, each run with a secret as its parameter.
      app.get("/__test__/bad-uuid", async () => h.database.db.execute(sql`SELECT ${SECRET}::uuid AS id`));
      app.get("/__test__/division", async () =>
        h.database.db.execute(sql`SELECT ${SECRET}::text AS s WHERE 1 / 0 = 1`),
      );
    },
  },
  tenants: 1,
});
const [t] = tenants;

describe("logs", () => {
  it("carry no inbound token, no credential from a query string and no value of a failed statement", async () => {
    const cookie = await adminCookie(h, t);
    const created = await h.inject({
      method: "POST",
      url: "/api/institution/automations",
      headers: { host: t.host, cookie, ...json },
      payload: {
        name: "Inbound",
        trigger: { event: "webhook" },
        action: { type: "send_webhook", url: "https://93.184.215.14/aula" },
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const inboundUrl: string = created.json().inboundUrl;
    const token = inboundUrl.slice(-64);
    const secret: string = created.json().signingSecret;
    const posted = await h.inject({
      method: "POST",
      url: new URL(inboundUrl).pathname,
      headers: { host: t.host, ...json },
      payload: { order: 42 },
    });
    expect(posted.statusCode, posted.body).toBe(202);
    const unknown = await h.inject({
      method: "POST",
      url: `/api/automations/webhook/${token.slice(0, 63)}x?token=${SECRET}`,
      headers: { host: t.host, ...json },
      payload: {},
    });
    expect(unknown.statusCode).toBe(404);
    const keyInQuery = await h.inject({
      method: "GET",
      url: `/api/institution/courses?api_key=mia_${SECRET}&page=1`,
      headers: { host: t.host },
    });
    expect(keyInQuery.statusCode).toBe(401);
    for (const url of ["/__test__/bad-uuid", "/__test__/division"]) {
      const failed = await h.inject({ method: "GET", url });
      expect(failed.statusCode).toBe(500);
      expect(failed.body).not.toContain(SECRET);
    }

    const log = lines.join("\n");
    // The run was logged: the inbound request, both failures with their SQL, the redacted query string.
    expect(log).toContain('"url":"/api/automations/webhook/[redacted]"');
    expect(log).toContain("api_key=[redacted]&page=1");
    expect(log).toContain("invalid input syntax for type uuid");
    expect(log).toContain("division by zero");
    expect(log).toContain("Failed query: SELECT $1::text");
    for (const needle of [token, token.slice(0, 63), SECRET, secret, secret.slice(6)]) {
      expect(log).not.toContain(needle);
    }
  });
});

describe("redactUrl", () => {
  it.each([
    [`/api/automations/webhook/${"ab12".repeat(16)}`, "/api/automations/webhook/[redacted]"],
    [
      "/api/institution/courses/0b7c6a1e-3f7e-4c1a-9a57-2f1f6b0c9d11",
      "/api/institution/courses/0b7c6a1e-3f7e-4c1a-9a57-2f1f6b0c9d11",
    ],
    ["/api/cron/billing-grace-expire-and-more-words", "/api/cron/billing-grace-expire-and-more-words"],
    [
      "/x?token=a&Client_Secret=b&apiKey=c&page=2",
      "/x?token=[redacted]&Client_Secret=[redacted]&apiKey=[redacted]&page=2",
    ],
    ["/x?search=key%20words&sort=-createdAt", "/x?search=key%20words&sort=-createdAt"],
  ])("%s → %s", (url, logged) => {
    expect(redactUrl(url)).toBe(logged);
  });
});

describe("redactError", () => {
  it("drops statement values from an error and its causes, keeping the original intact", () => {
    const cause = Object.assign(new Error(`invalid input syntax for type uuid: "${SECRET}"`), {
      code: "22P02",
      detail: `Key (email)=(${SECRET}) already exists.`,
      params: [SECRET],
    });
    const err = Object.assign(new Error(`Failed query: SELECT $1::uuid\nparams: ${SECRET}`, { cause }), {
      query: "SELECT $1::uuid",
      params: [SECRET],
    });
    const copy = redactError(err) as Error & { cause: Error & { code: string } };
    expect(JSON.stringify({ ...copy, message: copy.message, stack: copy.stack })).not.toContain(SECRET);
    expect(copy.message).toBe("Failed query: SELECT $1::uuid\nparams: [redacted]");
    expect(copy.cause.message).toBe('invalid input syntax for type uuid: "[redacted]"');
    expect(copy.cause.code).toBe("22P02");
    expect(copy.cause.stack).not.toContain(SECRET);
    expect(err.params).toEqual([SECRET]);
  });
});
