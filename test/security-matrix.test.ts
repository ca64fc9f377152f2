/**
 * The shared security matrix (SECURITY.md API1, API2, API5), generated from the app's own route table: every
 * route that takes credentials is called with no credentials, a malformed key, a revoked key, another tenant's
 * key, a key without its scope, a key where only sessions are accepted, sessions of each role, and another
 * tenant's object id. A new route is covered the day it is registered; one without a fixture fails here.
 */
import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import {
  apiKeys,
  automations,
  billingSubscriptions,
  courses,
  platformEvents,
  users,
  webhookDeliveries,
} from "../src/db/schema/index.js";
import { createApiKey, revokeApiKey } from "../src/modules/api-keys/service.js";
import { createAutomation } from "../src/modules/automations/service.js";
import { createCourse } from "../src/modules/courses/service.js";
import { createEndpoint } from "../src/modules/webhooks/service.js";
import { ROLES, type Role, type RouteAccess } from "../src/platform/auth/types.js";
import { SCOPES } from "../src/platform/scopes/scopes.js";
import { useApi } from "../src/test-support/api.js";
import {
  adminCookie,
  bearer,
  type Harness,
  makeKey,
  makeTenant,
  makeUser,
  roleCookie,
  type TestTenant,
} from "../src/test-support/harness.js";
import { fixtures as ai } from "./matrix/ai.js";
import { fixtures as assessment } from "./matrix/assessment.js";
import { fixtures as assignmentGroup } from "./matrix/assignments.js";
import { fixtures as certificates } from "./matrix/certificates.js";
import { fixtures as courseContent } from "./matrix/course-content.js";
import { fixtures as drive } from "./matrix/drive.js";
import { fixtures as email } from "./matrix/email.js";
import { fixtures as enrollments } from "./matrix/enrollments.js";
import type { Fixture, Fixtures } from "./matrix/fixture.js";
import { fixtures as gamification } from "./matrix/gamification.js";
import { fixtures as gradebook } from "./matrix/gradebook.js";
import { fixtures as institution } from "./matrix/institution.js";
import { fixtures as learningPaths } from "./matrix/learning-paths.js";
import { fixtures as live } from "./matrix/live.js";
import { fixtures as lti } from "./matrix/lti.js";
import { fixtures as media } from "./matrix/media.js";
import { fixtures as people } from "./matrix/people.js";
import { fixtures as profileFields } from "./matrix/profile-fields.js";
import { fixtures as rag } from "./matrix/rag.js";
import { fixtures as reports } from "./matrix/reports.js";
import { fixtures as rubrics } from "./matrix/rubrics.js";
import { fixtures as settings } from "./matrix/settings.js";
import { fixtures as tags } from "./matrix/tags.js";
import { fixtures as themes } from "./matrix/themes.js";

type Authenticated = Extract<RouteAccess, { kind: "authenticated" }>;
type Declared = { method: string; url: string; access: Authenticated; openWhileInactive: boolean };

const course = async (h: Harness, t: TestTenant) =>
  (await createCourse(h.database.db, t.id, { title: "Fixture" })).id;
const user = async (h: Harness, t: TestTenant) => (await makeUser(h, t, "teacher")).id;
const apiKey = async (h: Harness, t: TestTenant) =>
  (await createApiKey(h.database.db, t.id, null, { name: "fixture", scopes: [], rateTier: "standard" })).id;

const automationOf = (event: "user_created" | "webhook") => async (h: Harness, t: TestTenant) =>
  (
    await createAutomation(
      { db: h.database.db, config: h.config, resolve: h.ctx.resolve },
      t.id,
      {
        name: "Fixture",
        trigger: { event },
        action: { type: "send_webhook", url: "https://93.184.215.14/hook" },
      },
      `http://${t.host}`,
    )
  ).id;
