import { and, eq } from "drizzle-orm";
import type { ParsedMail } from "mailparser";
import { beforeAll, describe, expect, it } from "vitest";
import { emailMessages } from "../../db/schema/index.js";
import { bearer, tablesContaining } from "../../test-support/harness.js";
import { useMailKit } from "../../test-support/mail-kit.js";
import type { SmtpSink } from "../../test-support/smtp-sink.js";

const k = useMailKit();
const { h, a, drain, post, get, mailTo, linkIn, email } = k;
let smtp: SmtpSink;
let keyA: string;
beforeAll(() => {
  ({ smtp, keyA } = k);
});

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

    expect(await drain()).toEqual({ sent: 1, retried: 0, failed: 0, suppressed: 0, stale: 0 });
    const mail = mailTo(to);
    // The institution's name on the deployment's address (notifications.senderName is null by default).
    expect(mail.from?.value).toEqual([{ name: "Escola Alfa", address: "no-reply@mail.test" }]);
    expect(mail.replyTo).toBeUndefined();
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

  it("writes the invitation's expiry on the institution's wall clock, naming its zone", async () => {
    const to = email(a);
    // 02:30 UTC a month from now is still the evening before in São Paulo (a's zone, UTC−3, no daylight saving).
    const day = new Date(Math.floor(Date.now() / 86_400_000) * 86_400_000 + 30 * 86_400_000);
    const expiresAt = new Date(day.getTime() + 2.5 * 3_600_000).toISOString();
    const eve = new Date(day.getTime() - 86_400_000);
    const months = "January February March April May June July August September October November December";
    const local = `${months.split(" ")[eve.getUTCMonth()]} ${eve.getUTCDate()}, ${eve.getUTCFullYear()} at 11:30 PM`;
    const res = await post(
      a,
      "/api/institution/invites",
      { email: to, name: "Eva", locale: "en-US", expiresAt },
      bearer(keyA),
    );
    expect(res.statusCode, res.body).toBe(201);
    await drain();
    const text = (mailTo(to).text as string).replace(/\s+/g, " ");
    expect(text).toContain(`valid until ${local} America/Sao_Paulo.`);
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

describe("the institution's sender settings", () => {
  it("sends from notifications.senderName with notifications.replyTo, read when the mail goes out", async () => {
    const b = k.b;
    const to = email(b);
    // Queued before the settings change: the sender is the one in force when the worker sends.
    expect((await post(b, "/api/institution/invites", { email: to }, bearer(k.keyB))).statusCode).toBe(201);
    const patched = await h.inject({
      method: "PATCH",
      url: "/api/institution/settings",
      headers: { host: b.host, "content-type": "application/json", ...bearer(k.keyB) },
      payload: {
        // A line break or address-like text is refused on write (settings/sender-name.test.ts), and cleaned at
        // send time if stored before that rule.
        notifications: { senderName: "Secretaria Beta", replyTo: "office@beta.test" },
      },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(await drain(b)).toEqual({ sent: 1, retried: 0, failed: 0, suppressed: 0, stale: 0 });
    const mail = mailTo(to);
    // The name is one display name on the deployment's address.
    expect(mail.from?.value).toEqual([{ name: "Secretaria Beta", address: "no-reply@mail.test" }]);
    expect(mail.bcc).toBeUndefined();
    expect(mail.headers.has("bcc")).toBe(false);
    expect(mail.replyTo?.value).toEqual([{ name: "", address: "office@beta.test" }]);
  });
});
