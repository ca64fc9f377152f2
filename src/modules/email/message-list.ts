/** The message log's page and its totals, by filter. */
import { and, asc, desc, eq, gte, lt, type SQL } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import { readCounter, soleFilter } from "../../db/counters.js";
import { emailMessages } from "../../db/schema/index.js";
import {
  type CappedTotal,
  countCapped,
  counterAndCapped,
  exactTotal,
} from "../../platform/pagination/capped.js";
import type { PageWindow } from "../../platform/pagination/pagination.js";
import { type MessageRow, messageColumns } from "./repo.js";

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

const NEWEST_FIRST = [desc(emailMessages.createdAt), desc(emailMessages.id)];

export async function listMessagePage(
  db: Executor,
  tenantId: string,
  filter: MessageFilter,
  sort: "createdAt" | "-createdAt",
  window: PageWindow,
): Promise<MessageRow[]> {
  const order = sort === "createdAt" ? [asc(emailMessages.createdAt), asc(emailMessages.id)] : NEWEST_FIRST;
  return db
    .select(messageColumns)
    .from(emailMessages)
    .where(messageWhere(tenantId, filter))
    .orderBy(...order)
    .limit(window.limit)
    .offset(window.offset) as Promise<MessageRow[]>;
}

/** The filters a counter answers alone, and the column its bucket is named after. */
const COUNTED_FILTERS: Partial<Record<keyof MessageFilter, string>> = {
  status: "status",
  templateKey: "template_key",
};

/**
 * The unfiltered total and one status's or one template's are the trigger-kept counters (`email_messages`,
 * `email_messages:status:<s>`, `email_messages:template_key:<key>`, migration 0057), exact; other filters count
 * their matches up to the platform's cap, walking the newest first through the tenant-leading indexes
 * (`countCapped`), but for a `since` alone older than all but the cap's worth of messages, which is the counter
 * less those before it.
 */
export async function countMessages(
  db: Executor,
  tenantId: string,
  filter: MessageFilter,
): Promise<CappedTotal> {
  if (Object.values(filter).every((v) => v === undefined)) {
    return exactTotal(await readCounter(db, tenantId, "email_messages"));
  }
  const sole = soleFilter(filter);
  const bucket = sole === undefined ? undefined : COUNTED_FILTERS[sole[0]];
  if (sole !== undefined && bucket !== undefined) {
    return exactTotal(await readCounter(db, tenantId, `email_messages:${bucket}:${sole[1]}`));
  }
  if (sole?.[0] === "since") {
    // An old date: every message but the few before it, which are counted instead.
    const before = and(eq(emailMessages.tenantId, tenantId), lt(emailMessages.createdAt, sole[1])) as SQL;
    const { stored, counted } = await counterAndCapped(
      db,
      tenantId,
      "email_messages",
      emailMessages,
      before,
      [asc(emailMessages.createdAt), asc(emailMessages.id)],
    );
    if (counted !== undefined) return exactTotal(stored - counted);
  }
  return countCapped(db, emailMessages, messageWhere(tenantId, filter), NEWEST_FIRST);
}
