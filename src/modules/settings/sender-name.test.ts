import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { institutionSettings, platformEvents } from "../../db/schema/index.js";
import { bearer, type TestTenant } from "../../test-support/harness.js";
import { useMailKit } from "../../test-support/mail-kit.js";

/**
 * Issue 19, point 8: `notifications.senderName` is the display name of every From header the institution sends.
 * Header breaks and address-like text are refused on write (400 naming the field), and whatever is stored (a value
 * from before the rule, or the institution's name) still leaves as one display name on the deployment's address.
 */

const k = useMailKit();

const patch = (t: TestTenant, key: string, payload: unknown, headers: Record<string, string> = {}) =>
  k.h.inject({
    method: "PATCH",
    url: "/api/institution/settings",
    headers: {
      host: t.host,
      "content-type": "application/json",
      "accept-language": "en-US",
      ...bearer(key),
      ...headers,
    },
    payload: JSON.stringify(payload),
  });

const settingsEvents = async (t: TestTenant) =>
  k.h.database.db
    .select()
    .from(platformEvents)
    .where(and(eq(platformEvents.tenantId, t.id), eq(platformEvents.type, "settings_updated")));

describe("notifications.senderName", () => {
  it("refuses line breaks, controls, address-like text and quote breakers, naming the field", async () => {
    const t = k.a;
    const refused = [
      "Secretaria\r\nBcc: x@evil.test",
      "Secretaria\nBeta",
      "Tab\there",
      "Null\u0000byte",
      "PayPal <security@paypal.com>",
      "security@paypal.com",
      "PayPal <security>",
      'Escola "Oficial"',
      "Back\\slash",
      "Escola\u202Emoc.lapyap",
      "Line\u2028separator",
      "ＰａｙＰａｌ＜security＠paypal.com＞",
      "   ",
    ];
    for (const senderName of refused) {
      const res = await patch(t, k.keyA, { notifications: { senderName } });
      expect(res.statusCode, JSON.stringify(senderName)).toBe(400);
      expect(res.json().error).toBe("validation_failed");
      expect(res.json().details.map((d: { field: string }) => d.field)).toEqual(["notifications.senderName"]);
    }
    const now = await k.h.inject({
      method: "GET",
      url: "/api/institution/settings",
      headers: { host: t.host, ...bearer(k.keyA) },
    });
    expect(now.json().notifications.senderName).toBeNull();
    expect(await settingsEvents(t)).toEqual([]);

    // The schema clients build forms from says so.
    const schema = await k.h.inject({
      method: "GET",
      url: "/api/institution/settings/schema",
      headers: { host: t.host, ...bearer(k.keyA) },
    });
    const senderName = schema.json().properties.notifications.properties.senderName;
    expect(JSON.stringify(senderName)).toContain("pattern");
    expect(senderName.description).toContain("notifications.senderName");
  });

  it("accepts names of any script with apostrophes, commas and parentheses, and sends them as one display name", async () => {
    const t = k.a;
    const senderName = "Colégio D'Ávila, Unidade (Centro) 学校";
    const res = await patch(t, k.keyA, { notifications: { senderName } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().notifications.senderName).toBe(senderName);
    const to = k.email(t);
    expect((await k.post(t, "/api/institution/invites", { email: to }, bearer(k.keyA))).statusCode).toBe(201);
    expect(await k.drain(t)).toEqual({ sent: 1, retried: 0, failed: 0, suppressed: 0, stale: 0 });
    expect(k.mailTo(to).from?.value).toEqual([{ name: senderName, address: "no-reply@mail.test" }]);
  });

  it("sends a name stored before the rule as one display name that reads as no address", async () => {
    const t = k.b;
    const overrides = {
      notifications: { senderName: 'PayPal <security@paypal.com>\r\nBcc: x@evil.test "' },
    };
    await k.h.database.db
      .insert(institutionSettings)
      .values({ tenantId: t.id, overrides })
      .onConflictDoUpdate({ target: institutionSettings.tenantId, set: { overrides } });
    const to = k.email(t);
    expect((await k.post(t, "/api/institution/invites", { email: to }, bearer(k.keyB))).statusCode).toBe(201);
    expect(await k.drain(t)).toEqual({ sent: 1, retried: 0, failed: 0, suppressed: 0, stale: 0 });
    const mail = k.mailTo(to);
    expect(mail.from?.value).toEqual([
      { name: "PayPal security paypal.com Bcc: x evil.test", address: "no-reply@mail.test" },
    ]);
    expect(mail.bcc).toBeUndefined();
    expect(mail.headers.has("bcc")).toBe(false);
  });
});
