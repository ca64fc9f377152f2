import { randomInt } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import {
  billingSubscriptions,
  classGroupMembers,
  classGroups,
  courses,
  enrollments,
  invites,
  platformEvents,
  tenants,
  users,
} from "../../db/schema/index.js";
import { useApi } from "../../test-support/api.js";
import { makeCourse } from "../../test-support/catalogue.js";
import {
  adminCookie,
  bearer,
  json,
  makeKey,
  makeTenant,
  makeUser,
  sessionCookie,
  type TestTenant,
  tablesContaining,
} from "../../test-support/harness.js";

const { h, tenants: testTenants } = useApi({
  env: { PLAN_STUDENT_LIMITS: JSON.stringify({ free: 2 }), LOGIN_MAX_PER_IP: "5" },
  tenants: 2,
});
const [t, other] = testTenants;
let key: string;
let seq = 0;
const PASSWORD = "a long enough password";

beforeAll(async () => {
  key = await makeKey(h, t, ["invites:write"]);
});

/** Each call from its own address unless told, so the per-IP budget only bites in its own test. */
const someIp = () => `10.200.${randomInt(256)}.${randomInt(1, 255)}`;

function accept(tenant: TestTenant, body: Record<string, unknown>, ip = someIp()) {
  return h.inject({
    method: "POST",
    url: "/api/invites/accept",
    headers: { host: tenant.host, "accept-language": "en-US", ...json },
    payload: body,
    remoteAddress: ip,
  });
}

async function invite(tenant: TestTenant, payload: Record<string, unknown> = {}, secret = key) {
  const res = await h.inject({
    method: "POST",
    url: "/api/institution/invites",
    headers: { host: tenant.host, ...json, ...bearer(secret) },
    payload: { email: `invitee${++seq}@example.com`, name: "Convidada", role: "teacher", ...payload },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string; email: string; token: string };
}

async function inviteRow(id: string) {
  const [row] = await h.database.db.select().from(invites).where(eq(invites.id, id));
  return row;
}

async function usersWithEmail(tenant: TestTenant, email: string) {
  return h.database.db
    .select()
    .from(users)
    .where(and(eq(users.tenantId, tenant.id), sql`lower(${users.email}) = lower(${email})`));
}

describe("accepting an invitation", () => {
  it("activates the account a user created with sendInvite, rather than creating another", async () => {
    const writer = await makeKey(h, t, ["users:write", "invites:write", "invites:read"]);
    const email = `sent${++seq}@example.com`;
    const created = await h.inject({
      method: "POST",
      url: "/api/institution/users",
      headers: { host: t.host, ...json, ...bearer(writer) },
      payload: { name: "Convidado", email, role: "teacher", sendInvite: true },
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().status).toBe("invited");
    const listed = await h.inject({
      method: "GET",
      url: `/api/institution/invites?email=${email}`,
      headers: { host: t.host, ...bearer(writer) },
    });
    expect(listed.json().data).toMatchObject([{ email, role: "teacher", status: "pending" }]);
    const resent = await h.inject({
      method: "POST",
      url: `/api/institution/invites/${listed.json().data[0].id}/resend`,
      headers: { host: t.host, ...bearer(writer) },
    });
    expect(resent.statusCode, resent.body).toBe(200);
    const res = await accept(t, { token: resent.json().token, password: PASSWORD });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().user).toMatchObject({ id: created.json().id, status: "active", name: "Convidado" });
    expect(await usersWithEmail(t, email)).toHaveLength(1);
    expect(await sessionCookie(h, t, email, PASSWORD)).toContain("sb-access-token=");
    // An account in use is still not invitable.
    const again = await h.inject({
      method: "POST",
      url: "/api/institution/invites",
      headers: { host: t.host, ...json, ...bearer(writer) },
      payload: { email },
    });
    expect(again.statusCode).toBe(409);
  });

  it("enrolls the new user in the invitation's courses that still exist, with enrollment_created", async () => {
    const kept = await makeCourse(h.database.db, t.id);
    const deleted = await makeCourse(h.database.db, t.id);
    const sent = await invite(t, { courseIds: [kept.courseId, deleted.courseId] });
    await h.database.db.delete(courses).where(eq(courses.id, deleted.courseId));
    const res = await accept(t, { token: sent.token, password: PASSWORD });
    expect(res.statusCode, res.body).toBe(201);
    const userId = res.json().user.id as string;
    const rows = await h.database.db
      .select()
      .from(enrollments)
      .where(and(eq(enrollments.tenantId, t.id), eq(enrollments.userId, userId)));
    expect(rows.map((r) => [r.courseId, r.source, r.status])).toEqual([[kept.courseId, "invite", "active"]]);
    const events = await h.database.db
      .select()
      .from(platformEvents)
      .where(and(eq(platformEvents.tenantId, t.id), eq(platformEvents.type, "enrollment_created")));
    expect(
      events.filter((e) => (e.data as { enrollmentId: string }).enrollmentId === rows[0]?.id),
    ).toHaveLength(1);
  });

  it("creates the active user with the invitation's role and classes, a password that signs in, and the events", async () => {
    const group = (
      await h.database.db.insert(classGroups).values({ tenantId: t.id, name: "G" }).returning()
    )[0] as { id: string };
    const inv = await invite(t, { role: "teacher", classGroupIds: [group.id] });
    const res = await accept(t, { token: inv.token, password: PASSWORD });
    expect(res.statusCode, res.body).toBe(201);
    const { user } = res.json();
    expect(user).toMatchObject({
      name: "Convidada",
      email: inv.email,
      role: "teacher",
      status: "active",
      classGroupIds: [group.id],
    });
    const row = await inviteRow(inv.id);
    expect(row).toMatchObject({ status: "accepted", acceptedUserId: user.id });
    expect(row?.acceptedAt).toMatch(/Z$/);
    const [member] = await h.database.db
      .select()
      .from(classGroupMembers)
      .where(and(eq(classGroupMembers.tenantId, t.id), eq(classGroupMembers.userId, user.id)));
    expect(member?.role).toBe("teacher");
    // The password works, and is stored only as a hash.
    expect(await sessionCookie(h, t, inv.email, PASSWORD)).toContain("sb-access-token=");
    expect(await tablesContaining(h, PASSWORD)).toEqual([]);
    const events = await h.database.db
      .select()
      .from(platformEvents)
      .where(and(eq(platformEvents.tenantId, t.id), sql`${platformEvents.subject}->>'id' = ${user.id}`));
    expect(events.map((e) => e.type).sort()).toEqual([
      "class_member_added",
      "invite_accepted",
      "user_created",
    ]);
    const accepted = events.find((e) => e.type === "invite_accepted");
    expect(accepted?.data).toMatchObject({
      inviteId: inv.id,
      userId: user.id,
      email: inv.email,
      role: "teacher",
    });
    const details = await h.inject({
      method: "GET",
      url: `/api/institution/invites/${inv.id}`,
      headers: { host: t.host, ...bearer(await makeKey(h, t, ["invites:read"])) },
    });
    expect(details.json()).toMatchObject({ status: "accepted", acceptedUserId: user.id });
  });

  it("takes the name given, falls back to the invitation's, and asks for one when neither has it", async () => {
    const named = await invite(t);
    const res = await accept(t, { token: named.token, name: "Maria Clara", password: PASSWORD });
    expect(res.json().user.name).toBe("Maria Clara");
    const anonymous = await invite(t, { name: undefined });
    const missing = await accept(t, { token: anonymous.token, password: PASSWORD });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().details).toEqual([{ field: "name", message: "This field is required." }]);
    expect((await inviteRow(anonymous.id))?.status).toBe("pending");
  });

  it("validates the body", async () => {
    const short = await accept(t, { token: "x", password: "short" });
    expect(short.statusCode).toBe(400);
    expect(short.json().details.map((d: { field: string }) => d.field)).toEqual(["password"]);
    expect((await accept(t, { token: "x", password: PASSWORD, role: "institution_admin" })).statusCode).toBe(
      400,
    );
  });
});