const automation = automationOf("user_created");
const endpoint = async (h: Harness, t: TestTenant) =>
  (
    await createEndpoint({ db: h.database.db, config: h.config, resolve: h.ctx.resolve }, t.id, {
      url: "https://93.184.215.14/endpoint",
      eventTypes: ["user_created"],
    })
  ).id;
const inboundAutomation = automationOf("webhook");
const platformEvent = async (h: Harness, t: TestTenant) => {
  const id = randomUUID();
  await h.database.db.insert(platformEvents).values({
    tenantId: t.id,
    id,
    type: "user_created",
    schemaVersion: 1,
    actor: { type: "system" },
    data: { userId: id, role: "student", status: "active" },
  });
  return id;
};

function rowOf(
  table: typeof courses | typeof users | typeof apiKeys | typeof automations | typeof platformEvents,
) {
  return async (h: Harness, t: TestTenant, id: string | Record<string, string>) =>
    (
      await h.database.db
        .select()
        .from(table)
        .where(and(eq(table.tenantId, t.id), eq(table.id, typeof id === "string" ? id : (id.id as string))))
    )[0];
}
const courseRow = rowOf(courses);
const userRow = rowOf(users);
const keyRow = rowOf(apiKeys);
const automationRow = rowOf(automations);
const eventRow = rowOf(platformEvents);
/** An automation (or endpoint) with one delivery (written through a real event), as its routes' path parameters. */
const deliveryOf = (owner: typeof automation) => async (h: Harness, t: TestTenant) => {
  const id = await owner(h, t);
  await makeUser(h, t, "teacher");
  const [row] = await h.database.db
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.tenantId, t.id), eq(webhookDeliveries.automationId, id)));
  return { id, deliveryId: row?.id as string };
};
const delivery = deliveryOf(automation);
const endpointDelivery = deliveryOf(endpoint);
const deliveryRow = async (h: Harness, t: TestTenant, params: string | Record<string, string>) => {
  const { deliveryId } = params as Record<string, string>;
  return h.database.db
    .select()
    .from(webhookDeliveries)
    .where(
      and(
        eq(webhookDeliveries.tenantId, t.id),
        eq(webhookDeliveries.automationId, (params as Record<string, string>).id as string),
      ),
    )
    .then((rows) => ({ rows, deliveryId }));
};

