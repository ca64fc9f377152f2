import { randomBytes } from "node:crypto";
import { and, eq } from "drizzle-orm";
import type { ParsedMail } from "mailparser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { emailMessages, platformEvents, webhookDeliveries } from "../../db/schema/index.js";
import {
  adminCookie,
  bearer,
  type Harness,
  json,
  makeKey,
  makeTenant,
  makeUser,
  sessionCookie,
  startHarness,
  TEST_PASSWORD,
  type TestTenant,
  tablesContaining,
} from "../../test-support/harness.js";
import { type SmtpSink, startSmtpSink } from "../../test-support/smtp-sink.js";
import { createMailTransport, type MailTransport, SendError } from "./transport.js";
import { drainMail } from "./worker.js";

const BOUNCE_SECRET = randomBytes(24).toString("hex");

let smtp: SmtpSink;
let h: Harness;
let transport: MailTransport;
let a: TestTenant;
let b: TestTenant;
let keyA: string;
let keyB: string;

beforeAll(async () => {
  smtp = await startSmtpSink();
  h = await startHarness({
    SMTP_URL: smtp.url,
    MAIL_FROM: "Aula <no-reply@mail.test>",
    MAIL_RETRY_SCHEDULE: "60,600",
    EMAIL_BOUNCE_SECRET: BOUNCE_SECRET,
    LOGIN_MAX_PER_EMAIL: "3",
  });
  transport = createMailTransport(h.config.mail) as MailTransport;
  a = await makeTenant(h, "Escola Alfa");
  b = await makeTenant(h, "Beta University");
  keyA = await makeKey(h, a, []);
  keyB = await makeKey(h, b, []);
});
afterAll(async () => {
  transport.close();
  await h.close();
  await smtp.close();
});

const drain = (tenant: TestTenant = a) => drainMail(h.ctx, transport, { tenantIds: [tenant.id] });
const post = (tenant: TestTenant, url: string, payload: unknown, headers: Record<string, string> = {}) =>
  h.inject({
    method: "POST",
    url,
    headers: { host: tenant.host, ...json, ...headers },
    payload: payload as object,
  });
const get = (tenant: TestTenant, url: string, key: string) =>
  h.inject({ method: "GET", url, headers: { host: tenant.host, ...bearer(key) } });

function mailTo(address: string): ParsedMail {
  const found = smtp.mails.filter((m) => m.to !== undefined && JSON.stringify(m.to).includes(address));
  expect(found, `mail to ${address}`).toHaveLength(1);
  return found[0] as ParsedMail;
}

function linkIn(text: string, path: string): URL {
  const m = new RegExp(`https?://\\S+${path}\\?token=[A-Za-z0-9_-]+`).exec(text);
  expect(m, `a ${path} link`).not.toBeNull();
  return new URL((m as RegExpExecArray)[0]);
}

const email = (tenant: TestTenant) => `p-${randomBytes(4).toString("hex")}@${tenant.slug}.test`;

