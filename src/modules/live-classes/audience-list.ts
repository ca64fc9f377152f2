import { type SQL, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import { qualified } from "../../db/qualified.js";
import { classGroupMembers, enrollments, liveClasses } from "../../db/schema/index.js";
import { type CappedTotal, capTotal, TOTAL_CAP } from "../../platform/pagination/capped.js";
import type { PageWindow } from "../../platform/pagination/pagination.js";

/**
 * A student's live classes list (issue 20). Its audience is the classes it hosts, co-hosts or is invited to and
 * those of its courses (active or completed enrollments) and class groups. As one filter on the list's walk, a
 * student of a few hundred classes in a tenant of 50,000 read the tenant's classes until enough of them were
 * its own, and its total counted them all. Here each part of the audience is read on its own through an index
 * that finds it (the host's and each course's and group's classes in start order, the arrays through GIN, per
 * migration 0044), cut to what the page needs, and the parts are merged: the work grows with the student's
 * courses and groups and with the page, not with the institution.
 */

export type Sort = "startsAt" | "-startsAt" | "createdAt" | "-createdAt";

const column = {
  id: qualified(liveClasses.id),
  startsAt: qualified(liveClasses.startsAt),
  createdAt: qualified(liveClasses.createdAt),
};

/** The order of a part (on live_classes) and of the merge (on the parts' rows, `audience`). */
const ORDER: Record<Sort, { part: SQL; merged: SQL }> = {
  startsAt: {
    part: sql`${column.startsAt}, ${column.id}`,
    merged: sql`audience.starts_at, audience.id`,
  },
  "-startsAt": {
    part: sql`${column.startsAt} DESC, ${column.id} DESC`,
    merged: sql`audience.starts_at DESC, audience.id DESC`,
  },
  createdAt: {
    part: sql`${column.createdAt}, ${column.id}`,
    merged: sql`audience.created_at, audience.id`,
  },
  "-createdAt": {
    part: sql`${column.createdAt} DESC, ${column.id} DESC`,
    merged: sql`audience.created_at DESC, audience.id DESC`,
  },
};

/**
 * The parts of `userId`'s audience among the classes matching `where` (the list's other filters, the tenant's
 * included), each `SELECT <columns> … <tail>`: the classes it hosts, co-hosts, is invited to, and, for each of its
 * courses and groups, theirs. A class in several parts is in several; the caller's UNION keeps it once.
 */
function parts(tenantId: string, where: SQL, userId: string, columns: SQL, tail: SQL): SQL[] {
  const user = sql`${userId}::uuid`;
  const own = (condition: SQL) =>
    sql`(SELECT ${columns} FROM ${liveClasses} WHERE ${where} AND ${condition} ${tail})`;
  return [
    own(sql`${qualified(liveClasses.hostUserId)} = ${user}`),
    // `@>` rather than `= ANY (…)`: the form the arrays' GIN indexes answer.
    own(sql`${qualified(liveClasses.coHostIds)} @> ARRAY[${user}]`),
    own(sql`${qualified(liveClasses.inviteeIds)} @> ARRAY[${user}]`),
    sql`(SELECT part.* FROM ${enrollments} e
          CROSS JOIN LATERAL ${own(sql`${qualified(liveClasses.courseId)} = e.course_id`)} part
        WHERE e.tenant_id = ${tenantId} AND e.user_id = ${user} AND e.status IN ('active', 'completed'))`,
    sql`(SELECT part.* FROM ${classGroupMembers} m
          CROSS JOIN LATERAL ${own(sql`${qualified(liveClasses.classGroupId)} = m.class_group_id`)} part
        WHERE m.tenant_id = ${tenantId} AND m.user_id = ${user})`,
  ];
}

/**
 * The ids of the page's classes, in the list's order, for the page statement to read (`id IN (…)`). Each part
 * is cut to `offset + limit` rows of its order: no row past that in any part can be on the page.
 */
export function pageIds(tenantId: string, where: SQL, userId: string, sort: Sort, window: PageWindow): SQL {
  const order = ORDER[sort];
  const columns = sql`${column.id}, ${column.startsAt}, ${column.createdAt}`;
  const tail = sql`ORDER BY ${order.part} LIMIT ${window.offset + window.limit}`;
  const merged = sql.join(parts(tenantId, where, userId, columns, tail), sql` UNION `);
  return sql`SELECT audience.id FROM (${merged}) AS audience
    ORDER BY ${order.merged} LIMIT ${window.limit} OFFSET ${window.offset}`;
}

/** The student's matching classes, counted up to the cap: each part stops there, and so does their union. */
export async function countAudience(
  db: Executor,
  tenantId: string,
  where: SQL,
  userId: string,
): Promise<CappedTotal> {
  const cap = sql`LIMIT ${TOTAL_CAP + 1}`;
  const merged = sql.join(parts(tenantId, where, userId, column.id, cap), sql` UNION `);
  const result = (await db.execute(
    sql`SELECT count(*)::int AS n FROM (SELECT audience.id FROM (${merged}) AS audience ${cap}) AS capped`,
  )) as unknown as { rows: { n: number }[] };
  return capTotal(result.rows[0]?.n ?? 0);
}
