/**
 * Conversation records: prompt runs that continue one another, with their counters and their messages. Messages
 * are personal data: sealed at rest (bound to their row, so a copied value does not open elsewhere), capped in
 * number and size, and opened only for an administrator's session (the route decides; see routes.ts).
 */
import { randomUUID } from "node:crypto";
import { type SQL, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import { readCounter } from "../../db/counters.js";
import { queryRows } from "../../db/rows.js";
import { type Keyring, openSecret, sealSecret } from "../../platform/crypto/secret-box.js";
import { AppError, notFound } from "../../platform/errors/app-error.js";
import {
  type CappedTotal,
  cappedPageEnvelope,
  capTotal,
  exactTotal,
  TOTAL_CAP,
  totalFromPage,
} from "../../platform/pagination/capped.js";
import { pageWindow } from "../../platform/pagination/pagination.js";
import {
  type ConversationRecord,
  type ListConversationsInput,
  MAX_MESSAGE_CHARS,
  MAX_MESSAGES,
  type MessageRecord,
} from "./schemas.js";
import { recordTopics, topicsOf } from "./topics.js";

const iso = (column: string) =>
  sql.raw(`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`);

const SELECT = sql`SELECT c.id, c.user_id AS "userId", c.course_id AS "courseId", c.lesson_id AS "lessonId",
  c.feature, ${iso("c.started_at")} AS "startedAt", ${iso("c.last_message_at")} AS "lastMessageAt",
  c.message_count AS "messageCount", c.credits::float8 AS credits, c.rating, c.flagged, c.topics
  FROM ai_conversations c`;

const context = (tenantId: string, conversationId: string, seq: number) =>
  `ai_message:${tenantId}:${conversationId}:${seq}`;

/**
 * The conversation a run continues (its caller's own, with room for two more messages), or a new id when the run
 * names none. Another user's conversation, or another institution's, is 404 like an unknown one.
 */
export async function conversationFor(
  db: Executor,
  tenantId: string,
  userId: string | null,
  conversationId: string | undefined,
): Promise<string> {
  if (conversationId === undefined) return randomUUID();
  const [row] = await queryRows<{ messageCount: number }>(
    db,
    sql`SELECT message_count AS "messageCount" FROM ai_conversations
      WHERE tenant_id = ${tenantId} AND id = ${conversationId}
        AND user_id IS NOT DISTINCT FROM ${userId}::uuid`,
  );
  if (row === undefined) throw notFound();
  if (row.messageCount + 2 > MAX_MESSAGES) throw new AppError("conflict");
  return conversationId;
}

export interface Exchange {
  tenantId: string;
  conversationId: string;
  userId: string | null;
  courseId: string | null;
  lessonId: string | null;
  feature: string;
  credits: number;
  prompt: string;
  answer: string;
  /** What the caller wrote (the run's values), read for topics; the template's own words are not the question. */
  question: string;
}

/**
 * Adds a completed run's two messages to its conversation (creating it on the first), inside the run's settling
 * transaction. The row's update takes its lock, so concurrent runs of one conversation number their messages one
 * after the other; a run that finds the conversation full by then (a race past the check) stores no message.
 */
export async function recordExchange(tx: Executor, keyring: Keyring, e: Exchange): Promise<void> {
  const [row] = await queryRows<{ count: number; topics: string[] }>(
    tx,
    sql`INSERT INTO ai_conversations AS c (tenant_id, id, user_id, course_id, lesson_id, feature, message_count, credits)
      VALUES (${e.tenantId}, ${e.conversationId}, ${e.userId}, ${e.courseId}, ${e.lessonId}, ${e.feature}, 2,
        ${e.credits})
      ON CONFLICT (tenant_id, id) DO UPDATE SET message_count = c.message_count + 2,
        credits = c.credits + excluded.credits, last_message_at = now()
      WHERE c.message_count + 2 <= ${MAX_MESSAGES}
      RETURNING c.message_count AS count, c.topics`,
  );
  if (row === undefined) return;
  const topics = await topicsOf(tx, e.tenantId, e.question);
  await recordTopics(tx, { ...e, topics, known: row.topics });
  const messages: [number, string, string][] = [
    [row.count - 1, "user", e.prompt],
    [row.count, "assistant", e.answer],
  ];
  for (const [seq, role, text] of messages) {
    const sealed = sealSecret(
      text.slice(0, MAX_MESSAGE_CHARS),
      keyring,
      context(e.tenantId, e.conversationId, seq),
    );
    await tx.execute(sql`INSERT INTO ai_conversation_messages (tenant_id, conversation_id, seq, role, content)
      VALUES (${e.tenantId}, ${e.conversationId}, ${seq}, ${role}, ${sealed})`);
  }
}

async function capped(db: Executor, from: SQL): Promise<CappedTotal> {
  const [row] = await queryRows<{ n: number }>(
    db,
    sql`SELECT count(*)::int AS n FROM (${from} LIMIT ${TOTAL_CAP + 1}) c`,
  );
  return capTotal(row?.n ?? 0);
}

/**
 * The counter (migration 0067, written at commit) that answers the filter: none or one of user, course, feature and
 * flag, without a time window. Other combinations count up to the cap.
 */
function conversationsCounter(q: ListConversationsInput): string | undefined {
  if (q.from !== undefined || q.to !== undefined) return undefined;
  const given = [
    q.userId === undefined ? undefined : `user_id:${q.userId.toLowerCase()}`,
    q.courseId === undefined ? undefined : `course_id:${q.courseId.toLowerCase()}`,
    q.feature === undefined ? undefined : `feature:${q.feature}`,
    q.flagged === undefined ? undefined : `flagged:${q.flagged}`,
  ].filter((bucket) => bucket !== undefined);
  if (given.length > 1) return undefined;
  return given[0] === undefined ? "ai_conversations" : `ai_conversations:${given[0]}`;
}

/** Newest activity first; each filter walks its own (tenant, filter, last_message_at, id) index. */
export async function listConversations(db: Executor, tenantId: string, q: ListConversationsInput) {
  const w = pageWindow(q);
  const where = sql`c.tenant_id = ${tenantId}
    ${q.userId === undefined ? sql`` : sql`AND c.user_id = ${q.userId}`}
    ${q.courseId === undefined ? sql`` : sql`AND c.course_id = ${q.courseId}`}
    ${q.feature === undefined ? sql`` : sql`AND c.feature = ${q.feature}`}
    ${q.flagged === undefined ? sql`` : q.flagged ? sql`AND c.flagged` : sql`AND NOT c.flagged`}
    ${q.from === undefined ? sql`` : sql`AND c.last_message_at >= ${q.from}::timestamptz`}
    ${q.to === undefined ? sql`` : sql`AND c.last_message_at < ${q.to}::timestamptz`}`;
  const order = sql`ORDER BY c.last_message_at DESC, c.id DESC`;
  const rows = await queryRows<ConversationRecord>(
    db,
    sql`${SELECT} WHERE ${where} ${order} LIMIT ${w.limit} OFFSET ${w.offset}`,
  );
  const counter = conversationsCounter(q);
  const total =
    totalFromPage(w, rows) ??
    (counter === undefined
      ? await capped(db, sql`SELECT 1 FROM ai_conversations c WHERE ${where} ${order}`)
      : exactTotal(await readCounter(db, tenantId, counter)));
  return cappedPageEnvelope(rows.map(numbers), total, w);
}

const numbers = (c: ConversationRecord): ConversationRecord => ({ ...c, credits: Number(c.credits) });

export async function getConversation(
  db: Executor,
  tenantId: string,
  id: string,
  messages: Keyring | undefined,
): Promise<ConversationRecord & { messages?: MessageRecord[] }> {
  const [row] = await queryRows<ConversationRecord>(
    db,
    sql`${SELECT} WHERE c.tenant_id = ${tenantId} AND c.id = ${id}`,
  );
  if (row === undefined) throw notFound();
  if (messages === undefined) return numbers(row);
  const stored = await queryRows<MessageRecord>(
    db,
    sql`SELECT seq, role, content, ${iso("created_at")} AS "createdAt" FROM ai_conversation_messages
      WHERE tenant_id = ${tenantId} AND conversation_id = ${id} ORDER BY seq LIMIT ${MAX_MESSAGES}`,
  );
  return {
    ...numbers(row),
    messages: stored.map((m) => ({
      ...m,
      content: openSecret(m.content, messages, context(tenantId, id, m.seq)),
    })),
  };
}
