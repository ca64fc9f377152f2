import { and, asc, desc, eq, inArray, type SQL, sql } from "drizzle-orm";
import { inChunks } from "../../db/chunks.js";
import type { Executor } from "../../db/client.js";
import { parentValueCounter, readCounter } from "../../db/counters.js";
import { runPageQuery } from "../../db/page-query.js";
import { qualified } from "../../db/qualified.js";
import {
  classGroupMembers,
  profileFields as profileFieldDefs,
  tenants,
  userProfileValues,
  users,
} from "../../db/schema/index.js";
import type { Role } from "../../platform/auth/types.js";
import { type CappedTotal, countCapped, exactTotal } from "../../platform/pagination/capped.js";
import type { PageWindow } from "../../platform/pagination/pagination.js";
import { bindings, type UserFilter, where } from "./filters.js";
import type { UserRecord, UserSort } from "./schemas.js";

export type { UserFilter } from "./filters.js";

const classGroupIds = sql<string[]>`coalesce((
  SELECT array_agg(m.class_group_id::text ORDER BY m.created_at, m.class_group_id)
  FROM ${classGroupMembers} m WHERE m.tenant_id = ${qualified(users.tenantId)} AND m.user_id = ${qualified(users.id)}
), '{}'::text[])`;

/** The values of active custom fields, by key: one probe of user_profile_values' primary key per user. */
const profileFields = sql<Record<string, unknown>>`coalesce((
  SELECT jsonb_object_agg(f.key, v.value ORDER BY f.position)
  FROM ${userProfileValues} v JOIN ${profileFieldDefs} f ON f.tenant_id = v.tenant_id AND f.id = v.field_id
  WHERE v.tenant_id = ${qualified(users.tenantId)} AND v.user_id = ${qualified(users.id)} AND f.status = 'active'
), '{}'::jsonb)`;

const columns = {
  id: users.id,
  name: users.name,
  email: users.email,
  role: users.role,
  classGroupIds,
  status: users.status,
  createdAt: users.createdAt,
  profileFields,
};

/** Every sort breaks ties by id, so pages never repeat or skip a row. */
const ORDER: Record<UserSort, SQL[]> = {
  "-createdAt": [desc(users.createdAt), desc(users.id)],
  createdAt: [asc(users.createdAt), asc(users.id)],
  name: [sql`aula_fold(${users.name}) ASC`, asc(users.id)],
  "-name": [sql`aula_fold(${users.name}) DESC`, desc(users.id)],
};

/**
 * Filters whose number of matches depends on the value (a search term, a custom field's value): their shapes are
 * planned for each request's values, never with a generic plan that cannot tell a rare term from a common one.
 */
const SELECTIVE = [
  "pattern",
  "profileEq0",
  "profileHas0",
  "profileEq1",
  "profileHas1",
  "profileEq2",
  "profileHas2",
];

const sortTag = (sort: UserSort) => (sort.startsWith("-") ? `${sort.slice(1)}_desc` : `${sort}_asc`);

export async function listUsers(
  db: Executor,
  tenantId: string,
  filter: UserFilter,
  sort: UserSort,
  window: PageWindow,
) {
  const rows = await runPageQuery(
    db,
    `users_${sortTag(sort)}`,
    tenantId,
    bindings(filter),
    window,
    (p, name) =>
      db
        .select(columns)
        .from(users)
        .where(where(p.tenantId, p))
        .orderBy(...ORDER[sort])
        .limit(p.limit)
        .offset(p.offset)
        .prepare(name),
    { customPlan: SELECTIVE },
  );
  return rows as UserRecord[];
}

/**
 * Exact totals from the trigger-kept counters where one matches the filters (none, a role, a class, or one
 * value of one profile field alone);
 * any other combination counts its own matches up to the platform's cap (`countCapped`).
 */
export async function countUsers(db: Executor, tenantId: string, filter: UserFilter): Promise<CappedTotal> {
  const present = Object.entries(filter)
    .filter(([k, v]) => v !== undefined && !(k === "profile" && (v as unknown[]).length === 0))
    .map(([k]) => k);
  if (present.length === 0) return exactTotal(await readCounter(db, tenantId, "users"));
  if (present.length === 1 && filter.role !== undefined) {
    return exactTotal(await readCounter(db, tenantId, `users:role:${filter.role}`));
  }
  if (present.length === 1 && filter.classGroupId !== undefined) {
    return exactTotal(
      await readCounter(db, tenantId, `class_group_members:class_group_id:${filter.classGroupId}`),
    );
  }
  const [only] = filter.profile ?? [];
  if (present.length === 1 && filter.profile?.length === 1 && only?.eq !== undefined) {
    return countProfileHolders(db, tenantId, only.fieldId, only.eq);
  }
  return countCapped(db, users, where(tenantId, bindings(filter)), ORDER.createdAt);
}

/**
 * The users holding one value of one field: a value row exists only for a user of the tenant (a foreign key, one
 * row per user and field), so the trigger-kept counter of the values (migration 0057) is the users' total.
 */
async function countProfileHolders(db: Executor, tenantId: string, fieldId: string, matchKey: string) {
  const counter = parentValueCounter(
    "user_profile_values",
    { column: "field_id", id: fieldId },
    "match_key",
    matchKey,
  );
  return exactTotal(await readCounter(db, tenantId, counter));
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

/**
 * Locks a user for a change. An update takes `no key update`, which still lets other transactions insert rows
 * referencing the user (class memberships check their foreign key with `key share`), so adding members while a
 * profile changes cannot deadlock; a deletion takes the full lock.
 */
export async function lockUser(
  db: Executor,
  tenantId: string,
  id: string,
  strength: "update" | "no key update" = "no key update",
): Promise<{ role: string } | undefined> {
  const rows = await db
    .select({ role: users.role })
    .from(users)
    .where(and(eq(users.tenantId, tenantId), eq(users.id, id)))
    .for(strength);
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

/** The records of the given users, in one query (the bulk answer). */
export async function findUsers(
  db: Executor,
  tenantId: string,
  ids: readonly string[],
): Promise<UserRecord[]> {
  if (ids.length === 0) return [];
  const rows = await inChunks(ids, (chunk) =>
    db
      .select(columns)
      .from(users)
      .where(and(eq(users.tenantId, tenantId), inArray(users.id, chunk))),
  );
  return rows as UserRecord[];
}

/** Which of these e-mails (lowercased) already belong to a user of the tenant; the unique index answers it. */
export async function takenEmails(
  db: Executor,
  tenantId: string,
  emails: readonly string[],
): Promise<Set<string>> {
  if (emails.length === 0) return new Set();
  const rows = await inChunks(emails, (chunk) =>
    db
      .select({ email: sql<string>`lower(${users.email})` })
      .from(users)
      .where(and(eq(users.tenantId, tenantId), inArray(sql`lower(${users.email})`, chunk))),
  );
  return new Set(rows.map((r) => r.email));
}

/**
 * Inserts a batch of users, a chunk a statement (see BULK_CHUNK). A row whose e-mail was taken meanwhile (a concurrent request) is
 * skipped rather than failing the batch; the answer names the rows that were written.
 */
export async function insertUsers(
  db: Executor,
  tenantId: string,
  rows: readonly NewUser[],
): Promise<{ id: string; email: string }[]> {
  return inChunks(rows, (chunk) =>
    db
      .insert(users)
      .values(chunk.map((r) => ({ tenantId, ...r })))
      .onConflictDoNothing()
      .returning({ id: users.id, email: users.email }),
  );
}
