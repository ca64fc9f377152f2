import { and, asc, count, desc, eq, inArray, type SQL, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import { readCounter } from "../../db/counters.js";
import { profileFields, tenants, userProfileValues } from "../../db/schema/index.js";
import { type CappedTotal, countCapped, exactTotal } from "../../platform/pagination/capped.js";
import type { PageWindow } from "../../platform/pagination/pagination.js";
import type { FieldDefinition } from "./rules.js";
import type { ProfileFieldRecord, ProfileFieldSort } from "./schemas.js";

const columns = {
  id: profileFields.id,
  key: profileFields.key,
  label: profileFields.label,
  type: profileFields.type,
  options: profileFields.options,
  required: profileFields.required,
  unique: profileFields.unique,
  validation: profileFields.validation,
  position: profileFields.position,
  status: profileFields.status,
  createdAt: profileFields.createdAt,
  updatedAt: profileFields.updatedAt,
};

const ORDER: Record<ProfileFieldSort, SQL[]> = {
  position: [asc(profileFields.position), asc(profileFields.id)],
  "-position": [desc(profileFields.position), desc(profileFields.id)],
  createdAt: [asc(profileFields.createdAt), asc(profileFields.id)],
  "-createdAt": [desc(profileFields.createdAt), desc(profileFields.id)],
  key: [asc(profileFields.key)],
  "-key": [desc(profileFields.key)],
};

export interface FieldFilter {
  status?: string;
  type?: string;
}

function where(tenantId: string, filter: FieldFilter): SQL {
  return and(
    eq(profileFields.tenantId, tenantId),
    filter.status === undefined ? undefined : eq(profileFields.status, filter.status),
    filter.type === undefined ? undefined : eq(profileFields.type, filter.type),
  ) as SQL;
}

export async function listFields(
  db: Executor,
  tenantId: string,
  filter: FieldFilter,
  sort: ProfileFieldSort,
  window: PageWindow,
): Promise<ProfileFieldRecord[]> {
  const rows = await db
    .select(columns)
    .from(profileFields)
    .where(where(tenantId, filter))
    .orderBy(...ORDER[sort])
    .limit(window.limit)
    .offset(window.offset);
  return rows as ProfileFieldRecord[];
}

/**
 * Unfiltered or filtered by status or type alone, the total is a trigger-kept counter (`profile_fields`,
 * `profile_fields:<filter>:<value>`, migration 0041), exact. Both filters together count their matches up to
 * the platform's cap, walking the list's default order (`countCapped`).
 */
export async function countFields(db: Executor, tenantId: string, filter: FieldFilter): Promise<CappedTotal> {
  if (filter.status !== undefined && filter.type !== undefined) {
    return countCapped(db, profileFields, where(tenantId, filter), ORDER.position);
  }
  const counter =
    filter.status !== undefined
      ? `profile_fields:status:${filter.status}`
      : filter.type !== undefined
        ? `profile_fields:type:${filter.type}`
        : "profile_fields";
  return exactTotal(await readCounter(db, tenantId, counter));
}

export async function findField(db: Executor, tenantId: string, id: string, lock = false) {
  const query = db
    .select(columns)
    .from(profileFields)
    .where(and(eq(profileFields.tenantId, tenantId), eq(profileFields.id, id)));
  const rows = lock ? await query.for("update") : await query;
  return rows[0] as ProfileFieldRecord | undefined;
}

/** The tenant's active definitions, for checking user writes (at most 100). */
export async function activeDefinitions(db: Executor, tenantId: string): Promise<FieldDefinition[]> {
  const rows = await db
    .select(columns)
    .from(profileFields)
    .where(and(eq(profileFields.tenantId, tenantId), eq(profileFields.status, "active")))
    .orderBy(asc(profileFields.position));
  return rows as unknown as FieldDefinition[];
}

export async function definitionByKey(db: Executor, tenantId: string, keys: readonly string[]) {
  if (keys.length === 0) return [];
  const rows = await db
    .select(columns)
    .from(profileFields)
    .where(and(eq(profileFields.tenantId, tenantId), inArray(profileFields.key, [...keys])));
  return rows as unknown as FieldDefinition[];
}

/**
 * Locks the tenant row: creations and reorders of one institution take turns, so the count under the limit and
 * the next position are read and written without a race.
 */
export async function lockTenant(db: Executor, tenantId: string): Promise<void> {
  await db.select({ id: tenants.id }).from(tenants).where(eq(tenants.id, tenantId)).for("update");
}

export async function nextPosition(db: Executor, tenantId: string): Promise<{ count: number; next: number }> {
  const rows = await db
    .select({ n: count(), max: sql<number>`coalesce(max(${profileFields.position}), 0)::int` })
    .from(profileFields)
    .where(eq(profileFields.tenantId, tenantId));
  return { count: rows[0]?.n ?? 0, next: (rows[0]?.max ?? 0) + 1 };
}

export type NewField = {
  key: string;
  label: string;
  type: string;
  options: unknown;
  required: boolean;
  unique: boolean;
  validation: unknown;
  position: number;
};

export async function insertField(
  db: Executor,
  tenantId: string,
  field: NewField,
): Promise<ProfileFieldRecord> {
  const rows = await db
    .insert(profileFields)
    .values({ tenantId, ...field })
    .returning(columns);
  return rows[0] as ProfileFieldRecord;
}

export async function updateField(
  db: Executor,
  tenantId: string,
  id: string,
  changes: Partial<Pick<NewField, "label" | "options" | "required" | "unique" | "validation">> & {
    status?: string;
  },
): Promise<ProfileFieldRecord> {
  const rows = await db
    .update(profileFields)
    .set({ ...changes, updatedAt: sql`now()` })
    .where(and(eq(profileFields.tenantId, tenantId), eq(profileFields.id, id)))
    .returning(columns);
  return rows[0] as ProfileFieldRecord;
}

export async function deleteField(db: Executor, tenantId: string, id: string): Promise<void> {
  await db.delete(profileFields).where(and(eq(profileFields.tenantId, tenantId), eq(profileFields.id, id)));
}

/** Makes a field's values unique (or not): the partial unique index refuses the change if two users share one. */
export async function setValuesUnique(db: Executor, tenantId: string, fieldId: string, unique: boolean) {
  await db
    .update(userProfileValues)
    .set({ uniqueKey: unique ? sql`${userProfileValues.matchKey}` : null })
    .where(and(eq(userProfileValues.tenantId, tenantId), eq(userProfileValues.fieldId, fieldId)));
}

/** Every field's id in its current order. */
export async function allFieldIds(db: Executor, tenantId: string): Promise<string[]> {
  const rows = await db
    .select({ id: profileFields.id })
    .from(profileFields)
    .where(eq(profileFields.tenantId, tenantId))
    .orderBy(asc(profileFields.position));
  return rows.map((r) => r.id);
}

/** Renumbers in one statement: each id's position is its 1-based index in `ids`. */
export async function reorder(db: Executor, tenantId: string, ids: readonly string[]): Promise<void> {
  await db.execute(sql`
    UPDATE ${profileFields} f SET position = o.ord, updated_at = now()
    FROM unnest(${sql.param([...ids])}::uuid[]) WITH ORDINALITY AS o(id, ord)
    WHERE f.tenant_id = ${tenantId} AND f.id = o.id AND f.position <> o.ord`);
}

export interface ValueRow {
  userId: string;
  fieldId: string;
  value: unknown;
  matchKey: string | null;
  uniqueKey: string | null;
}

/** Writes values (insert or replace) in one statement; the unique index refuses a value another user holds. */
export async function upsertValues(db: Executor, tenantId: string, rows: readonly ValueRow[]): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insert(userProfileValues)
    .values(rows.map((r) => ({ tenantId, ...r })))
    .onConflictDoUpdate({
      target: [userProfileValues.tenantId, userProfileValues.userId, userProfileValues.fieldId],
      set: {
        value: sql`excluded.value`,
        matchKey: sql`excluded.match_key`,
        uniqueKey: sql`excluded.unique_key`,
      },
    });
}

