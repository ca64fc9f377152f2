import { randomUUID } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { classGroups, invites, platformEvents } from "../../db/schema/index.js";
import { sha256Hex } from "../../platform/auth/secrets.js";
import { callerFor, useApi, WHOLE_PATHS } from "../../test-support/api.js";
import {
  adminCookie,
  bearer,
  makeKey,
  makeTenant,
  makeUser,
  roleCookie,
  tablesContaining,
} from "../../test-support/harness.js";
import { expireInvites } from "./expiry.js";

const { h, tenants } = useApi({ tenants: 2 });
const [t, other] = tenants;
let key: string;
let seq = 0;

beforeAll(async () => {
  key = await makeKey(h, t, ["invites:read", "invites:write"]);
});

const address = () => `guest${++seq}@example.com`;

const send = callerFor(h, () => ({ tenant: t, credential: key }), WHOLE_PATHS);

async function invite(payload: Record<string, unknown> = {}) {
  const res = await send("POST", "/api/institution/invites", { email: address(), ...payload });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

async function eventsFor(inviteId: string, type: string) {
  return h.database.db
    .select()
    .from(platformEvents)
    .where(
      and(
        eq(platformEvents.tenantId, t.id),
        eq(platformEvents.type, type),
        sql`${platformEvents.data}->>'inviteId' = ${inviteId}`,
      ),
    );
}

const DAY = 24 * 3600 * 1000;

describe("creating invitations", () => {
  it("answers the invitation with its token and accept URL once, and stores only the token's hash", async () => {
    const group = (
      await h.database.db.insert(classGroups).values({ tenantId: t.id, name: "G" }).returning()
    )[0] as { id: string };
    const before = Date.now();
    const res = await send("POST", "/api/institution/invites", {
      email: "Carla@Example.com",
      name: "Carla",
      classGroupIds: [group.id],
      message: "Bem-vinda!",
    });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body.token).toMatch(/^[0-9a-f]{64}$/);
    expect(body.acceptUrl).toBe(`http://${t.host}/invites/accept?token=${body.token}`);
    expect(body).toMatchObject({
      email: "Carla@Example.com",
      name: "Carla",
      role: "student",
      courseIds: [],
      classGroupIds: [group.id],
      message: "Bem-vinda!",
      status: "pending",
      acceptedAt: null,
      acceptedUserId: null,
    });
    const expires = Date.parse(body.expiresAt);
    expect(expires).toBeGreaterThanOrEqual(before + 14 * DAY - 5000);
    expect(expires).toBeLessThanOrEqual(Date.now() + 14 * DAY + 5000);
    expect(body.sentAt).toMatch(/Z$/);

    expect(await tablesContaining(h, body.token)).toEqual([]);
    expect(await tablesContaining(h, sha256Hex(body.token))).toEqual(["invites"]);
    const got = await send("GET", `/api/institution/invites/${body.id}`);
    const { token: _t, acceptUrl: _u, ...record } = body;
    expect(got.json()).toEqual(record);
    const listed = await send("GET", "/api/institution/invites?perPage=100");
    expect(listed.body).not.toContain(body.token);
    expect(listed.body).not.toContain(sha256Hex(body.token));

    const sent = await eventsFor(body.id, "invite_sent");
    expect(sent).toHaveLength(1);
    expect(sent[0]?.data).toEqual({
      inviteId: body.id,
      email: "Carla@Example.com",
      role: "student",
      courseIds: [],
      classGroupIds: [group.id],
      expiresAt: body.expiresAt,
      // The invitation as GET /invites/:id answers it: never its token.
      invite: record,
    });
    expect(JSON.stringify(sent[0]?.data)).not.toContain(body.token);
    expect(sent[0]?.actor).toMatchObject({ type: "api_key" });
  });

  it("takes an expiry in the future and at most 90 days ahead", async () => {
    const at = new Date(Date.now() + 30 * DAY).toISOString();
    expect((await invite({ expiresAt: at })).expiresAt).toBe(at);
    const past = await send("POST", "/api/institution/invites", {
      email: address(),
      expiresAt: new Date(Date.now() - 1000).toISOString(),
    });
    expect(past.statusCode).toBe(400);
    expect(past.json().details).toEqual([{ field: "expiresAt", message: "Must be in the future." }]);
    const far = await send("POST", "/api/institution/invites", {
      email: address(),
      expiresAt: new Date(Date.now() + 91 * DAY).toISOString(),
    });
    expect(far.statusCode).toBe(400);
    expect(far.json().details).toEqual([
      { field: "expiresAt", message: "Must be at most 90 days from now." },
    ]);
  });

  it("refuses unknown (or foreign) courses and classes, and bad fields, storing nothing", async () => {
    const foreign = (
      await h.database.db.insert(classGroups).values({ tenantId: other.id, name: "B" }).returning()
    )[0] as { id: string };
    const course = randomUUID();
    const email = address();
    const res = await send("POST", "/api/institution/invites", {
      email,
      courseIds: [course],
      classGroupIds: [foreign.id],
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().details).toEqual([
      { field: "courseIds[0]", message: `Unknown course: ${course}.` },
      { field: "classGroupIds[0]", message: `Unknown class group: ${foreign.id}.` },
    ]);
    const bad = await send("POST", "/api/institution/invites", {
      email: "nope",
      role: "owner",
      message: "x".repeat(2001),
      token: "mine",
    });
    expect(bad.statusCode).toBe(400);
    expect(
      bad
        .json()
        .details.map((d: { field: string }) => d.field)
        .sort(),
    ).toEqual(["email", "message", "role", "token"]);
    const rows = await h.database.db.select().from(invites).where(eq(invites.email, email));
    expect(rows).toHaveLength(0);
  });

  it("answers 409 for an address with a live pending invitation or an account", async () => {
    const first = await invite();
    const dup = await send("POST", "/api/institution/invites", { email: first.email.toUpperCase() });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().message).toBe("A pending invitation for this e-mail already exists.");
    const member = await makeUser(h, t, "teacher");
    const taken = await send("POST", "/api/institution/invites", { email: member.email });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().message).toBe("A user with this e-mail already exists in this institution.");
    // Another institution may invite the same person.
    const keyB = await makeKey(h, other, ["invites:write"]);
    expect(
      (await send("POST", "/api/institution/invites", { email: first.email }, bearer(keyB), other))
        .statusCode,
    ).toBe(201);
    // Once the first invitation has lapsed, a new one may be sent.
    await h.database.db
      .update(invites)
      .set({ expiresAt: "2020-01-01T00:00:00.000Z" })
      .where(eq(invites.id, first.id));
    expect((await send("POST", "/api/institution/invites", { email: first.email })).statusCode).toBe(201);
  });

  it("creates one invitation when two requests for the same address race", async () => {
    const email = address();
    const both = await Promise.all([1, 2].map(() => send("POST", "/api/institution/invites", { email })));
    expect(both.map((r) => r.statusCode).sort()).toEqual([201, 409]);
    expect(await h.database.db.select().from(invites).where(eq(invites.email, email))).toHaveLength(1);
  });

  it("lets only an administrator's session invite an administrator", async () => {
    const byKey = await send("POST", "/api/institution/invites", {
      email: address(),
      role: "institution_admin",
    });
    expect(byKey.statusCode).toBe(403);
    expect(byKey.json().error).toBe("forbidden");
    const bySession = await send(
      "POST",
      "/api/institution/invites",
      { email: address(), role: "institution_admin" },
      { cookie: await adminCookie(h, t) },
    );
    expect(bySession.statusCode).toBe(201);
    // A key cannot get a fresh token for it either.
    const resend = await send("POST", `/api/institution/invites/${bySession.json().id}/resend`);
    expect(resend.statusCode).toBe(403);
  });

  it("lets teachers read but not write", async () => {
    const teacher = { cookie: await roleCookie(h, t, "teacher") };
    expect((await send("GET", "/api/institution/invites", undefined, teacher)).statusCode).toBe(200);
    expect((await send("POST", "/api/institution/invites", { email: address() }, teacher)).statusCode).toBe(
      403,
    );
  });
});

