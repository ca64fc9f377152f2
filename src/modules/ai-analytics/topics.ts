/**
 * Topics of AI questions, without any model call: the stemmed lexemes (PostgreSQL `to_tsvector`) of what the caller
 * wrote, in the language whose stop words fit the text best. A run adds them to its conversation's `topics` and to
 * the daily rollup (ai_topics_daily) in its settling transaction; the report reads only the rollup, a bounded number
 * of rows (days × topics), never messages: topics are stems, not text, so no sealed content leaks through them.
 */
import { sql } from "drizzle-orm";
import { type Static, Type } from "typebox";
import type { Executor } from "../../db/client.js";
import { queryRows } from "../../db/rows.js";
import { Uuid } from "../../platform/http/schemas.js";
import { TS_CONFIG } from "../rag/indexing.js";
import { LANGUAGES, type Language } from "../rag/schemas.js";
import { NONE } from "./ledger.js";
import { Day } from "./schemas.js";
import { usageWindow } from "./usage.js";

/** Topics one question yields, and one conversation keeps, at most. */
export const TOPICS_PER_MESSAGE = 5;
export const TOPICS_PER_CONVERSATION = 20;
/** Lexemes shorter than this are dropped, as are those with a digit. */
const MIN_TOPIC_CHARS = 3;
/** The text a question is read from, at most (the start of it). */
const MAX_TOPIC_TEXT = 4_000;

export const TopicsQuery = Type.Object(
  {
    from: Type.Optional(Day),
    to: Type.Optional(Day),
    courseId: Type.Optional(Uuid),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
  },
  { additionalProperties: false },
);
export type TopicsQueryInput = Static<typeof TopicsQuery>;

export const TopicsReport = Type.Object(
  {
    data: Type.Array(
      Type.Object(
        {
          topic: Type.String({ description: "A stem, as the text-search configuration makes it (`grup`)." }),
          count: Type.Integer({ minimum: 0, description: "Questions that yielded the topic." }),
          conversations: Type.Integer({
            minimum: 0,
            description: "Conversations the topic first appeared in, in the period.",
          }),
        },
        { additionalProperties: false },
      ),
    ),
    period: Type.Object(
      { from: Type.String({ format: "date" }), to: Type.String({ format: "date" }) },
      { additionalProperties: false },
    ),
  },
  {
    additionalProperties: false,
    examples: [
      {
        data: [{ topic: "grup", count: 12, conversations: 9 }],
        period: { from: "2026-11-01", to: "2026-11-30" },
      },
    ],
  },
);
type TopicsReportRecord = Static<typeof TopicsReport>;

/** The institution's locale's language first (`pt-BR` → pt), then English, then the others: ties go in that order. */
function candidates(locale: string): string[] {
  const own = locale.slice(0, 2).toLowerCase();
  const order = [own, "en", ...LANGUAGES].filter(
    (l, i, all): l is Language => (LANGUAGES as readonly string[]).includes(l) && all.indexOf(l) === i,
  );
  return order.map((l) => TS_CONFIG[l].native);
}

/**
 * A question's topics: its distinct stems, most frequent first (ties by first position), under the configuration
 * that leaves the fewest lexemes (the one whose stop words the text is written in), less short ones and numbers.
 */
export async function topicsOf(tx: Executor, tenantId: string, text: string): Promise<string[]> {
  const body = text.slice(0, MAX_TOPIC_TEXT);
  if (body.trim() === "") return [];
  const [tenant] = await queryRows<{ locale: string }>(
    tx,
    sql`SELECT default_locale AS locale FROM tenants WHERE id = ${tenantId}`,
  );
  const configs = candidates(tenant?.locale ?? "en");
  const rows = await queryRows<{ topic: string }>(
    tx,
    sql`WITH cfg AS (
        SELECT c::regconfig AS c, ord
        FROM unnest(ARRAY[${sql.join(
          configs.map((c) => sql`${c}`),
          sql`, `,
        )}]::text[]) WITH ORDINALITY AS x(c, ord)),
      pick AS (SELECT c FROM cfg ORDER BY length(to_tsvector(c, ${body})), ord LIMIT 1)
      SELECT l.lexeme AS topic FROM pick, unnest(to_tsvector(pick.c, ${body})) AS l
      WHERE char_length(l.lexeme) >= ${MIN_TOPIC_CHARS} AND l.lexeme !~ '[0-9]'
      ORDER BY cardinality(l.positions) DESC, l.positions[1], l.lexeme
      LIMIT ${TOPICS_PER_MESSAGE}`,
  );
  return rows.map((r) => r.topic);
}

/**
 * Adds a question's topics to its conversation (those it did not have yet, up to the cap) and to the day's rollup:
 * `count` once per question, `conversations` once per conversation the topic is new to.
 */
export async function recordTopics(
  tx: Executor,
  e: { tenantId: string; conversationId: string; courseId: string | null; topics: string[]; known: string[] },
): Promise<void> {
  if (e.topics.length === 0) return;
  const fresh = e.topics.filter((t) => !e.known.includes(t));
  const kept = [...e.known, ...fresh].slice(0, TOPICS_PER_CONVERSATION);
  if (fresh.length > 0 && kept.length > e.known.length) {
    await tx.execute(sql`UPDATE ai_conversations SET topics = ARRAY[${sql.join(
      kept.map((t) => sql`${t}`),
      sql`, `,
    )}]::text[]
      WHERE tenant_id = ${e.tenantId} AND id = ${e.conversationId}`);
  }
  // In one order for every run, so concurrent runs lock the rollup's rows in the same order and never deadlock.
  const rows = [...e.topics].sort().map((t) => sql`(${t}::text, ${fresh.includes(t) ? 1 : 0}::int)`);
  await tx.execute(sql`INSERT INTO ai_topics_daily AS d (tenant_id, day, course_id, topic, count, conversations)
    SELECT ${e.tenantId}, (now() AT TIME ZONE t.timezone)::date, ${e.courseId ?? NONE}, v.topic, 1, v.fresh
    FROM tenants t, (VALUES ${sql.join(rows, sql`, `)}) AS v(topic, fresh) WHERE t.id = ${e.tenantId}
    ON CONFLICT (tenant_id, day, course_id, topic) DO UPDATE SET
      count = d.count + 1, conversations = d.conversations + excluded.conversations`);
}

/** The most frequent topics in the window (and course), from the rollup only. */
export async function topics(
  db: Executor,
  tenantId: string,
  query: TopicsQueryInput,
): Promise<TopicsReportRecord> {
  const [tenant] = await queryRows<{ today: string }>(
    db,
    sql`SELECT (now() AT TIME ZONE timezone)::date::text AS today FROM tenants WHERE id = ${tenantId}`,
  );
  if (tenant === undefined) throw new Error("tenant vanished during the request");
  const window = usageWindow(query, tenant.today);
  const course = query.courseId === undefined ? sql`` : sql` AND d.course_id = ${query.courseId}`;
  const rows = await queryRows<{ topic: string; count: number; conversations: number }>(
    db,
    sql`SELECT d.topic, sum(d.count)::float8 AS count, sum(d.conversations)::float8 AS conversations
      FROM ai_topics_daily d
      WHERE d.tenant_id = ${tenantId} AND d.day BETWEEN ${window.from}::date AND ${window.to}::date${course}
      GROUP BY d.topic ORDER BY 2 DESC, d.topic LIMIT ${query.limit ?? 20}`,
  );
  return {
    data: rows.map((r) => ({
      topic: r.topic,
      count: Number(r.count),
      conversations: Number(r.conversations),
    })),
    period: window,
  };
}