const CORE: Fixtures = {
  "GET /api/institution/courses": {},
  "POST /api/institution/courses": { body: { title: "Matrix" } },
  "GET /api/institution/courses/:id": { makeObject: course, snapshot: courseRow },
  "PATCH /api/institution/courses/:id": {
    body: { title: "Renamed" },
    makeObject: course,
    snapshot: courseRow,
  },
  "DELETE /api/institution/courses/:id": { makeObject: course, snapshot: courseRow },
  "GET /api/institution/users": {},
  "POST /api/institution/users": {
    body: { name: "Matrix", email: `${randomUUID()}@matrix.test`, role: "teacher" },
  },
  "GET /api/institution/users/:id": { makeObject: user, snapshot: userRow },
  "PATCH /api/institution/users/:id": { body: { name: "Renamed" }, makeObject: user, snapshot: userRow },
  "DELETE /api/institution/users/:id": { makeObject: user, snapshot: userRow },
  "GET /api/institution/api-keys": {},
  "POST /api/institution/api-keys": { body: { name: "m", scopes: [], rateTier: "standard" } },
  "DELETE /api/institution/api-keys/:id": { makeObject: apiKey, snapshot: keyRow },
  "POST /api/institution/billing/checkout": { body: { plan: "mini" } },
  "POST /api/institution/billing/portal": {},
  "GET /api/institution/billing/subscription": { single: true },
  "GET /api/institution/billing/events": {},
  "GET /api/institution/automations": {},
  "POST /api/institution/automations": {
    body: {
      name: "Matrix",
      trigger: { event: "user_created" },
      action: { type: "send_webhook", url: "https://93.184.215.14/hook" },
    },
  },
  "GET /api/institution/automations/:id": { makeObject: automation, snapshot: automationRow },
  "PATCH /api/institution/automations/:id": {
    body: { name: "Renamed" },
    makeObject: automation,
    snapshot: automationRow,
  },
  "DELETE /api/institution/automations/:id": { makeObject: automation, snapshot: automationRow },
  "GET /api/institution/automations/:id/signing-secret": { makeObject: automation, snapshot: automationRow },
  "POST /api/institution/automations/:id/rotate-secret": { makeObject: automation, snapshot: automationRow },
  "POST /api/institution/automations/:id/rotate-token": {
    makeObject: inboundAutomation,
    snapshot: automationRow,
  },
  "GET /api/institution/events": {},
  "GET /api/institution/events/:id": { makeObject: platformEvent, snapshot: eventRow },
  "GET /api/institution/automations/:id/deliveries": { makeObject: automation, snapshot: automationRow },
  "GET /api/institution/automations/:id/stats": { makeObject: automation, snapshot: automationRow },
  "POST /api/institution/automations/:id/test": { body: {}, makeObject: automation, snapshot: automationRow },
  "GET /api/institution/webhooks/event-types": { single: true },
  "GET /api/institution/webhooks": {},
  "GET /api/institution/webhooks/deliveries/stats": {},
  "POST /api/institution/webhooks": {
    body: { url: "https://93.184.215.14/endpoint", eventTypes: ["user_created", "quiz_submitted"] },
  },
  "GET /api/institution/webhooks/:id": { makeObject: endpoint, snapshot: automationRow },
  "PATCH /api/institution/webhooks/:id": {
    body: { description: "Renamed" },
    makeObject: endpoint,
    snapshot: automationRow,
  },
  "DELETE /api/institution/webhooks/:id": { makeObject: endpoint, snapshot: automationRow },
  "GET /api/institution/webhooks/:id/signing-secret": { makeObject: endpoint, snapshot: automationRow },
  "POST /api/institution/webhooks/:id/rotate-secret": { makeObject: endpoint, snapshot: automationRow },
  "GET /api/institution/webhooks/:id/deliveries": { makeObject: endpoint, snapshot: automationRow },
  "GET /api/institution/webhooks/:id/stats": { makeObject: endpoint, snapshot: automationRow },
  "POST /api/institution/webhooks/:id/test": { body: {}, makeObject: endpoint, snapshot: automationRow },
  "GET /api/institution/automations/:id/deliveries/:deliveryId": {
    makeObject: delivery,
    snapshot: deliveryRow,
  },
  "POST /api/institution/automations/:id/deliveries/:deliveryId/redeliver": {
    makeObject: delivery,
    snapshot: deliveryRow,
  },
  "GET /api/institution/webhooks/:id/deliveries/:deliveryId": {
    makeObject: endpointDelivery,
    snapshot: deliveryRow,
  },
  "POST /api/institution/webhooks/:id/deliveries/:deliveryId/redeliver": {
    makeObject: endpointDelivery,
    snapshot: deliveryRow,
  },
};

/** Every group's fixtures; a key defined twice is a mistake the first test reports. */
const GROUPS: Fixtures[] = [
  CORE,
  institution,
  tags,
  courseContent,
  enrollments,
  learningPaths,
  assessment,
  gradebook,
  rubrics,
  assignmentGroup,
  people,
  settings,
  profileFields,
  themes,
  email,
  media,
  drive,
  live,
  lti,
  certificates,
  reports,
  gamification,
  ai,
  rag,
];
const FIXTURES: Record<string, Fixture> = Object.assign({}, ...GROUPS);

