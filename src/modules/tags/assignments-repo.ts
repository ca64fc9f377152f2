import { and, asc, desc, eq, type Placeholder, type SQL, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import { readCounter } from "../../db/counters.js";
import { runPageQuery } from "../../db/page-query.js";
import { classGroups, courses, questions, tagAssignments, users } from "../../db/schema/index.js";
import { uuidArray } from "../../db/uuid-array.js";
import { type CappedTotal, exactTotal } from "../../platform/pagination/capped.js";
import type { PageWindow } from "../../platform/pagination/pagination.js";
import type { AssignmentRecord, AssignmentSort, ResourceType } from "./schemas.js";

/** The table each resource type names; every one is keyed `(tenant_id, id)`. */
const TABLES = { user: users, course: courses, class: classGroups, question: questions } as const;

const columns = {
  resourceType: tagAssignments.resourceType,
  resourceId: tagAssignments.resourceId,
  createdAt: tagAssignments.createdAt,
};

const ORDER: Record<AssignmentSort, SQL[]> = {
  createdAt: [
    asc(tagAssignments.createdAt),
    asc(tagAssignments.resourceType),
    asc(tagAssignments.resourceId),
  ],
  "-createdAt": [
    desc(tagAssignments.createdAt),
    desc(tagAssignments.resourceType),
    desc(tagAssignments.resourceId),
  ],
};

const STATEMENT: Record<AssignmentSort, string> = {
  createdAt: "tag_assignments_created_asc",
  "-createdAt": "tag_assignments_created_desc",
};

export async function listAssignments(
  db: Executor,
  tenantId: string,
  tagId: string,
  filter: { resourceType?: ResourceType },
  sort: AssignmentSort,
  window: PageWindow,
): Promise<AssignmentRecord[]> {
  const rows = await runPageQuery(
    db,
    STATEMENT[sort],
    tenantId,
    { tagId, resourceType: filter.resourceType },
    window,
    (p, name) =>
      db
        .select(columns)
        .from(tagAssignments)
        .where(
          and(
            eq(tagAssignments.tenantId, p.tenantId),
            eq(tagAssignments.tagId, p.tagId as Placeholder),
            p.resourceType === undefined ? undefined : eq(tagAssignments.resourceType, p.resourceType),
          ),
        )
        .orderBy(...ORDER[sort])
        .limit(p.limit)
        .offset(p.offset)
        .prepare(name),
  );
  return rows as AssignmentRecord[];
}

/** A tag's total is its usage counter; by type, the tag's counter for that type (migration 0045). Both exact. */
export async function countAssignments(
  db: Executor,
  tenantId: string,
  tagId: string,
  filter: { resourceType?: ResourceType },
): Promise<CappedTotal> {
  const counter =
    filter.resourceType === undefined
      ? `tag_assignments:tag_id:${tagId}`
      : `tag_assignments:tag_id+resource_type:${tagId}:${filter.resourceType}`;
  return exactTotal(await readCounter(db, tenantId, counter));
}

/**
 * Attaches a tag to the given resources in one statement: the ids that name a resource of this tenant are
 * found (and key-share locked, so a concurrent delete of the resource waits and then takes the new assignment
 * with it), the missing assignments inserted. Answers the found ids and the newly attached ones, lowercased.
 */
export async function attach(
  db: Executor,
  tenantId: string,
  tagId: string,
  resourceType: ResourceType,
  ids: readonly string[],
): Promise<{ found: string[]; attached: string[] }> {
  const table = TABLES[resourceType];
  const result = (await db.execute(sql`
    WITH input AS (SELECT DISTINCT x AS id FROM unnest(${uuidArray(ids)}) AS x),
    found AS (
      SELECT r.id FROM ${table} r JOIN input i ON r.id = i.id
      WHERE r.tenant_id = ${tenantId}
      FOR KEY SHARE OF r
    ),
    inserted AS (
      INSERT INTO ${tagAssignments} (tenant_id, tag_id, resource_type, resource_id)
      SELECT ${tenantId}, ${tagId}, ${resourceType}, found.id FROM found
      ON CONFLICT DO NOTHING
      RETURNING resource_id
    )
    SELECT
      coalesce((SELECT array_agg(id::text) FROM found), '{}') AS found,
      coalesce((SELECT array_agg(resource_id::text) FROM inserted), '{}') AS attached
  `)) as unknown as { rows: { found: string[]; attached: string[] }[] };
  const row = result.rows[0];
  return { found: row?.found ?? [], attached: row?.attached ?? [] };
}

/** Detaches a tag from the given resources; answers the ids actually detached, lowercased. */
export async function detach(
  db: Executor,
  tenantId: string,
  tagId: string,
  resourceType: ResourceType,
  ids: readonly string[],
): Promise<string[]> {
  const rows = await db
    .delete(tagAssignments)
    .where(
      and(
        eq(tagAssignments.tenantId, tenantId),
        eq(tagAssignments.tagId, tagId),
        eq(tagAssignments.resourceType, resourceType),
        sql`${tagAssignments.resourceId} = ANY(${uuidArray(ids)})`,
      ),
    )
    .returning({ id: tagAssignments.resourceId });
  return rows.map((r) => r.id.toLowerCase());
}

/** Whether the tag is on any resource of these types (before they leave its `appliesTo`). */
export async function firstTypeInUse(
  db: Executor,
  tenantId: string,
  tagId: string,
  types: readonly ResourceType[],
): Promise<ResourceType | undefined> {
  for (const type of types) {
    const rows = await db
      .select({ id: tagAssignments.resourceId })
      .from(tagAssignments)
      .where(
        and(
          eq(tagAssignments.tenantId, tenantId),
          eq(tagAssignments.tagId, tagId),
          eq(tagAssignments.resourceType, type),
        ),
      )
      .limit(1);
    if (rows.length > 0) return type;
  }
  return undefined;
}

/** The users an event is about, as they are now, in one query. */
export async function usersByIds(
  db: Executor,
  tenantId: string,
  ids: readonly string[],
): Promise<{ id: string; name: string; email: string; role: string }[]> {
  if (ids.length === 0) return [];
  return db
    .select({ id: users.id, name: users.name, email: users.email, role: users.role })
    .from(users)
    .where(and(eq(users.tenantId, tenantId), sql`${users.id} = ANY(${uuidArray(ids)})`));
}
