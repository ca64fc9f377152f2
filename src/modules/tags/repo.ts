import { and, asc, desc, eq, like, or, type SQL, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import { readCounter } from "../../db/counters.js";
import { type Bindable, likeContains, runPageQuery } from "../../db/page-query.js";
import { qualified } from "../../db/qualified.js";
import { tags, tenantCounters } from "../../db/schema/index.js";
import { type CappedTotal, countCapped, exactTotal } from "../../platform/pagination/capped.js";
import type { PageWindow } from "../../platform/pagination/pagination.js";
import type { ResourceType, TagRecord, TagSort } from "./schemas.js";

/** The trigger-kept count of a tag's assignments (`tag_assignments:tag_id:<id>`), read with the row. */
const usageCount = sql<number>`coalesce((
  SELECT c.value FROM ${tenantCounters} c
  WHERE c.tenant_id = ${qualified(tags.tenantId)} AND c.counter = 'tag_assignments:tag_id:' || ${qualified(tags.id)}
), 0)::int`;

const columns = {
  id: tags.id,
  name: tags.name,
  slug: tags.slug,
  color: tags.color,
  appliesTo: tags.appliesTo,
  usageCount,
  createdAt: tags.createdAt,
  updatedAt: tags.updatedAt,
};

export interface TagFilter {
  appliesTo?: ResourceType;
  search?: string;
}

function where(tenantId: Bindable, filter: { appliesTo?: Bindable; pattern?: Bindable }): SQL {
  return and(
    eq(tags.tenantId, tenantId),
    filter.appliesTo === undefined ? undefined : sql`${filter.appliesTo}::text = ANY(${tags.appliesTo})`,
    filter.pattern === undefined ? undefined : sql`aula_fold(${tags.name}) LIKE aula_fold(${filter.pattern})`,
  ) as SQL;
}

function bindings(filter: TagFilter) {
  return {
    appliesTo: filter.appliesTo,
    pattern: filter.search === undefined ? undefined : likeContains(filter.search),
  };
}

/**
 * By name as people read it, whatever the database's collation: accents and case folded (`Álgebra` before
 * `Bolsistas`), then `lower(name)`, unique per tenant, as the tie-break. An institution has hundreds of tags,
 * not millions, so sorting them without an index is cheap.
 */
const byName = [sql`aula_fold(${tags.name})`, sql`lower(${tags.name})`];
const ORDER: Record<TagSort, SQL[]> = {
  createdAt: [asc(tags.createdAt), asc(tags.id)],
  "-createdAt": [desc(tags.createdAt), desc(tags.id)],
  name: byName.map((key) => asc(key)),
  "-name": byName.map((key) => desc(key)),
};

const STATEMENT: Record<TagSort, string> = {
  createdAt: "tags_created_asc",
  "-createdAt": "tags_created_desc",
  name: "tags_name_asc",
  "-name": "tags_name_desc",
};

export async function listTags(
  db: Executor,
  tenantId: string,
  filter: TagFilter,
  sort: TagSort,
  window: PageWindow,
): Promise<TagRecord[]> {
  const rows = await runPageQuery(
    db,
    STATEMENT[sort],
    tenantId,
    bindings(filter),
    window,
    (p, name) =>
      db
        .select(columns)
        .from(tags)
        .where(where(p.tenantId, p))
        .orderBy(...ORDER[sort])
        .limit(p.limit)
        .offset(p.offset)
        .prepare(name),
    // A search's generic plan would walk the tenant in list order, filtering every row, for a rare term: each
    // search is planned for its own term (the trigram index's few matches, or the order for a common one).
    { customPlan: ["pattern"] },
  );
  return rows as TagRecord[];
}

/**
 * The unfiltered total is the `tags` counter, exact; a filtered one counts its matches up to the platform's cap,
 * walking the tenant's tags newest first (`countCapped`).
 */
export async function countTags(db: Executor, tenantId: string, filter: TagFilter): Promise<CappedTotal> {
  if (filter.appliesTo === undefined && filter.search === undefined) {
    return exactTotal(await readCounter(db, tenantId, "tags"));
  }
  return countCapped(db, tags, where(tenantId, bindings(filter)), ORDER["-createdAt"]);
}

export async function findTag(db: Executor, tenantId: string, id: string): Promise<TagRecord | undefined> {
  const rows = await db
    .select(columns)
    .from(tags)
    .where(and(eq(tags.tenantId, tenantId), eq(tags.id, id)));
  return rows[0] as TagRecord | undefined;
}

/**
 * Reads a tag and locks it until the transaction ends: `share` while tagging resources (its `appliesTo` must
 * not change meanwhile), `update` while changing it.
 */
export async function lockTag(
  db: Executor,
  tenantId: string,
  id: string,
  mode: "share" | "update",
): Promise<{ name: string; slug: string; appliesTo: string[] } | undefined> {
  const rows = await db
    .select({ name: tags.name, slug: tags.slug, appliesTo: tags.appliesTo })
    .from(tags)
    .where(and(eq(tags.tenantId, tenantId), eq(tags.id, id)))
    .for(mode);
  return rows[0];
}

/** Slugs of the tenant that a new slug built on `base` could collide with (`base`, `base-2`, …). */
export async function slugsLike(db: Executor, tenantId: string, base: string): Promise<Set<string>> {
  const rows = await db
    .select({ slug: tags.slug })
    .from(tags)
    .where(and(eq(tags.tenantId, tenantId), or(eq(tags.slug, base), like(tags.slug, `${base}-%`))));
  return new Set(rows.map((r) => r.slug));
}

export interface TagFields {
  name: string;
  slug: string;
  color: string | null;
  appliesTo: ResourceType[];
}

export async function insertTag(db: Executor, tenantId: string, fields: TagFields): Promise<string> {
  const rows = await db
    .insert(tags)
    .values({ tenantId, ...fields })
    .returning({ id: tags.id });
  return (rows[0] as { id: string }).id;
}

export async function updateTag(
  db: Executor,
  tenantId: string,
  id: string,
  changes: Partial<TagFields>,
): Promise<void> {
  await db
    .update(tags)
    .set({ ...changes, updatedAt: sql`now()` })
    .where(and(eq(tags.tenantId, tenantId), eq(tags.id, id)));
}

/**
 * Deletes a tag; the foreign key takes its assignments with it (their trigger brings the usage counter to 0),
 * and the emptied counter row goes too, so deleted tags leave nothing behind.
 */
export async function deleteTag(db: Executor, tenantId: string, id: string): Promise<boolean> {
  const rows = await db
    .delete(tags)
    .where(and(eq(tags.tenantId, tenantId), eq(tags.id, id)))
    .returning({ id: tags.id });
  if (rows.length === 0) return false;
  await db
    .delete(tenantCounters)
    .where(
      and(eq(tenantCounters.tenantId, tenantId), eq(tenantCounters.counter, `tag_assignments:tag_id:${id}`)),
    );
  return true;
}