describe("invitation mail through SMTP", () => {
  it("sends the invite in the invitation's language, with headers, both parts and an accept link that works", async () => {
    const to = email(a);
    const res = await post(
      a,
      "/api/institution/invites",
      { email: to, name: "Carla <b>", locale: "en-US" },
      bearer(keyA),
    );
    expect(res.statusCode).toBe(201);
    const { token, acceptUrl } = res.json();
    // Written in the invitation's transaction, queued until the worker runs; sealed, so the token is not stored.
    const [row] = await h.database.db
      .select()
      .from(emailMessages)
      .where(and(eq(emailMessages.tenantId, a.id), eq(emailMessages.toEmail, to)));
    expect(row?.status).toBe("queued");
    expect(await tablesContaining(h, token)).toEqual([]);

    expect(await drain()).toEqual({ sent: 1, retried: 0, failed: 0, stale: 0 });
    const mail = mailTo(to);
    expect(mail.from?.value).toEqual([{ name: "Aula", address: "no-reply@mail.test" }]);
    expect(mail.subject).toBe("Your invitation to Escola Alfa");
    expect(mail.messageId).toBe(row?.messageId);
    expect(mail.messageId).toMatch(/^<[0-9a-f-]{36}@mail\.test>$/);
    // HTML escapes the name; text keeps it as written.
    expect(mail.html).toContain("Hello Carla &lt;b&gt;,");
    expect(mail.html).not.toContain("<b>,");
    expect(mail.text).toContain("Hello Carla <b>,");
    const link = linkIn(mail.text as string, "/invites/accept");
    expect(link.href).toBe(acceptUrl);
    expect(mail.html).toContain(`href="${acceptUrl}"`);

    const accepted = await post(a, "/api/invites/accept", {
      token: link.searchParams.get("token"),
      password: "a long new password",
    });
    expect(accepted.statusCode).toBe(201);
    const sent = await get(a, `/api/institution/email/messages/${row?.id}`, keyA);
    expect(sent.json()).toMatchObject({ status: "sent", attempts: 1, toEmail: to, templateKey: "invite" });
  });

  it("sends a user created with sendInvite the invitation in the institution's language, and its link activates the account", async () => {
    const to = email(a);
    const res = await post(
      a,
      "/api/institution/users",
      { name: "Davi", email: to, role: "student", sendInvite: true },
      bearer(keyA),
    );
    expect(res.statusCode).toBe(201);
    await drain();
    const mail = mailTo(to);
    expect(mail.subject).toBe("Convite para Escola Alfa");
    expect(mail.text).toContain("Olá, Davi!");
    const token = linkIn(mail.text as string, "/invites/accept").searchParams.get("token");
    const accepted = await post(a, "/api/invites/accept", { token, password: "a long new password" });
    expect(accepted.statusCode).toBe(201);
    expect(accepted.json().user).toMatchObject({ id: res.json().id, status: "active" });
  });

  it("sends the reminder template when an invitation is sent again, and only the new link works", async () => {
    const to = email(a);
    const first = await post(a, "/api/institution/invites", { email: to, locale: "fr-FR" }, bearer(keyA));
    const resent = await post(a, `/api/institution/invites/${first.json().id}/resend`, {}, bearer(keyA));
    expect(resent.statusCode).toBe(200);
    await drain();
    const mails = smtp.mails.filter((m) => JSON.stringify(m.to).includes(to));
    expect(mails.map((m) => m.subject).sort()).toEqual([
      "Invitation à rejoindre Escola Alfa",
      "Rappel : votre invitation à Escola Alfa",
    ]);
    const reminder = mails.find((m) => m.subject?.startsWith("Rappel")) as ParsedMail;
    expect(linkIn(reminder.text as string, "/invites/accept").searchParams.get("token")).toBe(
      resent.json().token,
    );
  });
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
    for (let i = 0; i <= h.config.auth.loginMaxPerIp; i++) {
      const res = await h.app.inject({
        method: "POST",
        url: "/api/auth/password-reset/confirm",
        remoteAddress: "10.250.250.250",
        headers: { host: a.host, ...json },
        payload: { token: randomBytes(32).toString("base64url"), password: "a long enough password" },
      });
      codes.push(res.statusCode);
    }
    expect(codes.slice(0, -1).every((c) => c === 400)).toBe(true);
    expect(codes.at(-1)).toBe(429);
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

describe("delivery status", () => {
  const sendOne = async () => {
    const user = await makeUser(h, a, "student");
    const res = await post(
      a,
      "/api/institution/email/messages",
      {
        subject: "Aviso",
        bodyHtml: "<p>Olá {{name}}</p><script>alert(1)</script>",
        bodyText: "Olá {{name}}",
        userIds: [user.id],
      },
      bearer(keyA),
    );
    expect(res.statusCode).toBe(202);
    return { user, id: res.json().messageIds[0] as string };
  };

  it("retries a message the SMTP server refuses for now, and sends it once it accepts", async () => {
    const { user, id } = await sendOne();
    smtp.refuseNext.push(451);
    expect(await drain()).toEqual({ sent: 0, retried: 1, failed: 0, stale: 0 });
    const queued = (await get(a, `/api/institution/email/messages/${id}`, keyA)).json();
    expect(queued).toMatchObject({ status: "queued", attempts: 1 });
    expect(queued.lastError).toContain("451");
    // The first step of the schedule: 60 s from the failure.
    const wait = Date.parse(queued.nextAttemptAt) - Date.now();
    expect(wait).toBeGreaterThan(50_000);
    expect(wait).toBeLessThanOrEqual(60_000);
    expect(await drain()).toEqual({ sent: 0, retried: 0, failed: 0, stale: 0 });
    // Time passes: the retry falls due.
    await h.database.db
      .update(emailMessages)
      .set({ nextAttemptAt: new Date(Date.now() - 1000).toISOString() })
      .where(and(eq(emailMessages.tenantId, a.id), eq(emailMessages.id, id)));
    expect(await drain()).toEqual({ sent: 1, retried: 0, failed: 0, stale: 0 });
    const mail = mailTo(user.email);
    expect(mail.html).not.toContain("script");
    expect(mail.text).toContain(`Olá ${user.name}`);
    expect((await get(a, `/api/institution/email/messages/${id}`, keyA)).json()).toMatchObject({
      status: "sent",
      attempts: 2,
      lastError: null,
    });
  });

  it("fails a message the server refuses for good and emits email_failed", async () => {
    const { id } = await sendOne();
    smtp.refuseNext.push(550);
    expect(await drain()).toEqual({ sent: 0, retried: 0, failed: 1, stale: 0 });
    expect((await get(a, `/api/institution/email/messages/${id}`, keyA)).json()).toMatchObject({
      status: "failed",
    });
    const events = await h.database.db
      .select()
      .from(platformEvents)
      .where(and(eq(platformEvents.tenantId, a.id), eq(platformEvents.type, "email_failed")));
    expect(events.map((e) => (e.data as { messageId: string }).messageId)).toContain(id);
  });

  it("marks a sent message bounced from an authenticated report, once, and emits email_bounced", async () => {
    const { id } = await sendOne();
    await drain();
    const { messageId } = (await get(a, `/api/institution/email/messages/${id}`, keyA)).json();
    const endpoint = await post(
      a,
      "/api/institution/webhooks",
      { url: "https://93.184.215.14/bounces", eventTypes: ["email_bounced"] },
      bearer(keyA),
    );
    expect(endpoint.statusCode).toBe(201);
    const report = (secret: string) =>
      h.inject({
        method: "POST",
        url: "/api/email/bounces",
        headers: { ...json, authorization: `Bearer ${secret}` },
        payload: { messageId, kind: "bounce", reason: "550 5.1.1 user unknown" },
      });
    expect((await report("wrong")).statusCode).toBe(401);
    const first = await report(BOUNCE_SECRET);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ id, status: "bounced" });
    expect((await report(BOUNCE_SECRET)).statusCode).toBe(200);
    const events = await h.database.db
      .select()
      .from(platformEvents)
      .where(and(eq(platformEvents.tenantId, a.id), eq(platformEvents.type, "email_bounced")));
    const bounced = events.filter((e) => (e.data as { messageId: string }).messageId === id);
    expect(bounced).toHaveLength(1);
    expect(bounced[0]?.data).toMatchObject({
      kind: "bounce",
      reason: "550 5.1.1 user unknown",
      email: expect.stringMatching(/^.\*\*\*@/),
    });
    // The event reaches webhook endpoints like every other.
    const deliveries = await h.database.db
      .select()
      .from(webhookDeliveries)
      .where(
        and(eq(webhookDeliveries.tenantId, a.id), eq(webhookDeliveries.automationId, endpoint.json().id)),
      );
    expect(deliveries).toHaveLength(1);
    const list = (await get(a, "/api/institution/email/messages?status=bounced", keyA)).json();
    expect(list.data.map((m: { id: string }) => m.id)).toContain(id);
    expect(list.data[0].toEmail).toMatch(/^.\*\*\*@/);
  });
});

