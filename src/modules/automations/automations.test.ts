/**
 * Automations through the real app: CRUD and its validation (URLs, conditions, templates), secrets shown once
 * and stored sealed or hashed, and the outbox: an event writes its deliveries in its own transaction.
 */
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { platformEvents, webhookDeliveries } from "../../db/schema/index.js";
import { createDnsStub } from "../../platform/outbound/resolver.js";
import { callApi, type TenantAdmin, tenantAdmin, useApi } from "../../test-support/api.js";
import { bearer, json, makeKey, type TestTenant, tablesContaining } from "../../test-support/harness.js";
import { REDELIVERIES_PER_HOUR } from "./delivery-routes.js";

const { h } = useApi();
const dns = createDnsStub({
  "hooks.example.com": ["93.184.215.14"],
  "internal.example.com": ["10.0.0.7"],
  "mixed.example.com": ["93.184.215.14", "127.0.0.1"],
});

beforeAll(() => {
  h.ctx.resolve = dns.resolve;
});

const PUBLIC_URL = "https://hooks.example.com/aula";

function action(extra: Record<string, unknown> = {}) {
  return { type: "send_webhook", url: PUBLIC_URL, ...extra };
}

const admin = (t?: TestTenant) => tenantAdmin(h, t);
const create = (a: TenantAdmin, body: Record<string, unknown>) =>
  callApi(h, a.t, a.cookie, "POST", "/automations", body);

async function deliveriesOf(t: TestTenant, automationId: string) {
  return h.database.db
    .select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.tenantId, t.id), eq(webhookDeliveries.automationId, automationId)));
}

