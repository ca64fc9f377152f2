import { and, asc, desc, eq, isNull, type SQL, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import { readCounter } from "../../db/counters.js";
import { type Bindable, likeContains, runPageQuery } from "../../db/page-query.js";
import { driveFolders, lessons, media, tenantCounters, tenants } from "../../db/schema/index.js";
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
  return runPageQuery(db, STATEMENT[sort], tenantId, bindings(filter), window, (p, name) =>
    db
      .select()
      .from(media)
      .where(where(p.tenantId, p))
      .orderBy(...ORDER[sort])
      .limit(p.limit)
      .offset(p.offset)
      .prepare(name),
  );
}

/**
 * Exact totals: unfiltered and status-only lists read the trigger-kept counters (`media`, `media:status:<s>`);
 * other filters count their matches through the tenant's indexes.
 */
export async function countMedia(db: Executor, tenantId: string, filter: MediaFilter): Promise<number> {
  const others = filter.kind ?? filter.folderId ?? filter.search;
  if (others === undefined) {
    return readCounter(db, tenantId, filter.status === undefined ? "media" : `media:status:${filter.status}`);
  }
  const rows = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(media)
    .where(where(tenantId, bindings(filter)));
  return rows[0]?.n ?? 0;
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

/** Share-locks a drive folder of the tenant (it must not be deleted while a file goes in); false if absent. */
export async function lockFolder(db: Executor, tenantId: string, folderId: string): Promise<boolean> {
  const rows = await db
    .select({ id: driveFolders.id })
    .from(driveFolders)
    .where(and(eq(driveFolders.tenantId, tenantId), eq(driveFolders.id, folderId)))
    .for("share");
  return rows.length > 0;
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

/** The files of a drive folder (`null`: in no folder); `readyOnly` for a student's view. */
function inFolder(tenantId: string, folderId: string | null, readyOnly: boolean): SQL {
  return and(
    eq(media.tenantId, tenantId),
    folderId === null ? isNull(media.folderId) : eq(media.folderId, folderId),
    readyOnly ? eq(media.status, "ready") : undefined,
  ) as SQL;
}

export async function countInFolder(
  db: Executor,
  tenantId: string,
  folderId: string | null,
  readyOnly: boolean,
) {
  const rows = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(media)
    .where(inFolder(tenantId, folderId, readyOnly));
  return rows[0]?.n ?? 0;
}

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
    .where(inFolder(tenantId, folderId, readyOnly))
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