describe("the worker's claim", () => {
  it("never sends a message twice when workers drain at once", async () => {
    const t = await makeTenant(h, "Escola Paralela");
    const key = await makeKey(h, t, []);
    const people = await Promise.all(Array.from({ length: 12 }, () => makeUser(h, t, "teacher")));
    const res = await post(
      t,
      "/api/institution/email/messages",
      { subject: "Oi", bodyHtml: "<p>Oi</p>", bodyText: "Oi", userIds: people.map((p) => p.id) },
      bearer(key),
    );
    expect(res.json().queued).toBe(12);
    const before = smtp.mails.length;
    const options = { tenantIds: [t.id], batchSize: 3 };
    const results = await Promise.all([
      drainMail(h.ctx, transport, options),
      drainMail(h.ctx, transport, options),
      drainMail(h.ctx, transport, options),
    ]);
    expect(results.reduce((n, r) => n + r.sent, 0)).toBe(12);
    const received = smtp.mails.slice(before).map((m) => m.messageId);
    expect(received).toHaveLength(12);
    expect(new Set(received).size).toBe(12);
  });
});

describe("a worker that stalls", () => {
  it("loses its message to the next claim once the lease ends, and its late record changes nothing", async () => {
    const t = await makeTenant(h, "Escola Lenta");
    const key = await makeKey(h, t, []);
    const user = await makeUser(h, t, "teacher");
    const res = await post(
      t,
      "/api/institution/email/messages",
      { subject: "Lenta", bodyHtml: "<p>Oi</p>", bodyText: "Oi", userIds: [user.id] },
      bearer(key),
    );
    const id = res.json().messageIds[0] as string;
    // The stalled send ends in a permanent refusal: unfenced, its record would turn the sent message `failed`.
    let release: () => void = () => {};
    const gate = new Promise<void>((_, reject) => {
      release = () => reject(new SendError("550 too late", true));
    });
    let stalledSends = 0;
    const stalled: MailTransport = {
      kind: "smtp",
      async send() {
        stalledSends++;
        await gate;
      },
      close() {},
    };
    const first = drainMail(h.ctx, stalled, { tenantIds: [t.id], leaseSeconds: 1 });
    while (stalledSends === 0) await new Promise((r) => setTimeout(r, 10));
    // Within the lease nobody else takes it.
    expect(await drainMail(h.ctx, transport, { tenantIds: [t.id] })).toEqual({
      sent: 0,
      retried: 0,
      failed: 0,
      stale: 0,
    });
    await new Promise((r) => setTimeout(r, 1100));
    expect(await drainMail(h.ctx, transport, { tenantIds: [t.id] })).toEqual({
      sent: 1,
      retried: 0,
      failed: 0,
      stale: 0,
    });
    release();
    expect(await first).toEqual({ sent: 0, retried: 0, failed: 0, stale: 1 });
    const [row] = await h.database.db
      .select()
      .from(emailMessages)
      .where(and(eq(emailMessages.tenantId, t.id), eq(emailMessages.id, id)));
    expect(row).toMatchObject({ status: "sent", attempts: 2, lastError: null });
    const failures = await h.database.db
      .select()
      .from(platformEvents)
      .where(and(eq(platformEvents.tenantId, t.id), eq(platformEvents.type, "email_failed")));
    expect(failures).toEqual([]);
    expect(smtp.mails.filter((m) => JSON.stringify(m.to).includes(user.email))).toHaveLength(1);
  });
});

