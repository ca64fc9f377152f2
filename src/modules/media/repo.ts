import { and, asc, desc, eq, type SQL, sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import type { Executor } from "../../db/client.js";
import { readCounter } from "../../db/counters.js";
import { type Bindable, likeContains, runPageQuery } from "../../db/page-query.js";
import { driveFolders, lessons, media, tenantCounters, tenants } from "../../db/schema/index.js";
import { type CappedTotal, countCapped, exactTotal } from "../../platform/pagination/capped.js";
import type { PageWindow } from "../../platform/pagination/pagination.js";
import type { MediaKind } from "./content-types.js";
import type { MediaSort, MediaStatus } from "./schemas.js";

export type MediaRow = typeof media.$inferSelect;

/** The tenant's storage in use: the trigger-kept sum of every file that is not `failed` (migration 0019). */
export const BYTES_COUNTER = "media:bytes";

export interface MediaFilter {
  kind?: MediaKind;
  status?: MediaStatus;
  folderId?: string;
  search?: string;
}

function where(
  tenantId: Bindable,
  f: { kind?: Bindable; status?: Bindable; folderId?: Bindable; pattern?: Bindable },
): SQL {
  return and(
    eq(media.tenantId, tenantId),
    f.kind === undefined ? undefined : eq(media.kind, f.kind),
    f.status === undefined ? undefined : eq(media.status, f.status),
    f.folderId === undefined ? undefined : eq(media.folderId, f.folderId),
    f.pattern === undefined ? undefined : sql`aula_fold(${media.filename}) LIKE aula_fold(${f.pattern})`,
  ) as SQL;
}

function bindings(filter: MediaFilter) {
  return {
    kind: filter.kind,
    status: filter.status,
    folderId: filter.folderId,
    pattern: filter.search === undefined ? undefined : likeContains(filter.search),
  };
}

const byName = [sql`aula_fold(${media.filename})`, media.id];
const ORDER: Record<MediaSort, SQL[]> = {
  createdAt: [asc(media.createdAt), asc(media.id)],
  "-createdAt": [desc(media.createdAt), desc(media.id)],
  filename: byName.map((key) => asc(key)),
  "-filename": byName.map((key) => desc(key)),
};
const STATEMENT: Record<MediaSort, string> = {
  createdAt: "media_created_asc",
  "-createdAt": "media_created_desc",
  filename: "media_name_asc",
  "-filename": "media_name_desc",
};

export async function listMedia(
  db: Executor,
  tenantId: string,
  filter: MediaFilter,
  sort: MediaSort,
  window: PageWindow,
): Promise<MediaRow[]> {
  return runPageQuery(
    db,
    STATEMENT[sort],
    tenantId,
    bindings(filter),
    window,
    (p, name) =>
      db
        .select()
        .from(media)
        .where(where(p.tenantId, p))
        .orderBy(...ORDER[sort])
        .limit(p.limit)
        .offset(p.offset)
        .prepare(name),
    // A search's generic plan would walk the tenant in list order, filtering every row, for a rare term: each
    // search is planned for its own term (the trigram index's few matches, or the order for a common one).
    { customPlan: ["pattern"] },
  );
}

/**
 * Unfiltered, status-only and kind-only lists read the trigger-kept counters (`media`, `media:status:<s>`,
 * `media:kind:<k>`, migration 0047), exact; other filters count their matches up to the platform's cap, walking the tenant's files newest first (`countCapped`).
 */
export async function countMedia(db: Executor, tenantId: string, filter: MediaFilter): Promise<CappedTotal> {
  if (filter.folderId === undefined && filter.search === undefined) {
    if (filter.kind === undefined || filter.status === undefined) {
      const counter =
        filter.status !== undefined
          ? `media:status:${filter.status}`
          : filter.kind !== undefined
            ? `media:kind:${filter.kind}`
            : "media";
      return exactTotal(await readCounter(db, tenantId, counter));
    }
  }
  return countCapped(db, media, where(tenantId, bindings(filter)), ORDER["-createdAt"]);
}

export async function findMedia(db: Executor, tenantId: string, id: string): Promise<MediaRow | undefined> {
  const rows = await db
    .select()
    .from(media)
    .where(and(eq(media.tenantId, tenantId), eq(media.id, id)));
  return rows[0];
}

/** Reads a file and locks it until the transaction ends (`update` to change it, `share` to rely on it). */
export async function lockMedia(
  db: Executor,
  tenantId: string,
  id: string,
  mode: "update" | "share" = "update",
): Promise<MediaRow | undefined> {
  const rows = await db
    .select()
    .from(media)
    .where(and(eq(media.tenantId, tenantId), eq(media.id, id)))
    .for(mode);
  return rows[0];
}

export async function insertMedia(db: Executor, row: typeof media.$inferInsert): Promise<MediaRow> {
  const rows = await db.insert(media).values(row).returning();
  return rows[0] as MediaRow;
}

export async function updateMedia(
  db: Executor,
  tenantId: string,
  id: string,
  changes: Partial<typeof media.$inferInsert>,
): Promise<MediaRow | undefined> {
  const rows = await db
    .update(media)
    .set({ ...changes, updatedAt: sql`now()` })
    .where(and(eq(media.tenantId, tenantId), eq(media.id, id)))
    .returning();
  return rows[0];
}

export async function deleteMedia(db: Executor, tenantId: string, id: string): Promise<void> {
  await db.delete(media).where(and(eq(media.tenantId, tenantId), eq(media.id, id)));
}

export async function deleteMany(db: Executor, tenantId: string, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await db
    .delete(media)
    .where(and(eq(media.tenantId, tenantId), sql`${media.id} = ANY(${sql.param(ids)}::uuid[])`));
}

/** How many lessons name the file in `content.mediaId` (through `lessons_media_ref_idx`). */
export async function countLessonsUsing(
  db: Executor,
  tenantId: string,
  mediaIds: readonly string[],
): Promise<number> {
  if (mediaIds.length === 0) return 0;
  const rows = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(lessons)
    .where(
      and(
        eq(lessons.tenantId, tenantId),
        sql`${lessons.content} ? 'mediaId'`,
        sql`(${lessons.content} ->> 'mediaId') IN (${sql.join(
          mediaIds.map((id) => sql`${id}`),
          sql`, `,
        )})`,
      ),
    );
  return rows[0]?.n ?? 0;
}

/**
 * Locks the tenant's storage counter row (creating it at 0 the first time) and answers the bytes in use and the
 * tenant's plan. Every reservation takes this lock first, so concurrent uploads are counted one after another.
 */
export async function lockStorage(db: Executor, tenantId: string): Promise<{ used: number; plan: string }> {
  await db
    .insert(tenantCounters)
    .values({ tenantId, counter: BYTES_COUNTER, value: 0 })
    .onConflictDoNothing();
  const rows = await db
    .select({ used: tenantCounters.value, plan: tenants.plan })
    .from(tenantCounters)
    .innerJoin(tenants, eq(tenants.id, tenantCounters.tenantId))
    .where(and(eq(tenantCounters.tenantId, tenantId), eq(tenantCounters.counter, BYTES_COUNTER)))
    .for("update", { of: tenantCounters });
  const row = rows[0];
  if (row === undefined) throw new Error("storage counter row missing after insert");
  return { used: Number(row.used), plan: row.plan };
}

/** Bytes in use and the plan, without locking: for reading the quota. */
export async function readStorage(db: Executor, tenantId: string): Promise<{ used: number; plan: string }> {
  const [used, plan] = await Promise.all([
    readCounter(db, tenantId, BYTES_COUNTER),
    db.select({ plan: tenants.plan }).from(tenants).where(eq(tenants.id, tenantId)),
  ]);
  return { used, plan: plan[0]?.plan ?? "free" };
}

/**
 * Share-locks a drive folder of the tenant (it must not be deleted, nor its audience changed, while a file goes
 * in) and answers its audience; undefined if absent.
 */
export async function lockFolder(
  db: Executor,
  tenantId: string,
  folderId: string,
): Promise<{ scope: string; courseId: string | null; classId: string | null } | undefined> {
  const rows = await db
    .select({ scope: driveFolders.scope, courseId: driveFolders.courseId, classId: driveFolders.classId })
    .from(driveFolders)
    .where(and(eq(driveFolders.tenantId, tenantId), eq(driveFolders.id, folderId)))
    .for("share");
  return rows[0];
}

/** Pending uploads whose URL expired more than `graceSeconds` ago, oldest first, for the expiry sweep. */
export async function expiredUploads(
  db: Executor,
  graceSeconds: number,
  limit: number,
): Promise<{ tenantId: string; id: string }[]> {
  return db
    .select({ tenantId: media.tenantId, id: media.id })
    .from(media)
    .where(
      and(
        eq(media.status, "pending_upload"),
        sql`${media.uploadExpiresAt} < now() - make_interval(secs => ${graceSeconds})`,
      ),
    )
    .orderBy(asc(media.uploadExpiresAt))
    .limit(limit);
}

/** The key a drive folder's children are filed under: its id, or the nil uuid for the top level (or no folder). */
export const NIL_UUID = "00000000-0000-0000-0000-000000000000";

/**
 * `coalesce(column, nil)`: the leading expression (after the tenant) of the children indexes of migration 0032.
 * An equality on it lets the index's order be the list's; `IS NULL` would not, and the top level would be sorted.
 */
export function folderKey(column: AnyPgColumn): SQL {
  return sql`coalesce(${column}, ${sql.raw(`'${NIL_UUID}'::uuid`)})`;
}

/**
 * A window of the files of a drive folder (`null`: in no folder), by folded name; `readyOnly` for a student's
 * view. A walk of media_folder_children_idx (migration 0032), in that order under the tenant and the folder
 * (the nil uuid for none); the folder's total is a counter (drive/repo.ts countChildren).
 */
export async function listInFolder(
  db: Executor,
  tenantId: string,
  folderId: string | null,
  readyOnly: boolean,
  window: { limit: number; offset: number },
): Promise<MediaRow[]> {
  return db
    .select()
    .from(media)
    .where(
      and(
        eq(media.tenantId, tenantId),
        sql`${folderKey(media.folderId)} = ${folderId ?? NIL_UUID}`,
        readyOnly ? eq(media.status, "ready") : undefined,
      ),
    )
    .orderBy(asc(sql`aula_fold(${media.filename})`), asc(media.id))
    .limit(window.limit)
    .offset(window.offset);
}

/** Locks the files in any of these folders, for deleting them with the folders. */
export async function lockInFolders(
  db: Executor,
  tenantId: string,
  folderIds: readonly string[],
): Promise<MediaRow[]> {
  return db
    .select()
    .from(media)
    .where(and(eq(media.tenantId, tenantId), sql`${media.folderId} = ANY(${sql.param(folderIds)}::uuid[])`))
    .for("update");
}