describe("creating an automation", () => {
  it("answers 201 with a whsec_ signing secret shown again only to an admin session, and stored sealed", async () => {
    const a = await admin();
    const res = await create(a, { name: "To the CRM", trigger: { event: "user_created" }, action: action() });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.headers["cache-control"]).toBe("no-store");
    const body = res.json();
    expect(body).toMatchObject({
      name: "To the CRM",
      enabled: true,
      trigger: { event: "user_created" },
      condition: null,
      action: { type: "send_webhook", url: PUBLIC_URL },
      disabledReason: null,
    });
    expect(body.signingSecret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(body.inboundUrl).toBeUndefined();
    expect(await tablesContaining(h, body.signingSecret)).toEqual([]);
    expect(await tablesContaining(h, body.signingSecret.slice(6))).toEqual([]);

    const read = await h.inject({
      method: "GET",
      url: `/api/institution/automations/${body.id}/signing-secret`,
      headers: { host: a.t.host, cookie: a.cookie },
    });
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual({ signingSecret: body.signingSecret });

    const rotated = await h.inject({
      method: "POST",
      url: `/api/institution/automations/${body.id}/rotate-secret`,
      headers: { host: a.t.host, cookie: a.cookie },
    });
    expect(rotated.statusCode).toBe(200);
    expect(rotated.json().signingSecret).not.toBe(body.signingSecret);
    const again = await h.inject({
      method: "GET",
      url: `/api/institution/automations/${body.id}/signing-secret`,
      headers: { host: a.t.host, cookie: a.cookie },
    });
    expect(again.json().signingSecret).toBe(rotated.json().signingSecret);
  });

  it("gives a webhook trigger a 64-character inbound URL on the tenant's host, stored only as a hash", async () => {
    const a = await admin();
    const res = await create(a, { name: "Inbound", trigger: { event: "webhook" }, action: action() });
    expect(res.statusCode).toBe(201);
    const url: string = res.json().inboundUrl;
    const match = new RegExp(`^http://${a.t.host}/api/automations/webhook/([0-9a-f]{64})$`).exec(url);
    expect(match).not.toBeNull();
    const token = match?.[1] as string;
    expect(await tablesContaining(h, token)).toEqual([]);
    const rotated = await h.inject({
      method: "POST",
      url: `/api/institution/automations/${res.json().id}/rotate-token`,
      headers: { host: a.t.host, cookie: a.cookie },
    });
    expect(rotated.statusCode).toBe(200);
    expect(rotated.json().inboundUrl).toMatch(/\/api\/automations\/webhook\/[0-9a-f]{64}$/);
    expect(rotated.json().inboundUrl).not.toBe(url);
    const other = await create(a, { name: "Outbound", trigger: { event: "user_created" }, action: action() });
    const refused = await h.inject({
      method: "POST",
      url: `/api/institution/automations/${other.json().id}/rotate-token`,
      headers: { host: a.t.host, cookie: a.cookie },
    });
    expect(refused.statusCode).toBe(409);
  });

  it("refuses target URLs that are not public http(s) in any notation, with one detail on action.url", async () => {
    const a = await admin();
    const refused = [
      "ftp://hooks.example.com/x",
      "http://127.0.0.1/x",
      "http://2130706433/x",
      "http://0x7f.1/x",
      "http://[::ffff:127.0.0.1]/x",
      "http://169.254.169.254/latest/meta-data",
      "http://[fd00:ec2::254]/",
      "http://10.1.2.3/x",
      "http://localhost:3000/x",
      "http://metadata.google.internal/x",
      "http://internal.example.com/x",
      "http://mixed.example.com/x",
      "http://user:pass@hooks.example.com/x",
      "https://{{user.email}}.example.com/x",
      "https://hooks.example.com/{{user.id}}",
    ];
    for (const url of refused) {
      const res = await create(a, {
        name: "Bad",
        trigger: { event: "user_created" },
        action: action({ url }),
      });
      expect(res.statusCode, url).toBe(400);
      expect(res.json().error).toBe("validation_failed");
      expect(res.json().details, url).toEqual([
        {
          field: "action.url",
          message:
            "Must be an http(s) URL of a public host, without templates or credentials. An address on your own " +
            "machine or network (a receiver during development) is reached only once the server's operator " +
            "lists its range in OUTBOUND_ALLOW_CIDRS, for example 127.0.0.1/32.",
        },
      ]);
      expect(res.body).not.toMatch(/10\.0\.0\.7|loopback|private/);
    }
    // A name that does not resolve yet is accepted: it is checked again at every delivery.
    const later = await create(a, {
      name: "Later",
      trigger: { event: "user_created" },
      action: action({ url: "https://not-yet.example.org/hook" }),
    });
    expect(later.statusCode).toBe(201);
  });

  it("refuses malformed conditions and templates with a detail per problem", async () => {
    const a = await admin();
    const res = await create(a, {
      name: "Bad",
      trigger: { event: "user_created" },
      condition: {
        all: [
          { field: "user.__proto__.x", op: "eq", value: 1 },
          { field: "secrets.key", op: "exists" },
        ],
      },
      action: action({ body: '{"name": {{user.name}', headers: { "X-Bad": "{{nope.x}}" } }),
    });
    expect(res.statusCode).toBe(400);
    const fields = res.json().details.map((d: { field: string }) => d.field);
    expect(fields).toEqual(
      expect.arrayContaining([
        "condition.all[0].field",
        "condition.all[1].field",
        "action.body",
        "action.headers.X-Bad",
      ]),
    );
    const unknownOp = await create(a, {
      name: "Bad",
      trigger: { event: "user_created" },
      condition: { any: [{ field: "user.role", op: "like", value: "s" }] },
      action: action(),
    });
    expect(unknownOp.statusCode).toBe(400);
    const unknownTrigger = await create(a, {
      name: "Bad",
      trigger: { event: "lesson_finished" },
      action: action(),
    });
    expect(unknownTrigger.statusCode).toBe(400);
  });
});

