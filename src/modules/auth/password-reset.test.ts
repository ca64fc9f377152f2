import { randomBytes, randomInt } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { emailMessages } from "../../db/schema/index.js";
import {
  bearer,
  json,
  makeUser,
  sessionCookie,
  TEST_PASSWORD,
  tablesContaining,
} from "../../test-support/harness.js";
import { useMailKit } from "../../test-support/mail-kit.js";

const k = useMailKit({ LOGIN_MAX_PER_EMAIL: "3" });
const { h, a, b, drain, post, mailTo, linkIn, email } = k;
let keyA: string;
beforeAll(() => {
  ({ keyA } = k);
});

describe("password reset", () => {
  it("answers the same 202 for known and unknown addresses, mails a single-use link, and signs the user out everywhere", async () => {
    const user = await makeUser(h, a, "teacher", TEST_PASSWORD);
    const cookie = await sessionCookie(h, a, user.email, TEST_PASSWORD);
    const known = await post(a, "/api/auth/password-reset", { email: user.email.toUpperCase() });
    const unknown = await post(a, "/api/auth/password-reset", {
      email: `nobody-${randomBytes(3).toString("hex")}@x.test`,
    });
    expect(known.statusCode).toBe(202);
    expect(unknown.statusCode).toBe(202);
    expect(known.body).toBe(unknown.body);
    expect(known.json()).toEqual({ accepted: true });

    await drain();
    const mail = mailTo(user.email);
    expect(mail.subject).toBe("Redefinição de senha em Escola Alfa");
    const link = linkIn(mail.text as string, "/reset-password");
    expect(mail.html).toContain(link.href);
    const token = link.searchParams.get("token") as string;
    expect(await tablesContaining(h, token)).toEqual([]);

    const short = await post(a, "/api/auth/password-reset/confirm", { token, password: "short" });
    expect(short.statusCode).toBe(400);
    const wrongTenant = await post(b, "/api/auth/password-reset/confirm", {
      token,
      password: "another long password",
    });
    expect(wrongTenant.statusCode).toBe(400);
    expect(wrongTenant.json().details[0].field).toBe("token");

    const done = await post(a, "/api/auth/password-reset/confirm", {
      token,
      password: "another long password",
    });
    expect(done.statusCode).toBe(204);
    // The old session ends at once; the new password signs in, the old one does not.
    const old = await h.inject({
      method: "GET",
      url: "/api/institution/courses",
      headers: { host: a.host, cookie },
    });
    expect(old.statusCode).toBe(401);
    await sessionCookie(h, a, user.email, "another long password");
    const oldPassword = await post(a, "/api/auth/login", { email: user.email, password: TEST_PASSWORD });
    expect(oldPassword.statusCode).toBe(401);
    // Single use.
    const again = await post(a, "/api/auth/password-reset/confirm", {
      token,
      password: "a third long password",
    });
    expect(again.statusCode).toBe(400);
    expect(again.json().error).toBe("validation_failed");
  });

  it("writes nothing for an unknown address and is rate-limited per address like sign-in", async () => {
    const before = await h.database.db.select().from(emailMessages).where(eq(emailMessages.tenantId, b.id));
    const address = `ghost-${randomBytes(3).toString("hex")}@x.test`;
    const codes: number[] = [];
    for (let i = 0; i < 4; i++)
      codes.push((await post(b, "/api/auth/password-reset", { email: address })).statusCode);
    expect(codes).toEqual([202, 202, 202, 429]);
    const after = await h.database.db.select().from(emailMessages).where(eq(emailMessages.tenantId, b.id));
    expect(after).toHaveLength(before.length);
  });
});

describe("password reset limits", () => {
  it("limits failed confirmations per IP like invitation acceptance", async () => {
    const codes: number[] = [];
    // An address of this run's own: with Redis, the budget outlives the run (another run in the window shares it).
    const ip = `10.250.${randomInt(256)}.${randomInt(1, 255)}`;
    for (let i = 0; i <= h.config.auth.loginMaxPerIp; i++) {
      const res = await h.app.inject({
        method: "POST",
        url: "/api/auth/password-reset/confirm",
        remoteAddress: ip,
        headers: { host: a.host, ...json },
        payload: { token: randomBytes(32).toString("base64url"), password: "a long enough password" },
      });
      codes.push(res.statusCode);
    }
    expect(codes.slice(0, -1).every((c) => c === 400)).toBe(true);
    expect(codes.at(-1)).toBe(429);
  });

  it("is how a user created without sendInvite first signs in, as the creation's answer says", async () => {
    const address = email(a);
    const created = await post(
      a,
      "/api/institution/users",
      { name: "Nina", email: address, role: "teacher" },
      bearer(keyA),
    );
    expect(created.statusCode).toBe(201);
    expect(created.json().status).toBe("active");
    expect(created.json().signIn).toEqual({ method: "password_reset", via: "POST /api/auth/password-reset" });
    expect((await post(a, "/api/auth/password-reset", { email: address })).statusCode).toBe(202);
    await drain();
    const token = linkIn(mailTo(address).text as string, "/reset-password").searchParams.get("token");
    const set = await post(a, "/api/auth/password-reset/confirm", {
      token,
      password: "nina's first password",
    });
    expect(set.statusCode).toBe(204);
    expect(await sessionCookie(h, a, address, "nina's first password")).toBeTruthy();

    const invited = await post(
      a,
      "/api/institution/users",
      { name: "Otto", email: email(a), role: "teacher", sendInvite: true },
      bearer(keyA),
    );
    expect(invited.json().signIn).toEqual({ method: "invitation", via: "POST /api/invites/accept" });
    await drain();
  });

  it("mails nobody who cannot sign in: an invited or suspended account gets the same 202 and no message", async () => {
    const invited = email(a);
    await post(
      a,
      "/api/institution/users",
      { name: "Ivo", email: invited, role: "teacher", sendInvite: true },
      bearer(keyA),
    );
    const suspended = await makeUser(h, a, "teacher");
    const patched = await h.inject({
      method: "PATCH",
      url: `/api/institution/users/${suspended.id}`,
      headers: { host: a.host, ...json, ...bearer(keyA) },
      payload: { status: "suspended" },
    });
    expect(patched.statusCode).toBe(200);
    for (const address of [invited, suspended.email]) {
      const res = await post(a, "/api/auth/password-reset", { email: address });
      expect(res.statusCode).toBe(202);
      const rows = await h.database.db
        .select()
        .from(emailMessages)
        .where(
          and(
            eq(emailMessages.tenantId, a.id),
            eq(emailMessages.toEmail, address),
            eq(emailMessages.templateKey, "password_reset"),
          ),
        );
      expect(rows, address).toEqual([]);
    }
    await drain(); // the invitation mail, so later tests start with nothing queued
  });
});
