import { and, asc, desc, eq, gte, type SQL, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import { readCounter } from "../../db/counters.js";
import { emailMessages, emailTemplates, tenants } from "../../db/schema/index.js";
import type { PageWindow } from "../../platform/pagination/pagination.js";
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

/** Every stored template of the tenant (overrides and custom ones): tens of rows, not thousands. */
export async function listOverrides(db: Executor, tenantId: string, key?: string): Promise<StoredTemplate[]> {
  return db
    .select(templateColumns)
    .from(emailTemplates)
    .where(
      and(eq(emailTemplates.tenantId, tenantId), key === undefined ? undefined : eq(emailTemplates.key, key)),
    )
    .orderBy(asc(emailTemplates.key), asc(emailTemplates.locale));
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
  messageId: string;
  templateKey: string | null;
  locale: string;
  toUserId: string | null;
  toEmail: string;
  subject: string;
  bodySealed: string;
  triggeredBy: "system" | "api";
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
  messageId: string;
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

export interface MessageFilter {
  status?: string;
  userId?: string;
  templateKey?: string;
  since?: string;
}

function messageWhere(tenantId: string, f: MessageFilter): SQL {
  return and(
    eq(emailMessages.tenantId, tenantId),
    f.status === undefined ? undefined : eq(emailMessages.status, f.status),
    f.userId === undefined ? undefined : eq(emailMessages.toUserId, f.userId),
    f.templateKey === undefined ? undefined : eq(emailMessages.templateKey, f.templateKey),
    f.since === undefined ? undefined : gte(emailMessages.createdAt, f.since),
  ) as SQL;
}

export async function listMessages(
  db: Executor,
  tenantId: string,
  filter: MessageFilter,
  sort: "createdAt" | "-createdAt",
  window: PageWindow,
): Promise<MessageRow[]> {
  const order =
    sort === "createdAt"
      ? [asc(emailMessages.createdAt), asc(emailMessages.id)]
      : [desc(emailMessages.createdAt), desc(emailMessages.id)];
  return db
    .select(messageColumns)
    .from(emailMessages)
    .where(messageWhere(tenantId, filter))
    .orderBy(...order)
    .limit(window.limit)
    .offset(window.offset) as Promise<MessageRow[]>;
}

/**
 * Exact. Unfiltered and status-filtered totals are the trigger-kept counters (`email_messages`,
 * `email_messages:status:<s>`); other filters count their own matches through the tenant-leading indexes.
 */
export async function countMessages(db: Executor, tenantId: string, filter: MessageFilter): Promise<number> {
  if (filter.userId === undefined && filter.templateKey === undefined && filter.since === undefined) {
    return readCounter(
      db,
      tenantId,
      filter.status === undefined ? "email_messages" : `email_messages:status:${filter.status}`,
    );
  }
  const rows = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(emailMessages)
    .where(messageWhere(tenantId, filter));
  return rows[0]?.n ?? 0;
}

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