describe("action.headers: what an automation may not set", () => {
  const RESERVED = {
    Host: "evil.example",
    "transfer-encoding": "chunked",
    "Content-Length": "5",
    CONNECTION: "close",
    "Keep-Alive": "timeout=5",
    Upgrade: "h2c",
    TE: "trailers",
    Trailer: "X-Sum",
    Expect: "100-continue",
    "Proxy-Authorization": "Basic eA==",
    "proxy-connection": "keep-alive",
    "Webhook-Signature": "v1,forged",
    "webhook-id": "msg_forged",
    "WEBHOOK-TIMESTAMP": "1",
  };

  it("refuses, case-insensitively, every framing, hop-by-hop, proxy-* and webhook-* header, at create and update", async () => {
    const a = await admin();
    const res = await create(a, {
      name: "Smuggler",
      trigger: { event: "user_created" },
      action: action({ headers: { ...RESERVED, "X-Fine": "ok" } }),
    });
    expect(res.statusCode, res.body).toBe(400);
    const body = res.json();
    expect(body.error).toBe("validation_failed");
    expect(body.details).toEqual(
      Object.keys(RESERVED).map((name) => ({
        field: `action.headers.${name}`,
        message: "This header is set by the platform or by HTTP itself and cannot be configured.",
      })),
    );
    const list = await h.inject({
      method: "GET",
      url: "/api/institution/automations",
      headers: { host: a.t.host, cookie: a.cookie },
    });
    expect(list.json().pagination.total).toBe(0);

    const ok = await create(a, {
      name: "Fine",
      trigger: { event: "user_created" },
      // Accepted, and replaced by the platform's own at send.
      action: action({
        headers: { "X-Fine": "ok", "Content-Type": "application/json", "User-Agent": "ERP" },
      }),
    });
    expect(ok.statusCode, ok.body).toBe(201);
    const id = ok.json().id;
    for (const [name, value] of Object.entries(RESERVED)) {
      const patched = await h.inject({
        method: "PATCH",
        url: `/api/institution/automations/${id}`,
        headers: { host: a.t.host, cookie: a.cookie, ...json, "accept-language": "en-US" },
        payload: { action: action({ headers: { [name]: value } }) },
      });
      expect(patched.statusCode, `${name}: ${patched.body}`).toBe(400);
      expect(patched.json().details).toEqual([
        { field: `action.headers.${name}`, message: expect.any(String) },
      ]);
    }
    const stored = await h.inject({
      method: "GET",
      url: `/api/institution/automations/${id}`,
      headers: { host: a.t.host, cookie: a.cookie },
    });
    expect(stored.json().action.headers).toEqual({
      "X-Fine": "ok",
      "Content-Type": "application/json",
      "User-Agent": "ERP",
    });
  });

  it("refuses header values with CR or LF and names that are not tokens", async () => {
    const a = await admin();
    const value = await create(a, {
      name: "Split",
      trigger: { event: "user_created" },
      action: action({ headers: { "X-Split": "a\r\nHost: evil.example" } }),
    });
    expect(value.statusCode, value.body).toBe(400);
    expect(value.json().details.map((d: { field: string }) => d.field)).toEqual(["action.headers.X-Split"]);
    for (const name of ["X Bad", "X-Bad:", "X-Bad\r\nHost", ""]) {
      const res = await create(a, {
        name: "Bad name",
        trigger: { event: "user_created" },
        action: action({ headers: { [name]: "1" } }),
      });
      expect(res.statusCode, `${JSON.stringify(name)}: ${res.body}`).toBe(400);
      expect(res.json().error).toBe("validation_failed");
    }
  });
});

describe("the automation resource", () => {
  it("lists newest first with exact totals, updates, and deletes", async () => {
    const a = await admin();
    const ids: string[] = [];
    for (const name of ["one", "two", "three"]) {
      ids.push((await create(a, { name, trigger: { event: "user_created" }, action: action() })).json().id);
    }
    const key = await makeKey(h, a.t, ["automations:read"]);
    const list = await h.inject({
      method: "GET",
      url: "/api/institution/automations?perPage=2",
      headers: { host: a.t.host, ...bearer(key) },
    });
    expect(list.statusCode).toBe(200);
    expect(list.json().pagination).toEqual({ page: 1, perPage: 2, total: 3, totalPages: 2 });
    expect(list.json().data.map((x: { name: string }) => x.name)).toEqual(["three", "two"]);
    expect(list.body).not.toContain("signingSecret");

    const patched = await h.inject({
      method: "PATCH",
      url: `/api/institution/automations/${ids[0]}`,
      headers: { host: a.t.host, cookie: a.cookie, ...json },
      payload: {
        enabled: false,
        trigger: { event: "webhook" },
        condition: { any: [{ field: "event.x", op: "exists" }] },
      },
    });
    expect(patched.statusCode).toBe(200);
    expect(patched.json()).toMatchObject({ enabled: false, trigger: { event: "webhook" } });
    expect(patched.json().inboundUrl).toMatch(/[0-9a-f]{64}$/);

    const removed = await h.inject({
      method: "DELETE",
      url: `/api/institution/automations/${ids[1]}`,
      headers: { host: a.t.host, cookie: a.cookie },
    });
    expect(removed.statusCode).toBe(204);
    const gone = await h.inject({
      method: "GET",
      url: `/api/institution/automations/${ids[1]}`,
      headers: { host: a.t.host, cookie: a.cookie },
    });
    expect(gone.statusCode).toBe(404);
  });
});

