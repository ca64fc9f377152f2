import { randomBytes } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { courses, idempotencyKeys } from "../../db/schema/index.js";
import { useApi } from "../../test-support/api.js";
import {
  adminCookie,
  bearer,
  json,
  makeKey,
  makeTenant,
  type TestTenant,
  tablesContaining,
} from "../../test-support/harness.js";
import { createKeyring, sealSecret } from "../crypto/secret-box.js";
import { purgeIdempotencyKeys } from "./idempotency.js";

const { h } = useApi();

async function tenantWithKey() {
  const t = await makeTenant(h);
  return { t, key: await makeKey(h, t, []) };
}

function create(a: { t: TestTenant; key: string }, body: Record<string, unknown>, idempotencyKey?: string) {
  return h.inject({
    method: "POST",
    url: "/api/institution/courses",
    headers: {
      host: a.t.host,
      ...bearer(a.key),
      ...json,
      "accept-language": "en-US",
      ...(idempotencyKey === undefined ? {} : { "idempotency-key": idempotencyKey }),
    },
    payload: body,
  });
}

async function courseCount(t: TestTenant) {
  return (await h.database.db.select().from(courses).where(eq(courses.tenantId, t.id))).length;
}

describe("Idempotency-Key on POST", () => {
  it("replays the first response for the same request, and creates once", async () => {
    const a = await tenantWithKey();
    const first = await create(a, { title: "Algebra", description: "x" }, "k-1");
    const again = await create(a, { description: "x", title: "Algebra" }, "k-1");
    expect(first.statusCode).toBe(201);
    expect(again.statusCode).toBe(201);
    expect(again.body).toBe(first.body);
    expect(again.headers["idempotent-replayed"]).toBe("true");
    expect(first.headers["idempotent-replayed"]).toBeUndefined();
    expect(again.headers["content-type"]).toMatch(/application\/json/);
    expect(await courseCount(a.t)).toBe(1);
  });

  it("answers 409 conflict to the same key with a different request, changing nothing", async () => {
    const a = await tenantWithKey();
    await create(a, { title: "One" }, "k-2");
    const other = await create(a, { title: "Two" }, "k-2");
    expect(other.statusCode).toBe(409);
    expect(other.json()).toEqual({
      error: "conflict",
      message: expect.stringContaining("different request"),
    });
    expect(await courseCount(a.t)).toBe(1);
  });

  it("keeps keys per tenant, and runs requests without a key as usual", async () => {
    const a = await tenantWithKey();
    const b = await tenantWithKey();
    expect((await create(a, { title: "A" }, "shared")).statusCode).toBe(201);
    expect((await create(b, { title: "B" }, "shared")).statusCode).toBe(201);
    expect(await courseCount(b.t)).toBe(1);
    await create(a, { title: "A" });
    await create(a, { title: "A" });
    expect(await courseCount(a.t)).toBe(3);
  });

  it("lets concurrent copies create once: the others replay or are told it is in progress", async () => {
    const a = await tenantWithKey();
    const results = await Promise.all(
      Array.from({ length: 6 }, () => create(a, { title: "Race" }, "k-race")),
    );
    const statuses = results.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 201).length).toBeGreaterThanOrEqual(1);
    for (const s of statuses) expect([201, 409]).toContain(s);
    expect(await courseCount(a.t)).toBe(1);
    const created = results.filter((r) => r.statusCode === 201).map((r) => r.json().id);
    expect(new Set(created).size).toBe(1);
  });

  it("claims nothing for a refused or invalid request, and frees the key after 24 hours", async () => {
    const a = await tenantWithKey();
    const invalid = await create(a, { title: "" }, "k-3");
    expect(invalid.statusCode).toBe(400);
    expect((await create(a, { title: "Valid" }, "k-3")).statusCode).toBe(201);
    await h.database.db
      .update(idempotencyKeys)
      .set({ createdAt: new Date(Date.now() - 25 * 3_600_000).toISOString() })
      .where(and(eq(idempotencyKeys.tenantId, a.t.id), eq(idempotencyKeys.key, "k-3")));
    expect((await create(a, { title: "Other" }, "k-3")).statusCode).toBe(201);
    expect(await courseCount(a.t)).toBe(2);
    const tooLong = await create(a, { title: "x" }, "k".repeat(256));
    expect(tooLong.statusCode).toBe(400);
  });

  it("runs the request again when its kept response was sealed under a key since retired, instead of a 500", async () => {
    const a = await tenantWithKey();
    const first = await create(a, { title: "Sealed" }, "k-retired");
    expect(first.statusCode).toBe(201);
    const row = and(eq(idempotencyKeys.tenantId, a.t.id), eq(idempotencyKeys.key, "k-retired"));
    // The body as a keyring holding only a retired key (id "old") sealed it.
    const retired = createKeyring({ id: "old", key: randomBytes(32) });
    await h.database.db
      .update(idempotencyKeys)
      .set({ responseBody: sealSecret(first.body, retired) })
      .where(row);
    const again = await create(a, { title: "Sealed" }, "k-retired");
    expect(again.statusCode, again.body).toBe(201);
    expect(again.headers["idempotent-replayed"]).toBeUndefined();
    expect(again.json().id).not.toBe(first.json().id);
    // Kept anew, under the current key: the next copy replays the second response.
    const third = await create(a, { title: "Sealed" }, "k-retired");
    expect(third.headers["idempotent-replayed"]).toBe("true");
    expect(third.json().id).toBe(again.json().id);
    expect(await courseCount(a.t)).toBe(2);
  });

  it("purges keys older than 24 hours", async () => {
    const a = await tenantWithKey();
    await create(a, { title: "Old" }, "k-old");
    await create(a, { title: "New" }, "k-new");
    await h.database.db
      .update(idempotencyKeys)
      .set({ createdAt: new Date(Date.now() - 25 * 3_600_000).toISOString() })
      .where(and(eq(idempotencyKeys.tenantId, a.t.id), eq(idempotencyKeys.key, "k-old")));
    expect(await purgeIdempotencyKeys(h.database.db)).toBeGreaterThanOrEqual(1);
    const left = await h.database.db
      .select()
      .from(idempotencyKeys)
      .where(eq(idempotencyKeys.tenantId, a.t.id));
    expect(left.map((k) => k.key)).toEqual(["k-new"]);
  });
});