// The matrix sends hundreds of bad credentials from one address; the per-IP flood guard has its own test. Every
// group's fixtures make students in the same two tenants, more than the free plan's ten seats; the student limit
// has its own tests (enrollments/student-limit.test.ts and the users tests).
const { h, tenants } = useApi({
  env: { BAD_CREDENTIALS_PER_IP_PER_MINUTE: "100000", PLAN_STUDENT_LIMITS: '{"free":1000}' },
  tenants: ["Alpha School", "Beta University"],
});
const [a, b] = tenants;
let fullKeyA: string;
let revokedKeyA: string;
let keyB: string;
let adminB: string;
const sessions = {} as Record<Role, string>;
let routes: Declared[];

beforeAll(async () => {
  // The matrix sends thousands of requests with these two keys: a tier that a run cannot exhaust.
  const unlimited = { rateTier: "custom", customLimits: { perHour: 1_000_000, perMinute: 100_000 } } as const;
  fullKeyA = await makeKey(h, a, [], unlimited);
  revokedKeyA = await makeKey(h, a, []);
  const revoked = await createApiKey(h.database.db, a.id, null, {
    name: "to revoke",
    scopes: [],
    rateTier: "standard",
  });
  await revokeApiKey(h.database.db, a.id, revoked.id);
  revokedKeyA = revoked.secret;
  keyB = await makeKey(h, b, [], unlimited);
  adminB = await adminCookie(h, b);
  for (const role of ROLES) sessions[role] = await roleCookie(h, a, role);
  routes = h.app.routeDeclarations
    .filter((r): r is Declared => r.access.kind === "authenticated")
    .sort((x, y) => `${x.url} ${x.method}`.localeCompare(`${y.url} ${y.method}`));
});

function fillParams(url: string, id: string | Record<string, string>): string {
  const params = typeof id === "string" ? { id } : id;
  return url.replace(/:(\w+)/g, (_, name: string) => params[name] ?? randomUUID());
}

function call(
  route: { method: string; url: string },
  headers: Record<string, string>,
  id: string | Record<string, string> = randomUUID(),
) {
  const fixture = FIXTURES[`${route.method} ${route.url.split("?")[0]}`];
  const withBody = fixture?.body !== undefined;
  return h.inject({
    method: route.method as "GET",
    url: fillParams(route.url, id),
    headers: { host: a.host, ...(withBody ? { "content-type": "application/json" } : {}), ...headers },
    ...(withBody ? { payload: fixture?.body } : {}),
  });
}

describe("the route table", () => {
  it("declares access for every /api route, a scope for every route that takes keys, and has a fixture for each", () => {
    expect(routes.length).toBeGreaterThan(0);
    const keys = GROUPS.flatMap((g) => Object.keys(g));
    expect(keys.filter((k, i) => keys.indexOf(k) !== i)).toEqual([]);
    for (const r of routes) {
      expect(FIXTURES[`${r.method} ${r.url}`], `no fixture for ${r.method} ${r.url}`).toBeDefined();
      if (r.access.auth.includes("key")) expect(r.access.scope, `${r.method} ${r.url}`).toBeDefined();
    }
    for (const r of h.app.routeDeclarations.filter((d) => d.url.startsWith("/api/"))) {
      expect(r.access, `${r.method} ${r.url}`).toBeDefined();
    }
  });

  it("uses only the contract's 35 scopes", () => {
    expect(SCOPES).toHaveLength(35);
    for (const r of routes) if (r.access.scope) expect(SCOPES).toContain(r.access.scope);
  });
});

