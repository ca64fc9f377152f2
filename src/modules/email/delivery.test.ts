import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { emailMessages, platformEvents, webhookDeliveries } from "../../db/schema/index.js";
import { bearer, json, makeKey, makeTenant, makeUser } from "../../test-support/harness.js";
import { useMailKit } from "../../test-support/mail-kit.js";
import type { SmtpSink } from "../../test-support/smtp-sink.js";
import { type MailTransport, SendError } from "./transport.js";
import { drainMail } from "./worker.js";

const k = useMailKit();
const { h, a, drain, post, get, mailTo } = k;
let smtp: SmtpSink;
let transport: MailTransport;
let keyA: string;
beforeAll(() => {
  ({ smtp, transport, keyA } = k);
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
    expect(await drain()).toEqual({ sent: 0, retried: 1, failed: 0, suppressed: 0, stale: 0 });
    const queued = (await get(a, `/api/institution/email/messages/${id}`, keyA)).json();
    expect(queued).toMatchObject({ status: "queued", attempts: 1 });
    expect(queued.lastError).toContain("451");
    // The first step of the schedule: 60 s from the failure.
    const wait = Date.parse(queued.nextAttemptAt) - Date.now();
    expect(wait).toBeGreaterThan(50_000);
    expect(wait).toBeLessThanOrEqual(60_000);
    expect(await drain()).toEqual({ sent: 0, retried: 0, failed: 0, suppressed: 0, stale: 0 });
    // Time passes: the retry falls due.
    await h.database.db
      .update(emailMessages)
      .set({ nextAttemptAt: new Date(Date.now() - 1000).toISOString() })
      .where(and(eq(emailMessages.tenantId, a.id), eq(emailMessages.id, id)));
    expect(await drain()).toEqual({ sent: 1, retried: 0, failed: 0, suppressed: 0, stale: 0 });
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
    expect(await drain()).toEqual({ sent: 0, retried: 0, failed: 1, suppressed: 0, stale: 0 });
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
    const first = await report(k.bounceSecret);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ id, status: "bounced" });
    expect((await report(k.bounceSecret)).statusCode).toBe(200);
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
      suppressed: 0,
      stale: 0,
    });
    await new Promise((r) => setTimeout(r, 1100));
    expect(await drainMail(h.ctx, transport, { tenantIds: [t.id] })).toEqual({
      sent: 1,
      retried: 0,
      failed: 0,
      suppressed: 0,
      stale: 0,
    });
    release();
    expect(await first).toEqual({ sent: 0, retried: 0, failed: 0, suppressed: 0, stale: 1 });
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
    for (const status of ["queued", "sent", "failed", "bounced", "suppressed"]) {
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