/** A POST on tenant `t` as `credential` (a session cookie or an API key's headers), under `Idempotency-Key: k`. */
function post(t: TestTenant, credential: Record<string, string>, url: string, k: string, payload?: object) {
  return h.inject({
    method: "POST",
    url,
    headers: {
      host: t.host,
      ...credential,
      ...(payload === undefined ? {} : json),
      "accept-language": "en-US",
      "idempotency-key": k,
    },
    ...(payload === undefined ? {} : { payload }),
  });
}

const PUBLIC_URL = "https://93.184.215.14/aula";

describe("Idempotency-Key per principal", () => {
  it("never replays one principal's response to another: a key reusing an admin's key runs its own request", async () => {
    const t = await makeTenant(h);
    const admin = { cookie: await adminCookie(h, t) };
    const key = bearer(await makeKey(h, t, ["automations:write", "invites:write"]));
    const inbound = {
      name: "Inbound",
      trigger: { event: "webhook" },
      action: { type: "send_webhook", url: PUBLIC_URL },
    };

    const first = await post(t, admin, "/api/institution/automations", "shared", inbound);
    expect(first.statusCode, first.body).toBe(201);
    const copy = await post(t, key, "/api/institution/automations", "shared", inbound);
    expect(copy.statusCode, copy.body).toBe(201);
    expect(copy.headers["idempotent-replayed"]).toBeUndefined();
    expect(copy.json().id).not.toBe(first.json().id);
    expect(copy.json().signingSecret).not.toBe(first.json().signingSecret);
    expect(copy.json().inboundUrl).not.toBe(first.json().inboundUrl);
    // The key's own claim replays to the key, and the admin's to the admin.
    const keyAgain = await post(t, key, "/api/institution/automations", "shared", inbound);
    expect(keyAgain.headers["idempotent-replayed"]).toBe("true");
    expect(keyAgain.body).toBe(copy.body);
    const adminAgain = await post(t, admin, "/api/institution/automations", "shared", inbound);
    expect(adminAgain.headers["idempotent-replayed"]).toBe("true");
    expect(adminAgain.body).toBe(first.body);

    // Another request under someone else's key is not a 409 that tells of the other's use: it simply runs.
    const invite = await post(t, admin, "/api/institution/invites", "inv", { email: "one@example.com" });
    expect(invite.statusCode, invite.body).toBe(201);
    const other = await post(t, key, "/api/institution/invites", "inv", { email: "two@example.com" });
    expect(other.statusCode, other.body).toBe(201);
    expect(other.json().token).not.toBe(invite.json().token);
  });
});

