import { and, eq, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import {
  calendarEvents,
  calendarFeeds,
  classGroups,
  courses,
  tenants,
  users,
} from "../../db/schema/index.js";
import type { CalendarEventRecord } from "./schemas.js";

/** A custom event as read: its zone is the institution's when it has none of its own. */
export const eventColumns = {
  id: calendarEvents.id,
  title: calendarEvents.title,
  description: calendarEvents.description,
  startsAt: calendarEvents.startsAt,
  endsAt: calendarEvents.endsAt,
  allDay: calendarEvents.allDay,
  timezone: sql<string>`coalesce(${calendarEvents.timezone}, ${tenants.timezone})`,
  locationName: calendarEvents.locationName,
  locationAddress: calendarEvents.locationAddress,
  url: calendarEvents.url,
  contextType: calendarEvents.contextType,
  contextId: calendarEvents.contextId,
  recurrence: calendarEvents.recurrence,
  status: calendarEvents.status,
  createdAt: calendarEvents.createdAt,
  updatedAt: calendarEvents.updatedAt,
};

export async function timezoneOf(db: Executor, tenantId: string): Promise<string> {
  const rows = await db.select({ tz: tenants.timezone }).from(tenants).where(eq(tenants.id, tenantId));
  return rows[0]?.tz ?? "UTC";
}

export async function findEvent(
  db: Executor,
  tenantId: string,
  id: string,
  lock = false,
): Promise<CalendarEventRecord | undefined> {
  const query = db
    .select(eventColumns)
    .from(calendarEvents)
    .innerJoin(tenants, eq(tenants.id, calendarEvents.tenantId))
    .where(and(eq(calendarEvents.tenantId, tenantId), eq(calendarEvents.id, id)));
  const rows = lock ? await query.for("update", { of: calendarEvents }) : await query;
  return rows[0] as CalendarEventRecord | undefined;
}

/** The event's own zone (null: it follows the institution's). */
export async function ownTimezone(db: Executor, tenantId: string, id: string): Promise<string | null> {
  const rows = await db
    .select({ tz: calendarEvents.timezone })
    .from(calendarEvents)
    .where(and(eq(calendarEvents.tenantId, tenantId), eq(calendarEvents.id, id)));
  return rows[0]?.tz ?? null;
}

/** Who created the event (null: an API key); undefined when there is no such event. */
export async function creatorOf(
  db: Executor,
  tenantId: string,
  id: string,
): Promise<string | null | undefined> {
  const rows = await db
    .select({ createdBy: calendarEvents.createdBy })
    .from(calendarEvents)
    .where(and(eq(calendarEvents.tenantId, tenantId), eq(calendarEvents.id, id)));
  return rows[0] === undefined ? undefined : rows[0].createdBy;
}

export type EventValues = Omit<typeof calendarEvents.$inferInsert, "tenantId" | "id">;

export async function insertEvent(db: Executor, tenantId: string, values: EventValues): Promise<string> {
  const rows = await db
    .insert(calendarEvents)
    .values({ tenantId, ...values })
    .returning({ id: calendarEvents.id });
  return (rows[0] as { id: string }).id;
}

export async function updateEvent(db: Executor, tenantId: string, id: string, values: Partial<EventValues>) {
  await db
    .update(calendarEvents)
    .set({ ...values, updatedAt: sql`now()` })
    .where(and(eq(calendarEvents.tenantId, tenantId), eq(calendarEvents.id, id)));
}

export async function deleteEvent(db: Executor, tenantId: string, id: string): Promise<boolean> {
  const rows = await db
    .delete(calendarEvents)
    .where(and(eq(calendarEvents.tenantId, tenantId), eq(calendarEvents.id, id)))
    .returning({ id: calendarEvents.id });
  return rows.length > 0;
}

/** Whether the context a custom event names exists in this institution. */
export async function contextExists(
  db: Executor,
  tenantId: string,
  type: string,
  id: string,
): Promise<boolean> {
  const table = type === "course" ? courses : type === "class_group" ? classGroups : users;
  const rows = await db
    .select({ id: table.id })
    .from(table)
    .where(and(eq(table.tenantId, tenantId), eq(table.id, id)));
  return rows.length > 0;
}

export async function userExists(db: Executor, tenantId: string, userId: string): Promise<boolean> {
  return contextExists(db, tenantId, "user", userId);
}

export async function findFeed(db: Executor, tenantId: string, userId: string) {
  const rows = await db
    .select({ createdAt: calendarFeeds.createdAt })
    .from(calendarFeeds)
    .where(and(eq(calendarFeeds.tenantId, tenantId), eq(calendarFeeds.userId, userId)));
  return rows[0];
}

/** One feed per user: a new token replaces the old one, which stops working at once. */
export async function upsertFeed(db: Executor, tenantId: string, userId: string, tokenHash: string) {
  const rows = await db
    .insert(calendarFeeds)
    .values({ tenantId, userId, tokenHash })
    .onConflictDoUpdate({
      target: [calendarFeeds.tenantId, calendarFeeds.userId],
      set: { tokenHash, createdAt: sql`now()` },
    })
    .returning({ createdAt: calendarFeeds.createdAt });
  return (rows[0] as { createdAt: string }).createdAt;
}

export async function deleteFeed(db: Executor, tenantId: string, userId: string): Promise<boolean> {
  const rows = await db
    .delete(calendarFeeds)
    .where(and(eq(calendarFeeds.tenantId, tenantId), eq(calendarFeeds.userId, userId)))
    .returning({ userId: calendarFeeds.userId });
  return rows.length > 0;
}

/** The active user a feed token belongs to, in this institution only. */
export async function feedOwner(db: Executor, tenantId: string, tokenHash: string) {
  const rows = await db
    .select({ userId: calendarFeeds.userId, name: users.name })
    .from(calendarFeeds)
    .innerJoin(users, and(eq(users.tenantId, calendarFeeds.tenantId), eq(users.id, calendarFeeds.userId)))
    .where(
      and(
        eq(calendarFeeds.tenantId, tenantId),
        eq(calendarFeeds.tokenHash, tokenHash),
        eq(users.status, "active"),
      ),
    );
  return rows[0];
}