describe("tokens that cannot be accepted", () => {
  it("answers 404 for an unknown token, and for another institution's token on this host", async () => {
    const unknown = await accept(t, { token: "f".repeat(64), password: PASSWORD });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error).toBe("not_found");
    const keyB = await makeKey(h, other, ["invites:write"]);
    const theirs = await invite(other, {}, keyB);
    const crossed = await accept(t, { token: theirs.token, password: PASSWORD });
    expect(crossed.statusCode).toBe(404);
    expect(crossed.body).toBe(unknown.body);
    expect((await inviteRow(theirs.id))?.status).toBe("pending");
    expect(await usersWithEmail(t, theirs.email)).toHaveLength(0);
    expect(await usersWithEmail(other, theirs.email)).toHaveLength(0);
  });

  it("answers 409 with a message of its own for expired, revoked and already accepted invitations", async () => {
    const expired = await invite(t);
    await h.database.db
      .update(invites)
      .set({ expiresAt: "2020-01-01T00:00:00.000Z" })
      .where(eq(invites.id, expired.id));
    const revoked = await invite(t);
    await h.inject({
      method: "DELETE",
      url: `/api/institution/invites/${revoked.id}`,
      headers: { host: t.host, ...bearer(key) },
    });
    const used = await invite(t);
    expect((await accept(t, { token: used.token, password: PASSWORD })).statusCode).toBe(201);
    const messages = new Set<string>();
    for (const [inv, message] of [
      [expired, "This invitation has expired. Ask for a new one."],
      [revoked, "This invitation has been revoked."],
      [used, "This invitation has already been accepted."],
    ] as const) {
      const res = await accept(t, { token: inv.token, password: PASSWORD });
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual({ error: "conflict", message });
      messages.add(res.json().message);
    }
    expect(messages.size).toBe(3);
    expect(await usersWithEmail(t, expired.email)).toHaveLength(0);
    expect(await usersWithEmail(t, revoked.email)).toHaveLength(0);
  });

  it("stops working after a resend: only the new token is accepted", async () => {
    const inv = await invite(t);
    const resent = await h.inject({
      method: "POST",
      url: `/api/institution/invites/${inv.id}/resend`,
      headers: { host: t.host, ...bearer(key) },
    });
    expect((await accept(t, { token: inv.token, password: PASSWORD })).statusCode).toBe(404);
    expect((await accept(t, { token: resent.json().token, password: PASSWORD })).statusCode).toBe(201);
  });

  it("answers 409 when the address got an account since the invitation was sent", async () => {
    const inv = await invite(t);
    const email = inv.email;
    await makeUser(h, t, "teacher").then((u) =>
      h.database.db
        .update(users)
        .set({ email })
        .where(and(eq(users.tenantId, t.id), eq(users.id, u.id))),
    );
    const res = await accept(t, { token: inv.token, password: PASSWORD });
    expect(res.statusCode).toBe(409);
    expect((await inviteRow(inv.id))?.status).toBe("pending");
  });
});