describe("responses kept for replay", () => {
  it("hold no secret in plain text: a dump of every table after issuing each kind of secret finds none", async () => {
    const t = await makeTenant(h);
    const admin = { cookie: await adminCookie(h, t) };
    const secrets: string[] = [];
    let n = 0;
    const run = async (url: string, payload?: object) => {
      const res = await post(t, admin, url, `dump-${n++}`, payload);
      expect(res.statusCode, `${url}: ${res.body}`).toBeLessThan(300);
      return res.json();
    };
    const tokenOf = (url: string) => /([0-9a-f]{64})$/.exec(url)?.[1] as string;

    // An endpoint for invitation events first, so their deliveries (the outbox) are written too.
    const endpoint = await run("/api/institution/webhooks", {
      url: PUBLIC_URL,
      eventTypes: ["invite_sent", "user_created"],
    });
    secrets.push(
      endpoint.signingSecret,
      (await run(`/api/institution/webhooks/${endpoint.id}/rotate-secret`)).signingSecret,
    );
    const apiKey = await run("/api/institution/api-keys", { name: "ERP", scopes: [], rateTier: "standard" });
    secrets.push(apiKey.secret);
    const automation = await run("/api/institution/automations", {
      name: "Inbound",
      trigger: { event: "webhook" },
      action: { type: "send_webhook", url: PUBLIC_URL },
    });
    secrets.push(automation.signingSecret, tokenOf(automation.inboundUrl));
    const rotatedToken = await run(`/api/institution/automations/${automation.id}/rotate-token`);
    const rotatedSecret = await run(`/api/institution/automations/${automation.id}/rotate-secret`);
    secrets.push(tokenOf(rotatedToken.inboundUrl), rotatedSecret.signingSecret);
    const invite = await run("/api/institution/invites", { email: "dump@example.com" });
    const resent = await run(`/api/institution/invites/${invite.id}/resend`);
    secrets.push(invite.token, resent.token);

    expect(secrets).toHaveLength(9);
    for (const secret of secrets) expect(secret).toMatch(/^(mia_[0-9a-f]{40}|whsec_\S{32}|[0-9a-f]{64})$/);
    const kept = await h.database.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.tenantId, t.id));
    expect(kept.filter((k) => k.statusCode !== null)).toHaveLength(n);
    for (const secret of secrets) {
      expect(await tablesContaining(h, secret), secret).toEqual([]);
      expect(await tablesContaining(h, secret.replace(/^(mia_|whsec_)/, "")), secret).toEqual([]);
    }

    // Sealed, the responses still replay exactly.
    const replay = await post(t, admin, "/api/institution/api-keys", "dump-2", {
      name: "ERP",
      scopes: [],
      rateTier: "standard",
    });
    expect(replay.headers["idempotent-replayed"]).toBe("true");
    expect(replay.json().secret).toBe(apiKey.secret);
  });
});
