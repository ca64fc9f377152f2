import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { platformEvents } from "../../db/schema/index.js";
import { useApi } from "../../test-support/api.js";
import { adminCookie } from "../../test-support/harness.js";
import { DEFAULT_SETTINGS } from "./schemas.js";

/**
 * Issue 19, point 8: `PATCH /api/institution/settings` is an RFC 7386 merge patch, so it takes the media type that
 * RFC registers, `application/merge-patch+json`, as well as `application/json`, with the same body limit, depth
 * check and `invalid_json` answers. Routes without merge-patch semantics keep refusing it (415).
 */

const MERGE = "application/merge-patch+json";
const { h, tenants } = useApi({ tenants: 1 });
const [t] = tenants;
let cookie: string;

beforeAll(async () => {
  cookie = await adminCookie(h, t);
});

const send = (method: "PATCH" | "POST", url: string, contentType: string, payload: string) =>
  h.inject({
    method,
    url,
    headers: { host: t.host, cookie, "content-type": contentType, "accept-language": "en-US" },
    payload,
  });
const patchSettings = (contentType: string, payload: string) =>
  send("PATCH", "/api/institution/settings", contentType, payload);

const settingsEvents = async () =>
  h.database.db
    .select()
    .from(platformEvents)
    .where(and(eq(platformEvents.tenantId, t.id), eq(platformEvents.type, "settings_updated")));

describe("PATCH /settings as application/merge-patch+json", () => {
  it("applies a merge patch sent with the RFC 7386 media type, with or without a charset", async () => {
    const res = await patchSettings(
      MERGE,
      JSON.stringify({ notifications: { replyTo: "office@escola.test" }, learning: null }),
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().notifications).toEqual({ senderName: null, replyTo: "office@escola.test" });
    expect(res.json().learning).toEqual(DEFAULT_SETTINGS.learning);

    const again = await patchSettings(
      `${MERGE}; charset=utf-8`,
      JSON.stringify({ notifications: { replyTo: null } }),
    );
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().notifications.replyTo).toBeNull();
    expect((await settingsEvents()).map((e) => e.data)).toEqual([
      expect.objectContaining({ changedKeys: ["notifications.replyTo"] }),
      expect.objectContaining({ changedKeys: ["notifications.replyTo"] }),
    ]);
  });

  it("answers bad bodies exactly as it does for application/json", async () => {
    const deep = `${'{"a":'.repeat(70)}1${"}".repeat(70)}`;
    const huge = JSON.stringify({ notifications: { senderName: "x".repeat(1024 * 1024 + 10) } });
    const cases: [string, number, string][] = [
      ["{not json", 400, "invalid_json"],
      ["", 400, "validation_failed"], // no body, not malformed JSON: a patch needs at least one field
      ['{"__proto__":{"x":1}}', 400, "invalid_json"],
      [deep, 400, "validation_failed"],
      [huge, 413, "payload_too_large"],
      ['{"notifications":{"senderName":"PayPal <security@paypal.com>"}}', 400, "validation_failed"],
      ['{"unknown":{}}', 400, "validation_failed"],
    ];
    for (const [payload, status, error] of cases) {
      const asJson = await patchSettings("application/json", payload);
      const asMerge = await patchSettings(MERGE, payload);
      expect(asJson.statusCode, payload.slice(0, 40)).toBe(status);
      expect(asMerge.statusCode, payload.slice(0, 40)).toBe(status);
      expect(asMerge.json().error).toBe(error);
      expect(asMerge.json()).toEqual(asJson.json());
    }
  });

  it("is refused (415) by routes whose bodies are not merge patches", async () => {
    const theme = await send(
      "POST",
      "/api/institution/themes",
      "application/json",
      JSON.stringify({ name: "T" }),
    );
    expect(theme.statusCode, theme.body).toBe(201);
    const res = await send("PATCH", `/api/institution/themes/${theme.json().id}`, MERGE, '{"name":"U"}');
    expect(res.statusCode).toBe(415);
    expect(res.json().error).toBe("unsupported_media_type");
    const login = await h.inject({
      method: "POST",
      url: "/api/auth/login",
      headers: { host: t.host, "content-type": MERGE },
      payload: '{"email":"a@b.test","password":"x"}',
    });
    expect(login.statusCode).toBe(415);
  });

  it("documents both media types for this route only", async () => {
    const doc = (await h.inject({ method: "GET", url: "/openapi.json" })).json();
    const settings = doc.paths["/api/institution/settings"].patch.requestBody.content;
    expect(Object.keys(settings).sort()).toEqual(["application/json", MERGE]);
    expect(settings[MERGE].schema).toEqual(settings["application/json"].schema);
    const themes = doc.paths["/api/institution/themes/{id}"].patch.requestBody.content;
    expect(Object.keys(themes)).toEqual(["application/json"]);
  });
});