describe("events and the outbox", () => {
  it("writes a rendered delivery in the event's transaction when trigger and condition match", async () => {
    const a = await admin();
    const res = await create(a, {
      name: "Students only",
      trigger: { event: "user_created" },
      condition: { all: [{ field: "user.role", op: "eq", value: "student" }] },
      action: action({
        headers: { "X-Student": "{{user.email}}" },
        body: '{"student": "{{user.name}}", "role": {{event.role}}, "missing": {{event.nothing}}}',
      }),
    });
    expect(res.statusCode, res.body).toBe(201);
    const automationId = res.json().id;
    const name = 'Ana "Quote" \\ O\'Brien\nline';
    const student = await h.inject({
      method: "POST",
      url: "/api/institution/users",
      headers: { host: a.t.host, cookie: a.cookie, ...json },
      payload: { name, email: `ana-${Date.now()}@x.test`, role: "student" },
    });
    expect(student.statusCode, student.body).toBe(201);
    await h.inject({
      method: "POST",
      url: "/api/institution/users",
      headers: { host: a.t.host, cookie: a.cookie, ...json },
      payload: { name: "Teacher", email: `t-${Date.now()}@x.test`, role: "teacher" },
    });
    const deliveries = await deliveriesOf(a.t, automationId);
    expect(deliveries).toHaveLength(1);
    const delivery = deliveries[0]!;
    expect(delivery.status).toBe("pending");
    expect(delivery.url).toBe(PUBLIC_URL);
    expect(JSON.parse(delivery.body)).toEqual({ student: name, role: "student", missing: null });
    expect(delivery.headers).toEqual({ "X-Student": student.json().email });

    const key = await makeKey(h, a.t, ["automations:read"]);
    const event = await h.inject({
      method: "GET",
      url: `/api/institution/events/${delivery.eventId}`,
      headers: { host: a.t.host, ...bearer(key) },
    });
    expect(event.statusCode).toBe(200);
    expect(event.json()).toMatchObject({
      id: delivery.eventId,
      type: "user_created",
      schemaVersion: 1,
      actor: { type: "user" },
      user: { id: student.json().id, name, role: "student" },
      data: { userId: student.json().id, role: "student", status: "active" },
    });
  });

  it("sends the default body {id, type, timestamp, data}, and nothing for disabled automations", async () => {
    const a = await admin();
    const on = (
      await create(a, { name: "Default", trigger: { event: "user_created" }, action: action() })
    ).json();
    const off = (
      await create(a, { name: "Off", enabled: false, trigger: { event: "user_created" }, action: action() })
    ).json();
    const user = await h.inject({
      method: "POST",
      url: "/api/institution/users",
      headers: { host: a.t.host, cookie: a.cookie, ...json },
      payload: { name: "Bo", email: `bo-${Date.now()}@x.test`, role: "teacher" },
    });
    const [delivery] = await deliveriesOf(a.t, on.id);
    const body = JSON.parse(delivery?.body ?? "{}");
    const { signIn: _onlyInTheCreateAnswer, ...asRead } = user.json();
    expect(body).toEqual({
      id: delivery?.eventId,
      type: "user_created",
      timestamp: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      // The user as GET /users/:id answers it.
      data: { userId: asRead.id, role: "teacher", status: "active", user: asRead },
    });
    const event = await h.inject({
      method: "GET",
      url: `/api/institution/events/${body.id}`,
      headers: { host: a.t.host, cookie: a.cookie },
    });
    expect(event.json()).toMatchObject({ id: body.id, type: "user_created", data: body.data });
    expect(await deliveriesOf(a.t, off.id)).toEqual([]);
  });

  it("writes no event and no delivery when the change itself fails", async () => {
    const a = await admin();
    const automation = (
      await create(a, { name: "x", trigger: { event: "user_created" }, action: action() })
    ).json();
    const before = await h.database.db
      .select()
      .from(platformEvents)
      .where(eq(platformEvents.tenantId, a.t.id));
    const duplicate = await h.inject({
      method: "POST",
      url: "/api/institution/users",
      headers: { host: a.t.host, cookie: a.cookie, ...json },
      payload: { name: "Dup", email: a.t.adminEmail, role: "teacher" },
    });
    expect(duplicate.statusCode).toBe(409);
    const after = await h.database.db
      .select()
      .from(platformEvents)
      .where(eq(platformEvents.tenantId, a.t.id));
    expect(after).toHaveLength(before.length);
    expect(await deliveriesOf(a.t, automation.id)).toEqual([]);
  });

  it("never shows another tenant's event, and forgets events after 30 days", async () => {
    const a = await admin();
    const b = await admin();
    await create(b, { name: "b", trigger: { event: "user_created" }, action: action() });
    const user = await h.inject({
      method: "POST",
      url: "/api/institution/users",
      headers: { host: b.t.host, cookie: b.cookie, ...json },
      payload: { name: "B user", email: `b-${Date.now()}@x.test`, role: "teacher" },
    });
    const events = await h.database.db
      .select()
      .from(platformEvents)
      .where(and(eq(platformEvents.tenantId, b.t.id), eq(platformEvents.type, "user_created")));
    // The tenant's first administrator was created with it, and that was an event too.
    const event = events.find((e) => (e.data as { userId: string }).userId === user.json().id);
    expect(event?.data).toMatchObject({ userId: user.json().id });
    const foreign = await h.inject({
      method: "GET",
      url: `/api/institution/events/${event?.id}`,
      headers: { host: a.t.host, cookie: a.cookie },
    });
    expect(foreign.statusCode).toBe(404);
    await h.database.db
      .update(platformEvents)
      .set({ occurredAt: new Date(Date.now() - 31 * 86_400_000).toISOString() })
      .where(and(eq(platformEvents.tenantId, b.t.id), eq(platformEvents.id, event?.id as string)));
    const old = await h.inject({
      method: "GET",
      url: `/api/institution/events/${event?.id}`,
      headers: { host: b.t.host, cookie: b.cookie },
    });
    expect(old.statusCode).toBe(404);
  });
});