describe("listing invitations", () => {
  it("filters by status (a lapsed pending one reads as expired) and e-mail, sorts, with exact totals", async () => {
    const t2 = await makeTenant(h);
    const k2 = await makeKey(h, t2, ["invites:read", "invites:write"]);
    const make = async (email: string) =>
      (await send("POST", "/api/institution/invites", { email }, bearer(k2), t2)).json();
    const a = await make("ana@example.com");
    const b = await make("bruno@example.com");
    const c = await make("caio@example.com");
    await h.database.db
      .update(invites)
      .set({ expiresAt: "2020-01-01T00:00:00.000Z" })
      .where(eq(invites.id, b.id));
    expect(
      (await send("DELETE", `/api/institution/invites/${c.id}`, undefined, bearer(k2), t2)).statusCode,
    ).toBe(204);
    const list = async (q: string) =>
      (await send("GET", `/api/institution/invites${q}`, undefined, bearer(k2), t2)).json();
    const all = await list("");
    expect(all.data.map((x: { id: string }) => x.id)).toEqual([c.id, b.id, a.id]);
    expect(all.data.map((x: { status: string }) => x.status)).toEqual(["revoked", "expired", "pending"]);
    expect(all.pagination.total).toBe(3);
    for (const [status, ids] of [
      ["pending", [a.id]],
      ["expired", [b.id]],
      ["revoked", [c.id]],
      ["accepted", []],
    ] as const) {
      const page = await list(`?status=${status}`);
      expect(
        page.data.map((x: { id: string }) => x.id),
        status,
      ).toEqual(ids);
      expect(page.pagination.total, status).toBe(ids.length);
    }
    const byEmail = await list("?email=BRUNO@example.com");
    expect(byEmail.data.map((x: { id: string }) => x.id)).toEqual([b.id]);
    expect(byEmail.pagination.total).toBe(1);
    expect((await list("?sort=email")).data.map((x: { email: string }) => x.email)).toEqual([
      "ana@example.com",
      "bruno@example.com",
      "caio@example.com",
    ]);
    expect((await list("?sort=expiresAt")).data[0].id).toBe(b.id);
    expect(
      (await send("GET", "/api/institution/invites?status=old", undefined, bearer(k2), t2)).statusCode,
    ).toBe(400);
  });
});

