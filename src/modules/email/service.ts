/**
 * The e-mail group's service: what other modules use to send mail (invitations, password reset), and what the
 * routes call. Mail is written to the outbox in the caller's transaction and sent by the worker.
 */
import type { Config } from "../../config/index.js";
import type { Executor } from "../../db/client.js";
import { DEFAULT_LOCALE, type Locale } from "../../locales/index.js";
import { createKeyring } from "../../platform/crypto/secret-box.js";
import { asLocale, type MailDeps, resolveTemplate } from "./outbox.js";
import { render, type Variables } from "./render.js";
import * as repo from "./repo.js";

export type { AttachmentContext, RenderedAttachment } from "./attachments.js";
export { bounceAuthorized, getMessage, listMessages, recordBounce, sendMessages } from "./messages.js";
export {
  asLocale,
  enqueueComposedMail,
  enqueueTemplateMail,
  formatDate,
  type MailDeps,
  maskEmail,
} from "./outbox.js";
export {
  createCustomTemplate,
  deleteTemplate,
  getTemplateSet,
  listTemplates,
  previewTemplate,
  putTemplate,
} from "./templates.js";

export function mailDepsOf(config: Config, origin: string): MailDeps {
  const { current, previous } = config.secrets.encryptionKeys;
  return { keyring: createKeyring(current, previous), origin, messageIdDomain: config.mail.messageIdDomain };
}

export async function institutionLocale(db: Executor, tenantId: string): Promise<Locale> {
  return asLocale((await repo.institutionInfo(db, tenantId)).defaultLocale) ?? DEFAULT_LOCALE;
}

/** The settings' `general.timezone` (the tenant row's), for dates written in mail. */
export async function institutionTimeZone(db: Executor, tenantId: string): Promise<string> {
  return (await repo.institutionInfo(db, tenantId)).timezone;
}

export async function institutionName(db: Executor, tenantId: string): Promise<string> {
  return (await repo.institutionInfo(db, tenantId)).name;
}

/** Resolves and renders a template without writing anything (the password reset's unknown-address path). */
export async function renderTemplate(
  db: Executor,
  tenantId: string,
  key: string,
  locale: Locale,
  variables: Variables,
) {
  const template = await resolveTemplate(db, tenantId, key, locale);
  return template === undefined ? undefined : render(template, variables);
}