describe("the delivery log", () => {
  it("lists an automation's deliveries, shows one with its attempts, and redelivers as a new delivery", async () => {
    const a = await admin();
    const automation = (
      await create(a, { name: "log", trigger: { event: "user_created" }, action: action() })
    ).json();
    for (const n of [1, 2]) {
      await h.inject({
        method: "POST",
        url: "/api/institution/users",
        headers: { host: a.t.host, cookie: a.cookie, ...json },
        payload: { name: `U${n}`, email: `u${n}-${Date.now()}@x.test`, role: "teacher" },
      });
    }
    const base = `/api/institution/automations/${automation.id}/deliveries`;
    const list = await h.inject({ method: "GET", url: base, headers: { host: a.t.host, cookie: a.cookie } });
    expect(list.statusCode).toBe(200);
    expect(list.json().pagination).toEqual({ page: 1, perPage: 20, total: 2, totalPages: 1 });
    const [newest] = list.json().data;
    expect(newest).toMatchObject({
      automationId: automation.id,
      eventType: "user_created",
      status: "pending",
      attempts: 0,
      lastStatusCode: null,
      completedAt: null,
    });
    expect(newest.nextAttemptAt).toMatch(/Z$/);
    expect(newest).not.toHaveProperty("body");

    const one = await h.inject({
      method: "GET",
      url: `${base}/${newest.id}`,
      headers: { host: a.t.host, cookie: a.cookie },
    });
    expect(one.json()).toMatchObject({ id: newest.id, attemptLog: [] });

    const again = await h.inject({
      method: "POST",
      url: `${base}/${newest.id}/redeliver`,
      headers: { host: a.t.host, cookie: a.cookie },
    });
    expect(again.statusCode).toBe(202);
    expect(again.json().id).not.toBe(newest.id);
    expect(again.json()).toMatchObject({ eventId: newest.eventId, status: "pending", attempts: 0 });
    const rows = await deliveriesOf(a.t, automation.id);
    const copy = rows.find((r) => r.id === again.json().id);
    const original = rows.find((r) => r.id === newest.id);
    expect(copy?.body).toBe(original?.body);
    expect(rows).toHaveLength(3);

    const other = (
      await create(a, { name: "other", trigger: { event: "user_created" }, action: action() })
    ).json();
    const wrongParent = await h.inject({
      method: "GET",
      url: `/api/institution/automations/${other.id}/deliveries/${newest.id}`,
      headers: { host: a.t.host, cookie: a.cookie },
    });
    expect(wrongParent.statusCode).toBe(404);
  });

  it("limits manual redeliveries per institution per hour", async () => {
    const a = await admin();
    const automation = (
      await create(a, { name: "q", trigger: { event: "user_created" }, action: action() })
    ).json();
    await h.inject({
      method: "POST",
      url: "/api/institution/users",
      headers: { host: a.t.host, cookie: a.cookie, ...json },
      payload: { name: "Q", email: `q-${Date.now()}@x.test`, role: "teacher" },
    });
    const [delivery] = await deliveriesOf(a.t, automation.id);
    const url = `/api/institution/automations/${automation.id}/deliveries/${delivery?.id}/redeliver`;
    let last = 0;
    let accepted = 0;
    for (let i = 0; i <= REDELIVERIES_PER_HOUR; i++) {
      const res = await h.inject({ method: "POST", url, headers: { host: a.t.host, cookie: a.cookie } });
      last = res.statusCode;
      if (res.statusCode === 202) accepted++;
      else break;
    }
    expect(accepted).toBe(REDELIVERIES_PER_HOUR);
    expect(last).toBe(429);
    expect(await deliveriesOf(a.t, automation.id)).toHaveLength(REDELIVERIES_PER_HOUR + 1);
  });
});
