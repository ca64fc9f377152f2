import { and, asc, eq, gt, isNotNull, lt, type SQL, sql } from "drizzle-orm";
import { type Static, Type } from "typebox";
import type { Executor } from "../../db/client.js";
import { platformEvents } from "../../db/schema/index.js";
import { validationError } from "../../platform/errors/app-error.js";
import { StringEnum } from "../../platform/http/schemas.js";
import { EVENT_TYPES } from "./catalogue.js";

export const MAX_EVENTS_PER_PAGE = 100;

export const ListEventsQuery = Type.Object(
  {
    type: Type.Optional(StringEnum(EVENT_TYPES, { description: "Only events of this type." })),
    userId: Type.Optional(Type.String({ format: "uuid", description: "Only events about this user." })),
    since: Type.Optional(
      Type.String({
        format: "date-time",
        description: "Only events that occurred at or after this instant.",
      }),
    ),
    until: Type.Optional(
      Type.String({ format: "date-time", description: "Only events that occurred before this instant." }),
    ),
    after: Type.Optional(
      Type.String({
        format: "uuid",
        description: "An event's id (a page's `pagination.next`): only the events that come after it.",
      }),
    ),
    perPage: Type.Optional(
      Type.Integer({ minimum: 1, maximum: MAX_EVENTS_PER_PAGE, default: 50, description: "At most 100." }),
    ),
  },
  { additionalProperties: false },
);
export type ListEventsQueryType = Static<typeof ListEventsQuery>;

export interface EventRow {
  id: string;
  type: string;
  schemaVersion: number;
  occurredAt: string;
  actor: unknown;
  user: unknown;
  data: unknown;
}

/** An event as the API answers it (GET /events and GET /events/:id). */
export const EVENT_COLUMNS = {
  id: platformEvents.id,
  type: platformEvents.type,
  schemaVersion: platformEvents.schemaVersion,
  occurredAt: platformEvents.occurredAt,
  actor: platformEvents.actor,
  user: platformEvents.subject,
  data: platformEvents.data,
};

/** Events within the retention period (the purge deletes older ones daily; reads never show them). */
export const retained = (days: number) =>
  gt(platformEvents.occurredAt, sql`now() - make_interval(days => ${days})`);

/**
 * A page of the tenant's events, oldest first in (occurred_at, id) order, from the event named by `after`: that
 * order never changes as events are added (they come after), so a receiver that was down reads on from its last
 * event and misses none. Each filter has an index in this order (migration 0035): a page reads its rows and one
 * more, whatever the tenant's history.
 */
export async function listEvents(
  db: Executor,
  tenantId: string,
  query: ListEventsQueryType,
  retentionDays: number,
): Promise<{ data: EventRow[]; pagination: { perPage: number; next: string | null } }> {
  const perPage = query.perPage ?? 50;
  const conditions: (SQL | undefined)[] = [eq(platformEvents.tenantId, tenantId), retained(retentionDays)];
  if (query.type !== undefined) conditions.push(eq(platformEvents.type, query.type));
  if (query.userId !== undefined) {
    conditions.push(isNotNull(platformEvents.subject));
    conditions.push(sql`(${platformEvents.subject} ->> 'id') = ${query.userId.toLowerCase()}`);
  }
  if (query.since !== undefined) conditions.push(sql`${platformEvents.occurredAt} >= ${query.since}`);
  if (query.until !== undefined) conditions.push(lt(platformEvents.occurredAt, query.until));
  if (query.after !== undefined) {
    const [cursor] = await db
      .select({ occurredAt: platformEvents.occurredAt })
      .from(platformEvents)
      .where(and(eq(platformEvents.tenantId, tenantId), eq(platformEvents.id, query.after.toLowerCase())));
    if (cursor === undefined) throw validationError("after", "field.unknown_cursor");
    // A row comparison, which the index takes as a bound (an OR of the two cases would be a filter, reading
    // every earlier event of the tenant).
    conditions.push(
      sql`(${platformEvents.occurredAt}, ${platformEvents.id}) > (${cursor.occurredAt}::timestamptz, ${query.after.toLowerCase()}::uuid)`,
    );
  }
  const rows = await db
    .select(EVENT_COLUMNS)
    .from(platformEvents)
    .where(and(...conditions))
    .orderBy(asc(platformEvents.occurredAt), asc(platformEvents.id))
    .limit(perPage + 1);
  const more = rows.length > perPage;
  const data = more ? rows.slice(0, perPage) : rows;
  return { data, pagination: { perPage, next: more ? (data[data.length - 1]?.id ?? null) : null } };
}