describe("the message log", () => {
  it("reports exact totals, unfiltered and per status and user, that follow every change of status", async () => {
    const rows = await h.database.db.select().from(emailMessages).where(eq(emailMessages.tenantId, a.id));
    const all = (await get(a, "/api/institution/email/messages?perPage=1", keyA)).json();
    expect(all.pagination.total).toBe(rows.length);
    for (const status of ["queued", "sent", "failed", "bounced"]) {
      const page = (
        await get(a, `/api/institution/email/messages?status=${status}&perPage=100`, keyA)
      ).json();
      const expected = rows.filter((r) => r.status === status);
      expect(page.pagination.total, status).toBe(expected.length);
      expect(page.data.map((m: { id: string }) => m.id).sort()).toEqual(expected.map((r) => r.id).sort());
    }
    const someone = rows.find((r) => r.toUserId !== null);
    const mine = (await get(a, `/api/institution/email/messages?userId=${someone?.toUserId}`, keyA)).json();
    expect(mine.pagination.total).toBe(rows.filter((r) => r.toUserId === someone?.toUserId).length);
    const bad = await get(a, "/api/institution/email/messages?status=lost", keyA);
    expect(bad.statusCode).toBe(400);
  });
});

describe("templates", () => {
  it("lists the six keys in four locales, and an override changes what is sent", async () => {
    const list = await get(a, "/api/institution/email/templates?locale=en-US&perPage=100", keyA);
    expect(list.statusCode).toBe(200);
    expect(list.json().pagination.total).toBe(6);
    const bad = await h.inject({
      method: "PUT",
      url: "/api/institution/email/templates/invite",
      headers: { host: a.host, ...json, ...bearer(keyA) },
      payload: {
        locale: "es-ES",
        subject: "Hola {{nombre}}",
        bodyHtml: "<p>{{acceptUrl}}</p>",
        bodyText: "{{acceptUrl}}",
      },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details).toEqual([{ field: "subject", message: expect.stringContaining("nombre") }]);
    const put = await h.inject({
      method: "PUT",
      url: "/api/institution/email/templates/invite",
      headers: { host: a.host, ...json, ...bearer(keyA) },
      payload: {
        locale: "es-ES",
        subject: "Bienvenida, {{name}}",
        bodyHtml: '<p onclick="x()">Entra</p><a href="{{acceptUrl}}">aquí</a><script>alert(1)</script>',
        bodyText: "Entra: {{acceptUrl}}",
      },
    });
    expect(put.statusCode).toBe(200);
    expect(put.json()).toMatchObject({
      customized: true,
      bodyHtml: '<p>Entra</p><a href="{{acceptUrl}}">aquí</a>',
    });
    const to = email(a);
    await post(a, "/api/institution/invites", { email: to, name: "Lu", locale: "es-ES" }, bearer(keyA));
    await drain();
    const mail = mailTo(to);
    expect(mail.subject).toBe("Bienvenida, Lu");
    expect(linkIn(mail.text as string, "/invites/accept").protocol).toBe("http:");
    // Another institution still has the default.
    const theirs = (await get(b, "/api/institution/email/templates/invite?locale=es-ES", keyB)).json();
    expect(theirs.locales[0]).toMatchObject({
      customized: false,
      subject: "Invitación a {{institutionName}}",
    });
    const reverted = await h.inject({
      method: "DELETE",
      url: "/api/institution/email/templates/invite?locale=es-ES",
      headers: { host: a.host, ...bearer(keyA) },
    });
    expect(reverted.statusCode).toBe(204);
    expect(
      (await get(a, "/api/institution/email/templates/invite?locale=es-ES", keyA)).json().locales[0]
        .customized,
    ).toBe(false);
  });

  it("previews with escaping, keeps custom templates per institution, and hides other institutions' messages", async () => {
    const preview = await post(
      a,
      "/api/institution/email/templates/password_reset/preview",
      { locale: "en-US", variables: { name: "<Ana>" } },
      bearer(keyA),
    );
    expect(preview.statusCode).toBe(200);
    expect(preview.json().bodyHtml).toContain("Hello &lt;Ana&gt;,");
    expect(preview.json().bodyText).toContain("Hello <Ana>,");
    const weekly = {
      locale: "pt-BR",
      subject: "Semana {{week}}",
      bodyHtml: "<p>{{week}}</p>",
      bodyText: "{{week}}",
    };
    // A custom key is created with POST; PUT on one the institution does not have is 404.
    const putFirst = await h.inject({
      method: "PUT",
      url: "/api/institution/email/templates/custom.weekly",
      headers: { host: a.host, ...json, ...bearer(keyA) },
      payload: weekly,
    });
    expect(putFirst.statusCode).toBe(404);
    const custom = await post(
      a,
      "/api/institution/email/templates",
      { key: "custom.weekly", ...weekly },
      bearer(keyA),
    );
    expect(custom.statusCode).toBe(201);
    expect(custom.json()).toMatchObject({
      key: "custom.weekly",
      customized: true,
      variables: ["name", "email", "institutionName", "week"],
    });
    expect(
      (await post(a, "/api/institution/email/templates", { key: "custom.weekly", ...weekly }, bearer(keyA)))
        .statusCode,
    ).toBe(409);
    expect(
      (await post(a, "/api/institution/email/templates", { key: "invite", ...weekly }, bearer(keyA)))
        .statusCode,
    ).toBe(400);
    // Never in another institution's list or reach.
    const theirList = (await get(b, "/api/institution/email/templates?perPage=100", keyB)).json();
    expect(theirList.pagination.total).toBe(24);
    expect(theirList.data.filter((x: { customized: boolean }) => x.customized)).toEqual([]);
    expect((await get(b, "/api/institution/email/templates/custom.weekly", keyB)).statusCode).toBe(404);
    const user = await makeUser(h, a, "student");
    const sent = await post(
      a,
      "/api/institution/email/messages",
      { templateKey: "custom.weekly", userIds: [user.id], variables: { week: "12" } },
      bearer(keyA),
    );
    expect(sent.statusCode).toBe(202);
    const id = sent.json().messageIds[0];
    expect((await get(b, `/api/institution/email/messages/${id}`, keyB)).statusCode).toBe(404);
    const unknown = await post(
      a,
      "/api/institution/email/messages",
      { templateKey: "custom.nope", userIds: [user.id] },
      bearer(keyA),
    );
    expect(unknown.statusCode).toBe(400);
    await drain();
    expect(mailTo(user.email).subject).toBe("Semana 12");
  });

  it("admits administrators' sessions only", async () => {
    const teacher = await makeUser(h, a, "teacher", TEST_PASSWORD);
    const cookie = await sessionCookie(h, a, teacher.email, TEST_PASSWORD);
    const res = await h.inject({
      method: "GET",
      url: "/api/institution/email/templates",
      headers: { host: a.host, cookie },
    });
    expect(res.statusCode).toBe(403);
    const admin = await h.inject({
      method: "GET",
      url: "/api/institution/email/messages",
      headers: { host: a.host, cookie: await adminCookie(h, a) },
    });
    expect(admin.statusCode).toBe(200);
  });
});