describe("concurrency and limits", () => {
  it("creates exactly one user when the same token is accepted twice at once", async () => {
    const inv = await invite(t, { role: "teacher" });
    const results = await Promise.all(
      [1, 2, 3].map(() => accept(t, { token: inv.token, password: PASSWORD })),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409, 409]);
    expect(await usersWithEmail(t, inv.email)).toHaveLength(1);
  });

  it("counts a student against the plan: 422 when full, nothing created, the invitation still pending", async () => {
    const s = await makeTenant(h);
    const k = await makeKey(h, s, ["invites:write"]);
    const student = { role: "student" };
    const invs = [await invite(s, student, k), await invite(s, student, k), await invite(s, student, k)];
    expect((await accept(s, { token: invs[0]?.token, password: PASSWORD })).statusCode).toBe(201);
    expect((await accept(s, { token: invs[1]?.token, password: PASSWORD })).statusCode).toBe(201);
    const full = await accept(s, { token: invs[2]?.token, password: PASSWORD });
    expect(full.statusCode).toBe(422);
    expect(full.json().error).toBe("student_limit_reached");
    expect(await usersWithEmail(s, invs[2]?.email as string)).toHaveLength(0);
    expect((await inviteRow(invs[2]?.id as string))?.status).toBe("pending");
    await h.database.db.update(tenants).set({ plan: "legacy_2019" }).where(eq(tenants.id, s.id));
    const unverifiable = await accept(s, { token: invs[2]?.token, password: PASSWORD });
    expect(unverifiable.statusCode).toBe(503);
    expect(unverifiable.json().error).toBe("student_limit_unverifiable");
  });

  it("limits failed attempts per IP, while successes cost nothing", async () => {
    const ip = someIp();
    const good = [await invite(t, { role: "teacher" }), await invite(t, { role: "teacher" })];
    expect((await accept(t, { token: good[0]?.token, password: PASSWORD }, ip)).statusCode).toBe(201);
    for (let i = 0; i < 5; i++) {
      expect((await accept(t, { token: `${i}`.repeat(64), password: PASSWORD }, ip)).statusCode).toBe(404);
    }
    const blocked = await accept(t, { token: good[1]?.token, password: PASSWORD }, ip);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().error).toBe("rate_limit_exceeded");
    expect(Number(blocked.headers["retry-after"])).toBeGreaterThan(0);
    expect(await usersWithEmail(t, good[1]?.email as string)).toHaveLength(0);
    expect((await accept(t, { token: good[1]?.token, password: PASSWORD })).statusCode).toBe(201);
  });

  it("answers 404 tenant_not_found on a host that is no institution", async () => {
    const res = await h.inject({
      method: "POST",
      url: "/api/invites/accept",
      headers: { host: "nobody.localhost", ...json },
      payload: { token: "a".repeat(64), password: PASSWORD },
    });
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toBe("tenant_not_found");
  });
});

