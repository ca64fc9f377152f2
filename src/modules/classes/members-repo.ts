import { and, asc, desc, eq, inArray, type SQL, sql } from "drizzle-orm";
import { inChunks } from "../../db/chunks.js";
import type { Executor } from "../../db/client.js";
import { readCounter } from "../../db/counters.js";
import { type Bindable, runPageQuery } from "../../db/page-query.js";
import { classGroupMembers, classGroups, tenantCounters, users } from "../../db/schema/index.js";
import { type CappedTotal, exactTotal } from "../../platform/pagination/capped.js";
import type { PageWindow } from "../../platform/pagination/pagination.js";
import type { ClassMemberRecord, MemberRole, MemberSort } from "./member-schemas.js";
import { sortTag } from "./repo.js";

const m = classGroupMembers;

const columns = {
  userId: m.userId,
  name: users.name,
  email: users.email,
  role: m.role,
  joinedAt: m.createdAt,
};

const ORDER: Record<MemberSort, SQL[]> = {
  "-joinedAt": [desc(m.createdAt), desc(m.userId)],
  joinedAt: [asc(m.createdAt), asc(m.userId)],
  name: [sql`aula_fold(${users.name}) ASC`, asc(m.userId)],
  "-name": [sql`aula_fold(${users.name}) DESC`, desc(m.userId)],
};

function where(tenantId: Bindable, filter: { classGroupId?: Bindable; role?: Bindable }): SQL {
  return and(
    eq(m.tenantId, tenantId),
    filter.classGroupId === undefined ? undefined : eq(m.classGroupId, filter.classGroupId),
    filter.role === undefined ? undefined : eq(m.role, filter.role),
  ) as SQL;
}

export async function listMembers(
  db: Executor,
  tenantId: string,
  filter: { classGroupId: string; role?: MemberRole },
  sort: MemberSort,
  window: PageWindow,
): Promise<ClassMemberRecord[]> {
  const list = `class_members_${sortTag(sort)}`;
  const rows = await runPageQuery(db, list, tenantId, { ...filter }, window, (p, name) =>
    db
      .select(columns)
      .from(m)
      .innerJoin(users, and(eq(users.tenantId, m.tenantId), eq(users.id, m.userId)))
      .where(where(p.tenantId, p))
      .orderBy(...ORDER[sort])
      .limit(p.limit)
      .offset(p.offset)
      .prepare(name),
  );
  return rows as ClassMemberRecord[];
}

/** The class's counter, exact, when every member counts; with a role, the class's counter for that role (0045). */
export async function countMembers(
  db: Executor,
  tenantId: string,
  filter: { classGroupId: string; role?: MemberRole },
): Promise<CappedTotal> {
  if (filter.role === undefined) {
    return exactTotal(
      await readCounter(db, tenantId, `class_group_members:class_group_id:${filter.classGroupId}`),
    );
  }
  return exactTotal(
    await readCounter(
      db,
      tenantId,
      `class_group_members:class_group_id+role:${filter.classGroupId.toLowerCase()}:${filter.role}`,
    ),
  );
}

export interface LockedGroup {
  id: string;
  capacity: number | null;
  members: number;
}

/**
 * Locks the class groups in id order (two writers locking the same classes cannot deadlock), then reads their
 * member counts. Every path that adds members takes these locks, so capacity holds under concurrency. The counts
 * are read by a second statement on purpose: under READ COMMITTED a statement sees the data as of its start, so a
 * count read by the locking statement itself would be the one from before it waited for the lock.
 */
export async function lockGroups(
  db: Executor,
  tenantId: string,
  ids: readonly string[],
): Promise<LockedGroup[]> {
  if (ids.length === 0) return [];
  const locked = await db
    .select({ id: classGroups.id, capacity: classGroups.capacity })
    .from(classGroups)
    .where(and(eq(classGroups.tenantId, tenantId), inArray(classGroups.id, [...ids])))
    .orderBy(asc(classGroups.id))
    .for("update");
  if (locked.length === 0) return [];
  const counterOf = (id: string) => `class_group_members:class_group_id:${id}`;
  const counts = await db
    .select({ counter: tenantCounters.counter, value: tenantCounters.value })
    .from(tenantCounters)
    .where(
      and(
        eq(tenantCounters.tenantId, tenantId),
        inArray(
          tenantCounters.counter,
          locked.map((g) => counterOf(g.id)),
        ),
      ),
    );
  const byCounter = new Map(counts.map((c) => [c.counter, c.value]));
  return locked.map((g) => ({ ...g, members: byCounter.get(counterOf(g.id)) ?? 0 }));
}

export interface UserSummary {
  id: string;
  name: string;
  email: string;
  role: string;
}

export async function findUsers(
  db: Executor,
  tenantId: string,
  ids: readonly string[],
): Promise<UserSummary[]> {
  if (ids.length === 0) return [];
  return db
    .select({ id: users.id, name: users.name, email: users.email, role: users.role })
    .from(users)
    .where(and(eq(users.tenantId, tenantId), inArray(users.id, [...ids])));
}

export async function memberIdsAmong(
  db: Executor,
  tenantId: string,
  classGroupId: string,
  userIds: readonly string[],
): Promise<Set<string>> {
  if (userIds.length === 0) return new Set();
  const rows = await db
    .select({ userId: m.userId })
    .from(m)
    .where(and(eq(m.tenantId, tenantId), eq(m.classGroupId, classGroupId), inArray(m.userId, [...userIds])));
  return new Set(rows.map((r) => r.userId));
}

export interface MembershipRow {
  classGroupId: string;
  userId: string;
  role: string;
  joinedAt: string;
}

/** One statement per chunk (BULK_CHUNK rows); a row that already exists (a concurrent add) is left as it is. */
export async function insertMemberships(
  db: Executor,
  tenantId: string,
  rows: readonly { classGroupId: string; userId: string; role: MemberRole }[],
): Promise<MembershipRow[]> {
  // Chunked: below PostgreSQL's parameter limit, and each statement short enough not to hold the event loop.
  return inChunks(rows, (chunk) =>
    db
      .insert(m)
      .values(chunk.map((r) => ({ tenantId, ...r })))
      .onConflictDoNothing()
      .returning({ classGroupId: m.classGroupId, userId: m.userId, role: m.role, joinedAt: m.createdAt }),
  );
}

export async function deleteMemberships(
  db: Executor,
  tenantId: string,
  userId: string,
  classGroupIds: readonly string[],
): Promise<string[]> {
  if (classGroupIds.length === 0) return [];
  const rows = await db
    .delete(m)
    .where(and(eq(m.tenantId, tenantId), eq(m.userId, userId), inArray(m.classGroupId, [...classGroupIds])))
    .returning({ classGroupId: m.classGroupId });
  return rows.map((r) => r.classGroupId);
}

/** Every member of a class as the user they are (`{{user.*}}` of the events their removal writes). */
export async function membersAsSubjects(
  db: Executor,
  tenantId: string,
  classGroupId: string,
): Promise<UserSummary[]> {
  return db
    .select({ id: users.id, name: users.name, email: users.email, role: users.role })
    .from(classGroupMembers)
    .innerJoin(
      users,
      and(eq(users.tenantId, classGroupMembers.tenantId), eq(users.id, classGroupMembers.userId)),
    )
    .where(and(eq(classGroupMembers.tenantId, tenantId), eq(classGroupMembers.classGroupId, classGroupId)));
}