export async function deleteValues(
  db: Executor,
  tenantId: string,
  userId: string,
  fieldIds: readonly string[],
) {
  if (fieldIds.length === 0) return;
  await db
    .delete(userProfileValues)
    .where(
      and(
        eq(userProfileValues.tenantId, tenantId),
        eq(userProfileValues.userId, userId),
        inArray(userProfileValues.fieldId, [...fieldIds]),
      ),
    );
}

/** Which (field, unique key) pairs already belong to a user other than `exceptUserId`. */
export async function takenUniqueKeys(
  db: Executor,
  tenantId: string,
  pairs: readonly { fieldId: string; uniqueKey: string }[],
  exceptUserId: string | null,
): Promise<Set<string>> {
  if (pairs.length === 0) return new Set();
  const result = (await db.execute(sql`
    SELECT v.field_id AS "fieldId", v.unique_key AS "uniqueKey" FROM ${userProfileValues} v
    JOIN jsonb_to_recordset(${JSON.stringify(pairs)}::jsonb) AS p("fieldId" uuid, "uniqueKey" text)
      ON v.field_id = p."fieldId" AND v.unique_key = p."uniqueKey"
    WHERE v.tenant_id = ${tenantId} AND v.unique_key IS NOT NULL
      ${exceptUserId === null ? sql`` : sql`AND v.user_id <> ${exceptUserId}::uuid`}`)) as unknown as {
    rows: { fieldId: string; uniqueKey: string }[];
  };
  return new Set(result.rows.map((r) => `${r.fieldId}:${r.uniqueKey}`));
}
