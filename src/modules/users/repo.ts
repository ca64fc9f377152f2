import { and, desc, eq, inArray, type SQL, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import { readCounter } from "../../db/counters.js";
import { type Bindable, likeContains, runPageQuery } from "../../db/page-query.js";
import { classGroupMembers, classGroups, tenants, users } from "../../db/schema/index.js";
import type { Role } from "../../platform/auth/types.js";
import type { PageWindow } from "../../platform/pagination/pagination.js";
import type { UserRecord } from "./schemas.js";

const classGroupIds = sql<string[]>`coalesce((
  SELECT array_agg(m.class_group_id::text ORDER BY m.created_at, m.class_group_id)
  FROM ${classGroupMembers} m WHERE m.tenant_id = ${users.tenantId} AND m.user_id = ${users.id}
), '{}'::text[])`;

const columns = {
  id: users.id,
  name: users.name,
  email: users.email,
  role: users.role,
  classGroupIds,
  status: users.status,
  createdAt: users.createdAt,
};

const searchable = sql`aula_fold(${users.name} || ' ' || ${users.email})`;

export interface UserFilter {
  search?: string;
  role?: Role;
}

function where(tenantId: Bindable, filter: { role?: Bindable; pattern?: Bindable }): SQL {
  return and(
    eq(users.tenantId, tenantId),
    filter.role === undefined ? undefined : eq(users.role, filter.role),
    filter.pattern === undefined ? undefined : sql`${searchable} LIKE aula_fold(${filter.pattern})`,
  ) as SQL;
}

function bindings(filter: UserFilter) {
  return {
    role: filter.role,
    pattern: filter.search === undefined ? undefined : likeContains(filter.search),
  };
}

export async function listUsers(db: Executor, tenantId: string, filter: UserFilter, window: PageWindow) {
  const rows = await runPageQuery(db, "users", tenantId, bindings(filter), window, (p, name) =>
    db
      .select(columns)
      .from(users)
      .where(where(p.tenantId, p))
      .orderBy(desc(users.createdAt), desc(users.id))
      .limit(p.limit)
      .offset(p.offset)
      .prepare(name),
  );
  return rows as UserRecord[];
}

/** Exact totals from the trigger-kept counters; only a text search counts its own matches. */
export async function countUsers(db: Executor, tenantId: string, filter: UserFilter): Promise<number> {
  if (filter.search === undefined) {
    return readCounter(db, tenantId, filter.role === undefined ? "users" : `users:role:${filter.role}`);
  }
  const rows = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(users)
    .where(where(tenantId, bindings(filter)));
  return rows[0]?.n ?? 0;
}

export async function findUser(db: Executor, tenantId: string, id: string): Promise<UserRecord | undefined> {
  const rows = await db
    .select(columns)
    .from(users)
    .where(and(eq(users.tenantId, tenantId), eq(users.id, id)));
  return rows[0] as UserRecord | undefined;
}

/** Locks the tenant row: concurrent student creations of one tenant take turns, so none overshoots the limit. */
export async function lockTenantPlan(db: Executor, tenantId: string): Promise<string | undefined> {
  const rows = await db
    .select({ plan: tenants.plan })
    .from(tenants)
    .where(eq(tenants.id, tenantId))
    .for("update");
  return rows[0]?.plan;
}

export async function missingClassGroups(
  db: Executor,
  tenantId: string,
  ids: readonly string[],
): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select({ id: classGroups.id })
    .from(classGroups)
    .where(and(eq(classGroups.tenantId, tenantId), inArray(classGroups.id, [...ids])));
  const found = new Set(rows.map((r) => r.id));
  return ids.filter((id) => !found.has(id));
}

export interface NewUser {
  name: string;
  email: string;
  role: Role;
  status: string;
}

export async function insertUser(db: Executor, tenantId: string, user: NewUser): Promise<string> {
  const rows = await db
    .insert(users)
    .values({ tenantId, ...user })
    .returning({ id: users.id });
  return (rows[0] as { id: string }).id;
}

export async function replaceMemberships(
  db: Executor,
  tenantId: string,
  userId: string,
  groupIds: readonly string[],
): Promise<void> {
  await db
    .delete(classGroupMembers)
    .where(and(eq(classGroupMembers.tenantId, tenantId), eq(classGroupMembers.userId, userId)));
  if (groupIds.length > 0) {
    await db
      .insert(classGroupMembers)
      .values(groupIds.map((classGroupId) => ({ tenantId, classGroupId, userId })));
  }
}

export async function updateUser(
  db: Executor,
  tenantId: string,
  id: string,
  changes: Partial<Pick<NewUser, "name" | "email" | "role" | "status">>,
): Promise<boolean> {
  const rows = await db
    .update(users)
    .set({ ...changes, updatedAt: sql`now()` })
    .where(and(eq(users.tenantId, tenantId), eq(users.id, id)))
    .returning({ id: users.id });
  return rows.length > 0;
}

export async function lockUser(
  db: Executor,
  tenantId: string,
  id: string,
): Promise<{ role: string } | undefined> {
  const rows = await db
    .select({ role: users.role })
    .from(users)
    .where(and(eq(users.tenantId, tenantId), eq(users.id, id)))
    .for("update");
  return rows[0];
}

export async function countOtherActiveAdmins(
  db: Executor,
  tenantId: string,
  exceptUserId: string,
): Promise<number> {
  const rows = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(users)
    .where(
      and(
        eq(users.tenantId, tenantId),
        eq(users.role, "institution_admin"),
        eq(users.status, "active"),
        sql`${users.id} <> ${exceptUserId}`,
      ),
    );
  return rows[0]?.n ?? 0;
}

export async function deleteUser(db: Executor, tenantId: string, id: string): Promise<boolean> {
  const rows = await db
    .delete(users)
    .where(and(eq(users.tenantId, tenantId), eq(users.id, id)))
    .returning({ id: users.id });
  return rows.length > 0;
}
