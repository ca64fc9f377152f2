/**
 * Where mail goes: an SMTP server through nodemailer when SMTP_URL is set, otherwise `.eml` files (the raw
 * RFC 5322 message nodemailer builds, byte for byte what SMTP would carry) under `<DATA_DIR>/mail/<tenant>/`, so
 * `npm start` works offline and a person can open what was sent.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import nodemailer from "nodemailer";
import type { MailConfig } from "../../config/mail.js";
import type { MailFile } from "./attachments.js";

export interface MailEnvelope {
  tenantId: string;
  id: string;
  messageId: string;
  to: string;
  subject: string;
  html: string;
  text: string;
  /** The institution's display name for From (MAIL_FROM's address); absent, MAIL_FROM as configured. */
  fromName?: string;
  /** The institution's Reply-To (settings `notifications.replyTo`), if any. */
  replyTo?: string;
  /** Files rendered at send time (the outbox row names them; it never holds their bytes). */
  attachments?: MailFile[];
}

/** Why a send failed, and whether trying again can help (SMTP 5xx: no). */
export class SendError extends Error {
  constructor(
    message: string,
    readonly permanent: boolean,
  ) {
    super(message);
  }
}

export interface MailTransport {
  readonly kind: "smtp" | "eml";
  send(mail: MailEnvelope): Promise<void>;
  close(): void;
}

function messageOf(config: MailConfig, mail: MailEnvelope) {
  return {
    // An address object, so nodemailer quotes or encodes the name: an institution's name never becomes a header.
    from: mail.fromName === undefined ? config.from : { name: mail.fromName, address: config.fromAddress },
    ...(mail.replyTo === undefined ? {} : { replyTo: mail.replyTo }),
    to: mail.to,
    subject: mail.subject,
    html: mail.html,
    text: mail.text,
    messageId: mail.messageId,
    headers: { "Auto-Submitted": "auto-generated" },
    ...(mail.attachments === undefined || mail.attachments.length === 0
      ? {}
      : { attachments: mail.attachments.map((f) => ({ ...f })) }),
  };
}

/** An SMTP error as a short line: the server's reply code and text, never the credentials in the URL. */
function describe(err: unknown): SendError {
  const e = err as { responseCode?: number; response?: string; code?: string; message?: string };
  const code = typeof e.responseCode === "number" ? e.responseCode : undefined;
  const text = (e.response ?? e.code ?? e.message ?? "send failed")
    .toString()
    .replace(/\s+/g, " ")
    .slice(0, 300);
  return new SendError(code === undefined ? text : `${code} ${text}`, code !== undefined && code >= 500);
}

export function createMailTransport(config: MailConfig): MailTransport | undefined {
  if (config.smtpUrl !== undefined) {
    const smtp = nodemailer.createTransport(config.smtpUrl);
    return {
      kind: "smtp",
      async send(mail) {
        try {
          await smtp.sendMail(messageOf(config, mail));
        } catch (err) {
          throw describe(err);
        }
      },
      close: () => smtp.close(),
    };
  }
  const dir = config.dir;
  if (dir === undefined) return undefined;
  const stream = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });
  return {
    kind: "eml",
    async send(mail) {
      const info = (await stream.sendMail(messageOf(config, mail))) as { message: Buffer };
      const folder = join(dir, mail.tenantId);
      await mkdir(folder, { recursive: true, mode: 0o700 });
      // The file carries the mail's links (an invitation's token): readable by the service's user only.
      await writeFile(join(folder, `${mail.id}.eml`), info.message, { mode: 0o600 });
    },
    close: () => stream.close(),
  };
}
