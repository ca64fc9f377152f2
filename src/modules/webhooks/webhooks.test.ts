import { randomUUID } from "node:crypto";
/**
 * Webhook endpoints: subscriptions of a URL to event types that share the automations' secrets, outbox and log.
 */
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { webhookDeliveries } from "../../db/schema/index.js";
import {
  callApi,
  type Method,
  type TenantAdmin,
  tenantAdmin,
  useApi,
  WHOLE_PATHS,
} from "../../test-support/api.js";
import { bearer, makeKey, type TestTenant, tablesContaining } from "../../test-support/harness.js";
import { EVENT_SAMPLES, EVENT_TYPES } from "../events/catalogue.js";
import { emitEvent } from "../events/emit.js";

const { h } = useApi();

const URL_OK = "https://93.184.215.14/endpoint";

const admin = () => tenantAdmin(h);
const call = (a: TenantAdmin, method: string, url: string, payload?: unknown) =>
  callApi(h, a.t, a.cookie, method as Method, url, payload, WHOLE_PATHS);

async function deliveriesOf(t: TestTenant, id: string) {
  return h.database.db
    .select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.tenantId, t.id), eq(webhookDeliveries.automationId, id)));
}

describe("webhook endpoints", () => {
  it("subscribe a URL to event types, with their own sealed signing secret", async () => {
    const a = await admin();
    const res = await call(a, "POST", "/api/institution/webhooks", {
      url: URL_OK,
      eventTypes: ["user_created", "quiz_submitted"],
      description: "Our CRM",
    });
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({
      url: URL_OK,
      eventTypes: ["user_created", "quiz_submitted"],
      description: "Our CRM",
      enabled: true,
      disabledReason: null,
    });
    expect(body.signingSecret).toMatch(/^whsec_/);
    expect(await tablesContaining(h, body.signingSecret)).toEqual([]);
    const secret = await call(a, "GET", `/api/institution/webhooks/${body.id}/signing-secret`);
    expect(secret.json()).toEqual({ signingSecret: body.signingSecret });
    const rotated = await call(a, "POST", `/api/institution/webhooks/${body.id}/rotate-secret`);
    expect(rotated.json().signingSecret).not.toBe(body.signingSecret);
  });

  it("refuse non-public URLs and unknown event types", async () => {
    const a = await admin();
    const privateUrl = await call(a, "POST", "/api/institution/webhooks", {
      url: "http://[::ffff:10.0.0.1]/x",
      eventTypes: ["user_created"],
    });
    expect(privateUrl.statusCode).toBe(400);
    expect(privateUrl.json().details).toEqual([{ field: "url", message: expect.any(String) }]);
    for (const eventTypes of [[], ["nope"], ["user_created", "user_created"]]) {
      const res = await call(a, "POST", "/api/institution/webhooks", { url: URL_OK, eventTypes });
      expect(res.statusCode, JSON.stringify(eventTypes)).toBe(400);
    }
  });

  it("receive the default payload for subscribed events only", async () => {
    const a = await admin();
    const endpoint = (
      await call(a, "POST", "/api/institution/webhooks", { url: URL_OK, eventTypes: ["quiz_submitted"] })
    ).json();
    const data = {
      ...EVENT_SAMPLES.quiz_submitted,
      courseId: null,
      quizId: "q1",
      attemptId: "a1",
      attemptNumber: 1,
      score: 8,
      maxScore: 10,
      percent: 80,
      passed: true,
      submittedAt: new Date().toISOString(),
      lessonId: randomUUID(),
      enrollmentId: null,
      gradingStatus: "graded" as const,
      timeSpentSeconds: null,
    };
    const emitted = await emitEvent(h.database.db, {
      tenantId: a.t.id,
      type: "quiz_submitted",
      data,
      actor: { type: "system" },
    });
    await call(a, "POST", "/api/institution/users", {
      name: "U",
      email: `u-${Date.now()}@x.test`,
      role: "teacher",
    });
    const rows = await deliveriesOf(a.t, endpoint.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.eventType).toBe("quiz_submitted");
    expect(JSON.parse(rows[0]?.body ?? "")).toEqual({
      id: emitted.id,
      type: "quiz_submitted",
      timestamp: expect.any(String),
      data,
    });
    const list = await call(a, "GET", `/api/institution/webhooks/${endpoint.id}/deliveries`);
    expect(list.json().pagination.total).toBe(1);
    const one = await call(a, "GET", `/api/institution/webhooks/${endpoint.id}/deliveries/${rows[0]?.id}`);
    expect(one.statusCode, one.body).toBe(200);
    expect(one.json()).toMatchObject({ id: rows[0]?.id, automationId: endpoint.id, attemptLog: [] });
    const again = await call(
      a,
      "POST",
      `/api/institution/webhooks/${endpoint.id}/deliveries/${rows[0]?.id}/redeliver`,
    );
    expect(again.statusCode, again.body).toBe(202);
    expect(again.json()).toMatchObject({ automationId: endpoint.id, eventId: rows[0]?.eventId });
    expect(await deliveriesOf(a.t, endpoint.id)).toHaveLength(2);
  });

  /** An endpoint and an automation of one institution, both on `user_created`. */
  async function endpointAndAutomation(a: Awaited<ReturnType<typeof admin>>) {
    const endpoint = (
      await call(a, "POST", "/api/institution/webhooks", { url: URL_OK, eventTypes: ["user_created"] })
    ).json();
    const automation = (
      await call(a, "POST", "/api/institution/automations", {
        name: "A",
        trigger: { event: "user_created" },
        action: { type: "send_webhook", url: URL_OK },
      })
    ).json();
    return { endpoint, automation };
  }

  it("are not automations, and automations are not endpoints", async () => {
    const a = await admin();
    const { endpoint, automation } = await endpointAndAutomation(a);
    expect((await call(a, "GET", `/api/institution/automations/${endpoint.id}`)).statusCode).toBe(404);
    expect((await call(a, "GET", `/api/institution/webhooks/${automation.id}`)).statusCode).toBe(404);
    const endpoints = await call(a, "GET", "/api/institution/webhooks");
    expect(endpoints.json().data.map((e: { id: string }) => e.id)).toEqual([endpoint.id]);
    expect(endpoints.json().pagination.total).toBe(1);
    const automationsList = await call(a, "GET", "/api/institution/automations");
    expect(automationsList.json().data.map((e: { id: string }) => e.id)).toEqual([automation.id]);
    expect(automationsList.json().pagination.total).toBe(1);
  });

  it("every route of either group that takes an id answers 404 for the other kind's, and changes nothing", async () => {
    const a = await admin();
    const { endpoint, automation } = await endpointAndAutomation(a);
    // One user_created: one delivery each.
    await call(a, "POST", "/api/institution/users", {
      name: "U",
      email: `u@${a.t.slug}.test`,
      role: "teacher",
    });
    const [endpointDelivery] = await deliveriesOf(a.t, endpoint.id);
    const [automationDelivery] = await deliveriesOf(a.t, automation.id);
    expect(endpointDelivery && automationDelivery).toBeTruthy();
    const others = {
      "/api/institution/automations/": { id: endpoint.id, deliveryId: endpointDelivery?.id },
      "/api/institution/webhooks/": { id: automation.id, deliveryId: automationDelivery?.id },
    };
    // Bodies valid enough to reach the handler: a 404 must come from the id, not from validation.
    const bodies: Record<string, unknown> = {
      "PATCH /api/institution/automations/:id": { name: "Renamed" },
      "PATCH /api/institution/webhooks/:id": { description: "Renamed" },
      "POST /api/institution/automations/:id/test": {},
      "POST /api/institution/webhooks/:id/test": {},
    };
    const routes = h.app.routeDeclarations.filter(
      (r) => r.url.includes("/:id") && Object.keys(others).some((base) => r.url.startsWith(base)),
    );
    // Get, update, delete, secret, rotate-secret, deliveries, a delivery, redeliver, test (both); rotate-token.
    expect(routes.length).toBeGreaterThanOrEqual(19);
    for (const route of routes) {
      const [base, ids] = Object.entries(others).find(([b]) => route.url.startsWith(b)) ?? [];
      const url = route.url.replace(":id", ids?.id ?? "").replace(":deliveryId", ids?.deliveryId ?? "");
      const key = `${route.method} ${route.url}`;
      const res = await call(a, route.method, url, bodies[key]);
      expect(res.statusCode, `${key} (${base}): ${res.body}`).toBe(404);
      expect(res.json().error).toBe("not_found");
    }
    expect((await call(a, "GET", `/api/institution/webhooks/${endpoint.id}`)).json()).toMatchObject({
      description: null,
    });
    expect((await call(a, "GET", `/api/institution/automations/${automation.id}`)).json()).toMatchObject({
      name: "A",
    });
    expect(await deliveriesOf(a.t, endpoint.id)).toHaveLength(1);
    expect(await deliveriesOf(a.t, automation.id)).toHaveLength(1);
    // Each under its own group.
    for (const [base, owner, delivery] of [
      ["automations", automation.id, automationDelivery?.id],
      ["webhooks", endpoint.id, endpointDelivery?.id],
    ]) {
      const res = await call(a, "GET", `/api/institution/${base}/${owner}/deliveries/${delivery}`);
      expect(res.statusCode, res.body).toBe(200);
    }
  });

  it("update, disable and delete", async () => {
    const a = await admin();
    const endpoint = (
      await call(a, "POST", "/api/institution/webhooks", { url: URL_OK, eventTypes: ["user_created"] })
    ).json();
    const patched = await call(a, "PATCH", `/api/institution/webhooks/${endpoint.id}`, {
      eventTypes: ["lesson_completed"],
      enabled: false,
      description: null,
    });
    expect(patched.statusCode).toBe(200);
    expect(patched.json()).toMatchObject({
      eventTypes: ["lesson_completed"],
      enabled: false,
      description: null,
    });
    const badUrl = await call(a, "PATCH", `/api/institution/webhooks/${endpoint.id}`, {
      url: "http://127.0.0.1/",
    });
    expect(badUrl.statusCode).toBe(400);
    expect((await call(a, "DELETE", `/api/institution/webhooks/${endpoint.id}`)).statusCode).toBe(204);
    expect((await call(a, "GET", `/api/institution/webhooks/${endpoint.id}`)).statusCode).toBe(404);
  });

  it("list the event catalogue", async () => {
    const a = await admin();
    const key = await makeKey(h, a.t, ["automations:read"]);
    const res = await h.inject({
      method: "GET",
      url: "/api/institution/webhooks/event-types",
      headers: { host: a.t.host, ...bearer(key) },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.map((e: { name: string }) => e.name)).toEqual(EVENT_TYPES);
    expect(res.json().data[0]).toEqual({
      name: expect.any(String),
      schemaVersion: 1,
      description: expect.any(String),
    });
  });
});