describe("no escalation through invitations", () => {
  /** An administrator created by an administrator with sendInvite: an `invited` account and its invitation. */
  async function invitedAdmin(tenant: TestTenant, email = `boss${++seq}@example.com`) {
    const res = await h.inject({
      method: "POST",
      url: "/api/institution/users",
      headers: { host: tenant.host, ...json, cookie: await adminCookie(h, tenant) },
      payload: { name: "Chefe", email, role: "institution_admin", sendInvite: true },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as { id: string; email: string; role: string; status: string };
  }

  it("refuses a student invitation for the address of an invited administrator, even after revoking theirs", async () => {
    const writer = await makeKey(h, t, ["invites:write", "invites:read"]);
    const admin = await invitedAdmin(t);
    const listed = await h.inject({
      method: "GET",
      url: `/api/institution/invites?email=${admin.email}`,
      headers: { host: t.host, ...bearer(writer) },
    });
    const pending = listed.json().data[0] as { id: string; role: string };
    expect(pending.role).toBe("institution_admin");
    // Its token is out of the key's reach.
    const resent = await h.inject({
      method: "POST",
      url: `/api/institution/invites/${pending.id}/resend`,
      headers: { host: t.host, ...bearer(writer) },
    });
    expect(resent.statusCode).toBe(403);
    // So is withdrawing it: only an administrator's session revokes an administrator's invitation.
    const refused = await h.inject({
      method: "DELETE",
      url: `/api/institution/invites/${pending.id}`,
      headers: { host: t.host, ...bearer(writer) },
    });
    expect(refused.statusCode).toBe(403);
    expect((await inviteRow(pending.id))?.status).toBe("pending");
    const revoked = await h.inject({
      method: "DELETE",
      url: `/api/institution/invites/${pending.id}`,
      headers: { host: t.host, cookie: await adminCookie(h, t) },
    });
    expect(revoked.statusCode).toBe(204);
    const res = await h.inject({
      method: "POST",
      url: "/api/institution/invites",
      headers: { host: t.host, ...json, ...bearer(writer), "accept-language": "en-US" },
      payload: { email: admin.email, role: "student" },
    });
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json()).toMatchObject({ error: "conflict" });
    const [account] = await usersWithEmail(t, admin.email);
    expect(account).toMatchObject({ role: "institution_admin", status: "invited" });
  });

  it("never activates an account of another role: a student invitation sent before the administrator was made", async () => {
    const writer = await makeKey(h, t, ["invites:write"]);
    const email = `early${++seq}@example.com`;
    const early = await invite(t, { email, role: "student" }, writer);
    const admin = await invitedAdmin(t, email);
    const res = await accept(t, { token: early.token, password: PASSWORD });
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json().error).toBe("conflict");
    const [account] = await usersWithEmail(t, email);
    expect(account).toMatchObject({ id: admin.id, role: "institution_admin", status: "invited" });
    expect((await inviteRow(early.id))?.status).toBe("pending");
    const login = await h.inject({
      method: "POST",
      url: "/api/auth/login",
      headers: { host: t.host, ...json },
      payload: { email, password: PASSWORD },
    });
    expect(login.statusCode).toBe(401);
  });

  it("still activates an invited account with the invitation of its own role", async () => {
    const admin = await invitedAdmin(t);
    const cookie = await adminCookie(h, t);
    const listed = await h.inject({
      method: "GET",
      url: `/api/institution/invites?email=${admin.email}`,
      headers: { host: t.host, cookie },
    });
    const resent = await h.inject({
      method: "POST",
      url: `/api/institution/invites/${listed.json().data[0].id}/resend`,
      headers: { host: t.host, cookie },
    });
    expect(resent.statusCode, resent.body).toBe(200);
    const res = await accept(t, { token: resent.json().token, password: PASSWORD });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().user).toMatchObject({ id: admin.id, role: "institution_admin", status: "active" });
  });
});

describe("a tenant whose subscription is inactive", () => {
  it("answers 402 subscription_inactive to an acceptance, creating nothing, and accepts again once it is active", async () => {
    const s = await makeTenant(h);
    const k = await makeKey(h, s, ["invites:write"]);
    const inv = await invite(s, { role: "teacher" }, k);
    for (const status of ["suspended", "unpaid", "paused"]) {
      await h.database.db
        .insert(billingSubscriptions)
        .values({ tenantId: s.id, stripeCustomerId: `cus_${s.slug}`, status })
        .onConflictDoUpdate({ target: billingSubscriptions.tenantId, set: { status } });
      await h.ctx.tenants.changed(s.id);
      const res = await accept(s, { token: inv.token, password: PASSWORD });
      expect(res.statusCode, `${status}: ${res.body}`).toBe(402);
      expect(res.json()).toMatchObject({ error: "subscription_inactive" });
      expect(await usersWithEmail(s, inv.email)).toHaveLength(0);
      expect((await inviteRow(inv.id))?.status).toBe("pending");
    }
    await h.database.db
      .update(billingSubscriptions)
      .set({ status: "active" })
      .where(eq(billingSubscriptions.tenantId, s.id));
    await h.ctx.tenants.changed(s.id);
    const res = await accept(s, { token: inv.token, password: PASSWORD });
    expect(res.statusCode, res.body).toBe(201);
  });
});