describe("resending and revoking", () => {
  it("resends with a new token and expiry; the old token is forgotten", async () => {
    const first = await invite();
    await h.database.db
      .update(invites)
      .set({ expiresAt: new Date(Date.now() + DAY).toISOString() })
      .where(eq(invites.id, first.id));
    const res = await send("POST", `/api/institution/invites/${first.id}/resend`);
    expect(res.statusCode).toBe(200);
    const again = res.json();
    expect(again.token).toMatch(/^[0-9a-f]{64}$/);
    expect(again.token).not.toBe(first.token);
    expect(again.acceptUrl).toContain(again.token);
    expect(Date.parse(again.expiresAt)).toBeGreaterThan(Date.now() + 13 * DAY);
    expect(await tablesContaining(h, sha256Hex(first.token))).toEqual([]);
    expect(await tablesContaining(h, sha256Hex(again.token))).toEqual(["invites"]);
    expect(await eventsFor(first.id, "invite_sent")).toHaveLength(2);
  });

  it("revives a lapsed invitation on resend", async () => {
    const lapsed = await invite();
    await h.database.db
      .update(invites)
      .set({ expiresAt: "2020-01-01T00:00:00.000Z" })
      .where(eq(invites.id, lapsed.id));
    expect((await send("GET", `/api/institution/invites/${lapsed.id}`)).json().status).toBe("expired");
    const res = await send("POST", `/api/institution/invites/${lapsed.id}/resend`);
    expect(res.statusCode).toBe(200);
    expect(res.json().status).toBe("pending");
  });

  it("revokes with 204 and invite_revoked, idempotently; revoked invitations cannot be resent", async () => {
    const inv = await invite();
    const res = await send("DELETE", `/api/institution/invites/${inv.id}`);
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe("");
    expect((await send("GET", `/api/institution/invites/${inv.id}`)).json().status).toBe("revoked");
    expect((await send("DELETE", `/api/institution/invites/${inv.id}`)).statusCode).toBe(204);
    expect(await eventsFor(inv.id, "invite_revoked")).toHaveLength(1);
    const resend = await send("POST", `/api/institution/invites/${inv.id}/resend`);
    expect(resend.statusCode).toBe(409);
    expect(resend.json().message).toBe("This invitation has been revoked.");
  });

  it("refuses to revoke or resend an accepted invitation", async () => {
    const inv = await invite();
    await h.database.db.update(invites).set({ status: "accepted" }).where(eq(invites.id, inv.id));
    const revoke = await send("DELETE", `/api/institution/invites/${inv.id}`);
    expect(revoke.statusCode).toBe(409);
    expect(revoke.json().message).toBe("This invitation has already been accepted.");
    expect((await send("POST", `/api/institution/invites/${inv.id}/resend`)).statusCode).toBe(409);
  });

  it("answers 404 for malformed, unknown and foreign ids", async () => {
    const keyB = await makeKey(h, other, ["invites:write"]);
    const foreign = (
      await send("POST", "/api/institution/invites", { email: address() }, bearer(keyB), other)
    ).json();
    for (const id of ["x", randomUUID(), foreign.id]) {
      expect((await send("GET", `/api/institution/invites/${id}`)).statusCode).toBe(404);
      expect((await send("POST", `/api/institution/invites/${id}/resend`)).statusCode).toBe(404);
      expect((await send("DELETE", `/api/institution/invites/${id}`)).statusCode).toBe(404);
    }
    const [row] = await h.database.db.select().from(invites).where(eq(invites.id, foreign.id));
    expect(row?.status).toBe("pending");
  });
});

describe("expiry", () => {
  it("stores a lapsed invitation as expired once, with invite_expired; a resend makes it pending again", async () => {
    const created = await send("POST", "/api/institution/invites", {
      email: `lapse-${randomUUID()}@example.com`,
    });
    expect(created.statusCode).toBe(201);
    const id = created.json().id as string;
    await h.database.db
      .update(invites)
      .set({ expiresAt: new Date(Date.now() - 60_000).toISOString() })
      .where(eq(invites.id, id));
    const expiredEvents = async () =>
      (
        await h.database.db
          .select()
          .from(platformEvents)
          .where(and(eq(platformEvents.tenantId, t.id), eq(platformEvents.type, "invite_expired")))
      ).filter((e) => (e.data as { inviteId: string }).inviteId === id);

    expect(await expireInvites(h.database.db)).toBeGreaterThanOrEqual(1);
    expect((await expiredEvents()).map((e) => e.data)).toMatchObject([
      { inviteId: id, email: created.json().email },
    ]);
    const [row] = await h.database.db.select().from(invites).where(eq(invites.id, id));
    expect(row?.status).toBe("expired");
    expect((await send("GET", `/api/institution/invites/${id}`)).json().status).toBe("expired");

    const resent = await send("POST", `/api/institution/invites/${id}/resend`);
    expect(resent.statusCode).toBe(200);
    expect(resent.json().status).toBe("pending");
  });
});