describe("unusable credentials", () => {
  it("answer 401 unauthorized with WWW-Authenticate: Bearer and one identical body, on every route", async () => {
    for (const route of routes) {
      const bodies = new Set<string>();
      const variants: Record<string, string>[] = [
        {},
        { authorization: "Bearer mia_xyz" },
        { authorization: "Bearer" },
        { authorization: "Basic YWRtaW46YWRtaW4=" },
        { authorization: `Bearer mia_${"0".repeat(40)}` },
        bearer(revokedKeyA),
        bearer(keyB),
        { cookie: "sb-access-token=not.a.jwt" },
      ];
      for (const headers of variants) {
        const res = await call(route, { ...headers, "accept-language": "en-US" });
        expect(res.statusCode, `${route.method} ${route.url} ${JSON.stringify(headers)}`).toBe(401);
        expect(res.headers["www-authenticate"]).toBe("Bearer");
        bodies.add(res.body);
      }
      expect([...bodies], `${route.method} ${route.url}`).toEqual([
        JSON.stringify({ error: "unauthorized", message: "Authentication is missing or invalid." }),
      ]);
    }
  });

  it("are refused when sent as a query parameter or a cookie", async () => {
    for (const route of routes) {
      const query = await call({ method: route.method, url: `${route.url}?api_key=${fullKeyA}` }, {});
      expect(query.statusCode).toBe(401);
      const cookie = await call(route, { cookie: `api_key=${fullKeyA}` });
      expect(cookie.statusCode).toBe(401);
    }
  });
});

describe("scopes and route kinds", () => {
  it("answer 403 insufficient_scope naming the scope to a key without it, and let the scope through", async () => {
    for (const route of routes.filter((r) => r.access.auth.includes("key"))) {
      const scope = route.access.scope as string;
      const others = SCOPES.filter((s) => s !== scope);
      const without = await makeKey(h, a, others);
      const res = await call(route, bearer(without));
      expect(res.statusCode, `${route.method} ${route.url}`).toBe(403);
      expect(res.json().error).toBe("insufficient_scope");
      expect(res.json().details).toEqual([{ field: "scope", message: expect.stringContaining(scope) }]);
      const withIt = await makeKey(h, a, [scope]);
      const allowed = await call(route, bearer(withIt));
      expect([401, 403], `${route.method} ${route.url}`).not.toContain(allowed.statusCode);
    }
  });

  it("answer 403 session_required to a valid key on a session-only route", async () => {
    const sessionOnly = routes.filter((r) => !r.access.auth.includes("key"));
    expect(sessionOnly.length).toBeGreaterThan(0);
    for (const route of sessionOnly) {
      const res = await call(route, bearer(fullKeyA));
      expect(res.statusCode, `${route.method} ${route.url}`).toBe(403);
      expect(res.json().error).toBe("session_required");
    }
  });

  it("answer 403 forbidden to session roles the route does not admit, and admit the others", async () => {
    for (const route of routes.filter((r) => r.access.auth.includes("session"))) {
      for (const role of ROLES) {
        const res = await call(route, { cookie: sessions[role] });
        const admitted = route.access.roles === undefined || route.access.roles.includes(role);
        if (admitted) {
          expect([401, 403], `${route.method} ${route.url} as ${role}`).not.toContain(res.statusCode);
        } else {
          expect(res.statusCode, `${route.method} ${route.url} as ${role}`).toBe(403);
          expect(res.json().error).toBe("forbidden");
        }
      }
    }
  });
});

