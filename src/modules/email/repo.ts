import { and, asc, eq, inArray, notInArray, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import { readCounter } from "../../db/counters.js";
import { emailMessages, emailTemplates, tenants } from "../../db/schema/index.js";
import type { TemplateContent } from "./defaults.js";

export interface InstitutionMailInfo {
  name: string;
  defaultLocale: string;
  timezone: string;
}

export async function institutionInfo(db: Executor, tenantId: string): Promise<InstitutionMailInfo> {
  const rows = await db
    .select({ name: tenants.name, defaultLocale: tenants.defaultLocale, timezone: tenants.timezone })
    .from(tenants)
    .where(eq(tenants.id, tenantId));
  return rows[0] ?? { name: "", defaultLocale: "pt-BR", timezone: "UTC" };
}

// --- templates -------------------------------------------------------------------------------------------------

export interface StoredTemplate extends TemplateContent {
  key: string;
  locale: string;
  updatedAt: string;
}

const templateColumns = {
  key: emailTemplates.key,
  locale: emailTemplates.locale,
  subject: emailTemplates.subject,
  bodyHtml: emailTemplates.bodyHtml,
  bodyText: emailTemplates.bodyText,
  updatedAt: emailTemplates.updatedAt,
};

export async function findOverride(
  db: Executor,
  tenantId: string,
  key: string,
  locale: string,
): Promise<StoredTemplate | undefined> {
  const rows = await db
    .select(templateColumns)
    .from(emailTemplates)
    .where(
      and(
        eq(emailTemplates.tenantId, tenantId),
        eq(emailTemplates.key, key),
        eq(emailTemplates.locale, locale),
      ),
    );
  return rows[0];
}

/** One key's stored versions, one per locale at most. */
export async function listOverrides(db: Executor, tenantId: string, key: string): Promise<StoredTemplate[]> {
  return db
    .select(templateColumns)
    .from(emailTemplates)
    .where(and(eq(emailTemplates.tenantId, tenantId), eq(emailTemplates.key, key)))
    .orderBy(asc(emailTemplates.key), asc(emailTemplates.locale));
}

/**
 * The tenant's versions of these keys (the built-in ones: at most keys × locales rows), through the primary key.
 * Unordered: the caller places them by key and locale.
 */
export async function overridesOf(
  db: Executor,
  tenantId: string,
  keys: readonly string[],
  locale?: string,
): Promise<StoredTemplate[]> {
  return db
    .select(templateColumns)
    .from(emailTemplates)
    .where(
      and(
        eq(emailTemplates.tenantId, tenantId),
        inArray(emailTemplates.key, [...keys]),
        locale === undefined ? undefined : eq(emailTemplates.locale, locale),
      ),
    );
}

/**
 * A page of the tenant's stored templates of other keys than `builtIn` (its `custom.*` ones), by key and locale:
 * through the primary key, or (tenant_id, locale, key) for one locale.
 */
export async function customTemplatesPage(
  db: Executor,
  tenantId: string,
  builtIn: readonly string[],
  locale: string | undefined,
  window: { limit: number; offset: number },
): Promise<StoredTemplate[]> {
  return db
    .select(templateColumns)
    .from(emailTemplates)
    .where(
      and(
        eq(emailTemplates.tenantId, tenantId),
        notInArray(emailTemplates.key, [...builtIn]),
        locale === undefined ? undefined : eq(emailTemplates.locale, locale),
      ),
    )
    .orderBy(asc(emailTemplates.key), asc(emailTemplates.locale))
    .limit(window.limit)
    .offset(window.offset);
}

/** The tenant's stored templates (overrides and custom ones), in one locale or all: trigger-kept counters (0041). */
export function countStoredTemplates(db: Executor, tenantId: string, locale?: string): Promise<number> {
  return readCounter(
    db,
    tenantId,
    locale === undefined ? "email_templates" : `email_templates:locale:${locale}`,
  );
}

export async function upsertOverride(
  db: Executor,
  tenantId: string,
  key: string,
  locale: string,
  content: TemplateContent,
): Promise<void> {
  await db
    .insert(emailTemplates)
    .values({ tenantId, key, locale, ...content })
    .onConflictDoUpdate({
      target: [emailTemplates.tenantId, emailTemplates.key, emailTemplates.locale],
      set: { ...content, updatedAt: sql`now()` },
    });
}

/** Deletes the tenant's version of a key in one locale, or in every locale; answers how many went. */
export async function deleteOverrides(
  db: Executor,
  tenantId: string,
  key: string,
  locale?: string,
): Promise<number> {
  const rows = await db
    .delete(emailTemplates)
    .where(
      and(
        eq(emailTemplates.tenantId, tenantId),
        eq(emailTemplates.key, key),
        locale === undefined ? undefined : eq(emailTemplates.locale, locale),
      ),
    )
    .returning({ key: emailTemplates.key });
  return rows.length;
}

// --- messages --------------------------------------------------------------------------------------------------

export interface NewMessage {
  id: string;
  /** NULL (with `bodySealed`) for mail the worker composes when it sends. */
  messageId: string | null;
  templateKey: string | null;
  locale: string;
  toUserId: string | null;
  toEmail: string;
  subject: string;
  bodySealed: string | null;
  triggeredBy: "system" | "api";
  attachments?: { kind: string; id: string }[];
}

export async function insertMessages(db: Executor, tenantId: string, rows: NewMessage[]): Promise<void> {
  if (rows.length === 0) return;
  await db.insert(emailMessages).values(rows.map((r) => ({ tenantId, ...r })));
}

export const messageColumns = {
  id: emailMessages.id,
  messageId: emailMessages.messageId,
  templateKey: emailMessages.templateKey,
  locale: emailMessages.locale,
  toUserId: emailMessages.toUserId,
  toEmail: emailMessages.toEmail,
  subject: emailMessages.subject,
  status: emailMessages.status,
  triggeredBy: emailMessages.triggeredBy,
  attempts: emailMessages.attempts,
  nextAttemptAt: emailMessages.nextAttemptAt,
  lastError: emailMessages.lastError,
  sentAt: emailMessages.sentAt,
  bouncedAt: emailMessages.bouncedAt,
  createdAt: emailMessages.createdAt,
  updatedAt: emailMessages.updatedAt,
};

export type MessageRow = {
  id: string;
  messageId: string | null;
  templateKey: string | null;
  locale: string;
  toUserId: string | null;
  toEmail: string;
  subject: string;
  status: string;
  triggeredBy: string;
  attempts: number;
  nextAttemptAt: string;
  lastError: string | null;
  sentAt: string | null;
  bouncedAt: string | null;
  createdAt: string;
  updatedAt: string;
};

export async function findMessage(
  db: Executor,
  tenantId: string,
  id: string,
): Promise<MessageRow | undefined> {
  const rows = await db
    .select(messageColumns)
    .from(emailMessages)
    .where(and(eq(emailMessages.tenantId, tenantId), eq(emailMessages.id, id)));
  return rows[0] as MessageRow | undefined;
}
