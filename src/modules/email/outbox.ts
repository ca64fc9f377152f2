/**
 * Writing mail into the outbox, inside the caller's transaction: the message exists exactly when the change that
 * caused it does (an invitation, a password-reset request, POST /email/messages), and the worker sends it after
 * the commit. Rendering happens here, so what is sent is what the templates said when the change was made; the
 * rendered parts are sealed (they may carry an invitation's or a reset's token).
 */
import { randomUUID } from "node:crypto";
import type { Executor } from "../../db/client.js";
import { DEFAULT_LOCALE, LOCALES, type Locale } from "../../locales/index.js";
import { type Keyring, sealSecret } from "../../platform/crypto/secret-box.js";
import type { AttachmentRef } from "./attachments.js";
import { defaultTemplate, isTemplateKey, type TemplateContent, type TemplateKey } from "./defaults.js";
import { render, type Variables } from "./render.js";
import * as repo from "./repo.js";

/** What a service needs to write mail: the keyring that seals bodies, and the origin links point at. */
export interface MailDeps {
  keyring: Keyring;
  /** `http(s)://tenant-host`, from the request (links in mail go to the institution's own host). */
  origin: string;
  /** The Message-ID domain (config.mail.messageIdDomain). */
  messageIdDomain: string;
}

export interface Recipient {
  userId: string | null;
  email: string;
  name: string;
}

export function asLocale(value: string | null | undefined): Locale | undefined {
  return (LOCALES as readonly string[]).includes(value ?? "") ? (value as Locale) : undefined;
}

/** The tenant's version of a key in a locale, else the built-in one; undefined for an unknown custom key. */
export async function resolveTemplate(
  db: Executor,
  tenantId: string,
  key: string,
  locale: Locale,
): Promise<TemplateContent | undefined> {
  const own = await repo.findOverride(db, tenantId, key, locale);
  if (own !== undefined) return own;
  if (isTemplateKey(key)) return defaultTemplate(key, locale);
  return undefined;
}

export function sealContext(tenantId: string, id: string): string {
  return `email:${tenantId}:${id}`;
}

export interface OutgoingMail {
  tenantId: string;
  templateKey: string | null;
  locale: Locale;
  to: Recipient;
  content: TemplateContent;
  triggeredBy: "system" | "api";
}

/** Seals and writes already-rendered messages (many in one statement); answers their ids. */
export async function writeMessages(tx: Executor, deps: MailDeps, mails: OutgoingMail[]): Promise<string[]> {
  const rows = mails.map((m) => {
    const id = randomUUID();
    const body = JSON.stringify({ html: m.content.bodyHtml, text: m.content.bodyText });
    return {
      tenantId: m.tenantId,
      row: {
        id,
        messageId: `<${id}@${deps.messageIdDomain}>`,
        templateKey: m.templateKey,
        locale: m.locale,
        toUserId: m.to.userId,
        toEmail: m.to.email,
        subject: m.content.subject,
        bodySealed: sealSecret(body, deps.keyring, sealContext(m.tenantId, id)),
        triggeredBy: m.triggeredBy,
      },
    };
  });
  const tenantId = rows[0]?.tenantId;
  if (tenantId === undefined) return [];
  await repo.insertMessages(
    tx,
    tenantId,
    rows.map((r) => r.row),
  );
  return rows.map((r) => r.row.id);
}

/**
 * Renders a template for one recipient and writes it to the outbox. The locale asked for, else the institution's
 * default. `variables` add to the common ones (`name`, `email`, `institutionName`).
 */
export async function enqueueTemplateMail(
  tx: Executor,
  deps: MailDeps,
  input: {
    tenantId: string;
    templateKey: string;
    locale?: string | null;
    to: Recipient;
    variables: Variables;
    triggeredBy?: "system" | "api";
  },
): Promise<string> {
  const institution = await repo.institutionInfo(tx, input.tenantId);
  const locale = asLocale(input.locale) ?? asLocale(institution.defaultLocale) ?? DEFAULT_LOCALE;
  const template = await resolveTemplate(tx, input.tenantId, input.templateKey, locale);
  if (template === undefined) throw new Error(`no template ${input.templateKey}`);
  const content = render(template, {
    ...input.variables,
    name: input.to.name,
    email: input.to.email,
    institutionName: institution.name,
  });
  const [id] = await writeMessages(tx, deps, [
    {
      tenantId: input.tenantId,
      templateKey: input.templateKey,
      locale,
      to: input.to,
      content,
      triggeredBy: input.triggeredBy ?? "system",
    },
  ]);
  return id as string;
}

/**
 * Writes a message the worker composes when it sends, in the caller's transaction: for a change that may have no
 * request behind it (a course completed by a quiz, a path by an attendance sync), so no keyring to seal a body
 * with nor host for its links. Its template is rendered at send time on the institution's own host, with the
 * variables its attachments add; the subject written now (from `variables`) shows in the log until then. Nothing
 * secret may go this way: the variables are not sealed.
 */
export async function enqueueComposedMail(
  tx: Executor,
  input: {
    tenantId: string;
    templateKey: TemplateKey;
    to: Recipient;
    attachments: AttachmentRef[];
    variables: Variables;
  },
): Promise<string> {
  const institution = await repo.institutionInfo(tx, input.tenantId);
  const locale = asLocale(institution.defaultLocale) ?? DEFAULT_LOCALE;
  const template = (await resolveTemplate(tx, input.tenantId, input.templateKey, locale)) as TemplateContent;
  const { subject } = render(template, {
    ...input.variables,
    name: input.to.name,
    email: input.to.email,
    institutionName: institution.name,
  });
  const id = randomUUID();
  await repo.insertMessages(tx, input.tenantId, [
    {
      id,
      messageId: null,
      templateKey: input.templateKey,
      locale,
      toUserId: input.to.userId,
      toEmail: input.to.email,
      subject,
      bodySealed: null,
      triggeredBy: "system",
      attachments: input.attachments,
    },
  ]);
  return id;
}

/** `ana.souza@example.com` → `a***@example.com`: enough to tell messages apart in a list, not to harvest. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf("@");
  if (at <= 0) return "***";
  return `${email[0]}***${email.slice(at)}`;
}

/**
 * A date as people of the locale write it, on the wall clock of `timeZone` (the institution's `general.timezone`),
 * followed by the zone's name so no reader has to guess it.
 */
export function formatDate(iso: string, locale: Locale, timeZone = "UTC"): string {
  const formatted = new Intl.DateTimeFormat(locale, {
    dateStyle: "long",
    timeStyle: "short",
    timeZone,
  }).format(new Date(iso));
  return `${formatted} ${timeZone}`;
}