describe("another tenant's objects", () => {
  it("are 404 on every :id route, with the same body as an unknown id, and stay unchanged", async () => {
    for (const route of routes.filter((r) => r.url.includes(":"))) {
      const fixture = FIXTURES[`${route.method} ${route.url}`];
      if (fixture?.makeObject === undefined || fixture.snapshot === undefined) {
        throw new Error(`no object fixture for ${route.method} ${route.url}`);
      }
      const foreignId = await fixture.makeObject(h, b);
      const before = await fixture.snapshot(h, b, foreignId);
      expect(before).toBeDefined();
      const credentials = route.access.auth.includes("key")
        ? bearer(fullKeyA)
        : { cookie: sessions.institution_admin };
      const foreign = await call(route, credentials, foreignId);
      const unknown = await call(route, credentials, randomUUID());
      expect(foreign.statusCode, `${route.method} ${route.url}`).toBe(404);
      expect(foreign.body).toBe(unknown.body);
      expect(foreign.body).not.toContain(b.id);
      expect(foreign.body).not.toContain(b.slug);
      expect(foreign.body).not.toContain("Beta");
      expect(await fixture.snapshot(h, b, foreignId), `${route.method} ${route.url} changed B's row`).toEqual(
        before,
      );
    }
  });

  it("never appear in A's lists", async () => {
    const lists = routes.filter(
      (r) => r.method === "GET" && !r.url.includes(":") && !FIXTURES[`${r.method} ${r.url}`]?.single,
    );
    for (const route of lists) {
      const credentials = route.access.auth.includes("key")
        ? bearer(fullKeyA)
        : { cookie: sessions.institution_admin };
      const mine = await call(route, credentials);
      const theirs = await h.inject({
        method: "GET",
        url: route.url,
        headers: { host: b.host, ...(route.access.auth.includes("key") ? bearer(keyB) : { cookie: adminB }) },
      });
      expect(theirs.statusCode).toBe(200);
      expect(mine.statusCode).toBe(200);
      // Records are named by `id`, custom domains by `host`, delivery stats by the automation they are of.
      const idOf = (x: { id?: string; host?: string; automationId?: string }) =>
        x.id ?? x.host ?? x.automationId;
      const myIds = new Set(mine.json().data.map(idOf));
      for (const item of theirs.json().data)
        expect(myIds.has(idOf(item)), `${route.url} leaks ${idOf(item)}`).toBe(false);
    }
  });
});

describe("a tenant whose subscription is inactive", () => {
  it("gets 402 subscription_inactive everywhere under /api/institution except billing and listing keys", async () => {
    for (const status of ["suspended", "unpaid", "paused"]) {
      const c = await makeTenant(h, "Lapsed College");
      await h.database.db
        .insert(billingSubscriptions)
        .values({ tenantId: c.id, stripeCustomerId: `cus_${c.slug}`, status });
      // One request per route: more than a standard key's 100 a minute.
      const key = await makeKey(h, c, [], {
        rateTier: "custom",
        customLimits: { perHour: 1_000_000, perMinute: 100_000 },
      });
      const admin = await adminCookie(h, c);
      const exempt = routes.filter((r) => r.openWhileInactive).map((r) => `${r.method} ${r.url}`);
      expect(exempt.sort()).toEqual([
        "GET /api/institution/api-keys",
        "GET /api/institution/billing/events",
        "GET /api/institution/billing/subscription",
        "POST /api/institution/billing/checkout",
        "POST /api/institution/billing/portal",
      ]);
      for (const route of routes) {
        const credentials = route.access.auth.includes("key") ? bearer(key) : { cookie: admin };
        const fixture = FIXTURES[`${route.method} ${route.url}`];
        const id = fixture?.makeObject ? await fixture.makeObject(h, c) : randomUUID();
        const res = await h.inject({
          method: route.method as "GET",
          url: fillParams(route.url, id),
          headers: {
            host: c.host,
            ...credentials,
            ...(fixture?.body ? { "content-type": "application/json" } : {}),
          },
          ...(fixture?.body ? { payload: fixture.body } : {}),
        });
        const label = `${status}: ${route.method} ${route.url}`;
        if (route.openWhileInactive) {
          expect(res.statusCode, label).not.toBe(402);
        } else {
          expect(res.statusCode, label).toBe(402);
          expect(res.json().error, label).toBe("subscription_inactive");
        }
      }
      // Signing in (and out) stays possible: the tenant must reach billing to pay.
      const login = await h.inject({
        method: "POST",
        url: "/api/auth/login",
        headers: { host: c.host, "content-type": "application/json" },
        payload: { email: c.adminEmail, password: c.password },
      });
      expect(login.statusCode).toBe(200);
      // Credentials are checked first: the lapse is told only to the tenant's own users and keys.
      const anonymous = await h.inject({
        method: "GET",
        url: "/api/institution/courses",
        headers: { host: c.host },
      });
      expect(anonymous.statusCode).toBe(401);
    }
  });
});
