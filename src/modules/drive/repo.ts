import { and, asc, eq, inArray, type SQL, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import { toIso } from "../../db/schema/columns.js";
import { classGroupMembers, driveFolders, enrollments, tenantCounters } from "../../db/schema/index.js";
import { folderKey, NIL_UUID } from "../media/repo.js";
import type { FolderScope } from "./schemas.js";

export type FolderRow = typeof driveFolders.$inferSelect;

/** A student reads a folder of the institution, of a course it is enrolled in, or of a class it belongs to. */
export function readableBy(userId: string): SQL {
  return sql`(
    ${driveFolders.scope} = 'institution'
    OR (${driveFolders.scope} = 'course' AND EXISTS (
      SELECT 1 FROM ${enrollments} e
      WHERE e.tenant_id = ${driveFolders.tenantId} AND e.course_id = ${driveFolders.courseId}
        AND e.user_id = ${userId} AND e.status IN ('active', 'completed')))
    OR (${driveFolders.scope} = 'class' AND EXISTS (
      SELECT 1 FROM ${classGroupMembers} m
      WHERE m.tenant_id = ${driveFolders.tenantId} AND m.class_group_id = ${driveFolders.classId}
        AND m.user_id = ${userId}))
  )`;
}

export async function findFolder(
  db: Executor,
  tenantId: string,
  id: string,
  readerId?: string,
): Promise<FolderRow | undefined> {
  const rows = await db
    .select()
    .from(driveFolders)
    .where(
      and(
        eq(driveFolders.tenantId, tenantId),
        eq(driveFolders.id, id),
        readerId === undefined ? undefined : readableBy(readerId),
      ),
    );
  return rows[0];
}

export async function lockFolder(db: Executor, tenantId: string, id: string): Promise<FolderRow | undefined> {
  const rows = await db
    .select()
    .from(driveFolders)
    .where(and(eq(driveFolders.tenantId, tenantId), eq(driveFolders.id, id)))
    .for("update");
  return rows[0];
}

/** `/A/B/C`: the names from the top down to the folder (a folder tree has no cycles: moves are checked). */
export async function pathOf(db: Executor, tenantId: string, id: string): Promise<string> {
  const result = (await db.execute(sql`
    WITH RECURSIVE up(id, parent_id, name, depth) AS (
      SELECT id, parent_id, name, 0 FROM drive_folders WHERE tenant_id = ${tenantId} AND id = ${id}
      UNION ALL
      SELECT f.id, f.parent_id, f.name, up.depth + 1 FROM drive_folders f
      JOIN up ON f.tenant_id = ${tenantId} AND f.id = up.parent_id
    )
    SELECT coalesce('/' || string_agg(name, '/' ORDER BY depth DESC), '/') AS path FROM up`)) as unknown as {
    rows: { path: string }[];
  };
  return result.rows[0]?.path ?? "/";
}

/** The folder and every folder above it, for the move's cycle check. */
export async function ancestorsOf(db: Executor, tenantId: string, id: string): Promise<Set<string>> {
  const result = (await db.execute(sql`
    WITH RECURSIVE up(id, parent_id) AS (
      SELECT id, parent_id FROM drive_folders WHERE tenant_id = ${tenantId} AND id = ${id}
      UNION ALL
      SELECT f.id, f.parent_id FROM drive_folders f JOIN up ON f.tenant_id = ${tenantId} AND f.id = up.parent_id
    )
    SELECT id FROM up`)) as unknown as { rows: { id: string }[] };
  return new Set(result.rows.map((r) => r.id));
}

/** The folder and every folder below it. */
export async function subtreeOf(db: Executor, tenantId: string, id: string): Promise<string[]> {
  const result = (await db.execute(sql`
    WITH RECURSIVE down(id) AS (
      SELECT id FROM drive_folders WHERE tenant_id = ${tenantId} AND id = ${id}
      UNION ALL
      SELECT f.id FROM drive_folders f JOIN down ON f.tenant_id = ${tenantId} AND f.parent_id = down.id
    )
    SELECT id FROM down`)) as unknown as { rows: { id: string }[] };
  return result.rows.map((r) => r.id);
}

export async function setScope(
  db: Executor,
  tenantId: string,
  ids: readonly string[],
  scope: { scope: FolderScope; courseId: string | null; classId: string | null },
): Promise<void> {
  if (ids.length === 0) return;
  await db
    .update(driveFolders)
    .set({ ...scope, updatedAt: sql`now()` })
    .where(
      and(eq(driveFolders.tenantId, tenantId), sql`${driveFolders.id} = ANY(${sql.param(ids)}::uuid[])`),
    );
}

/** A student's top level: its audiences that hold top-level folders, and how many they hold together. */
export interface SharedRoots {
  folders: number;
  /** `key`: the course's or class's id, the nil uuid for the institution. */
  audiences: { scope: FolderScope; key: string }[];
}

/**
 * The top-level folders a student may read, per audience, from the counters (drive_roots:…, migration 0032): the
 * institution's and those of the courses and classes it is in, read for its own enrollments and memberships.
 */
export async function sharedRoots(db: Executor, tenantId: string, readerId: string): Promise<SharedRoots> {
  const result = (await db.execute(sql`
    SELECT c.counter, c.value FROM ${tenantCounters} c
    WHERE c.tenant_id = ${tenantId} AND c.value > 0 AND c.counter IN (
      SELECT 'drive_roots:institution'
      UNION ALL
      SELECT 'drive_roots:course:' || e.course_id FROM ${enrollments} e
      WHERE e.tenant_id = ${tenantId} AND e.user_id = ${readerId} AND e.status IN ('active', 'completed')
      UNION ALL
      SELECT 'drive_roots:class:' || m.class_group_id FROM ${classGroupMembers} m
      WHERE m.tenant_id = ${tenantId} AND m.user_id = ${readerId})`)) as unknown as {
    rows: { counter: string; value: number | string }[];
  };
  const audiences = result.rows.map((r) => {
    const [, scope, key] = r.counter.split(":") as [string, FolderScope, string | undefined];
    return { scope, key: key ?? NIL_UUID };
  });
  return { folders: result.rows.reduce((sum, r) => sum + Number(r.value), 0), audiences };
}

/** A top-level folder's audience in drive_folders_audience_roots_idx: its course or class, nil for the institution. */
const audienceKey = sql`coalesce(${driveFolders.courseId}, ${driveFolders.classId}, ${sql.raw(`'${NIL_UUID}'::uuid`)})`;

const folded = sql`aula_fold(${driveFolders.name})`;
/** A folder's columns under their own names, and the folded name the walks are merged by. */
const rootColumns = sql`${driveFolders.id} AS id, ${driveFolders.tenantId} AS tenant_id,
  ${driveFolders.parentId} AS parent_id, ${driveFolders.name} AS name, ${driveFolders.scope} AS scope,
  ${driveFolders.courseId} AS course_id, ${driveFolders.classId} AS class_id,
  ${driveFolders.createdAt} AS created_at, ${driveFolders.updatedAt} AS updated_at, ${folded} AS folded`;

/**
 * A window of the top-level folders a student may read, by folded name. Kept as one filter on the walk of the top
 * level, a student of a few hundred folders among 50,000 read the top level until enough of it was its own.
 * Here each audience holding folders (sharedRoots) is walked apart, in drive_folders_audience_roots_idx
 * (migration 0044), and the walks are merged in order (a Merge Append): about the page's rows are read, and
 * nothing is sorted, however large the top level and whichever audiences it is shared with.
 */
export async function listSharedRoots(
  db: Executor,
  tenantId: string,
  audiences: SharedRoots["audiences"],
  window: { limit: number; offset: number },
): Promise<FolderRow[]> {
  if (audiences.length === 0) return [];
  const walk = (a: SharedRoots["audiences"][number]) =>
    sql`(SELECT ${rootColumns} FROM ${driveFolders}
      WHERE ${driveFolders.tenantId} = ${tenantId} AND ${driveFolders.parentId} IS NULL
        AND ${driveFolders.scope} = ${a.scope} AND ${audienceKey} = ${a.key}::uuid
      ORDER BY ${folded}, ${driveFolders.id} LIMIT ${window.offset + window.limit})`;
  const walks = audiences.map(walk);
  const result = (await db.execute(sql`
    SELECT * FROM (${sql.join(walks, sql` UNION ALL `)}) AS shared
    ORDER BY shared.folded, shared.id LIMIT ${window.limit} OFFSET ${window.offset}`)) as unknown as {
    rows: Record<string, string | Date | null>[];
  };
  return result.rows.map((r) => ({
    id: r.id as string,
    tenantId: r.tenant_id as string,
    parentId: r.parent_id as string | null,
    name: r.name as string,
    scope: r.scope as string,
    courseId: r.course_id as string | null,
    classId: r.class_id as string | null,
    createdAt: toIso(r.created_at as string | Date),
    updatedAt: toIso(r.updated_at as string | Date),
  }));
}

/**
 * What a folder holds as the reader sees it, from the counters the drive's triggers keep (migration 0032), so a
 * page of a large folder does not count it. `folders`: sub-folders directly inside; a student who may read a
 * folder may read all of them (a sub-folder carries its root's scope), so the count is the same for it. At the
 * top level a student's folders are those of the institution and of the courses and classes it is in: the sum
 * of a counter per audience, read for its own enrollments and memberships only. `files`: directly inside, the
 * ready ones for a student (who sees no file at the top level).
 */
export async function countChildren(
  db: Executor,
  tenantId: string,
  id: string | null,
  readerId?: string,
): Promise<{ folders: number; files: number }> {
  if (readerId !== undefined && id === null)
    return { folders: (await sharedRoots(db, tenantId, readerId)).folders, files: 0 };
  const key = id === null ? "root" : id.toLowerCase();
  const folders = `drive_children:folders:${key}`;
  const files = `drive_children:${readerId === undefined ? "files" : "ready"}:${key}`;
  const rows = await db
    .select({ counter: tenantCounters.counter, value: tenantCounters.value })
    .from(tenantCounters)
    .where(and(eq(tenantCounters.tenantId, tenantId), inArray(tenantCounters.counter, [folders, files])));
  const value = (name: string) => Number(rows.find((r) => r.counter === name)?.value ?? 0);
  return { folders: value(folders), files: value(files) };
}

/**
 * A window of the sub-folders of one folder (`null`: the top level), by folded name: a walk of
 * drive_folders_children_idx, which is in that order under the tenant and the parent. A student's top level is
 * listSharedRoots; below it, every sub-folder of a folder it may read is readable too.
 */
export async function listFolders(
  db: Executor,
  tenantId: string,
  id: string | null,
  window: { limit: number; offset: number },
  readerId?: string,
) {
  return db
    .select()
    .from(driveFolders)
    .where(
      and(
        eq(driveFolders.tenantId, tenantId),
        sql`${folderKey(driveFolders.parentId)} = ${id ?? NIL_UUID}`,
        readerId === undefined ? undefined : readableBy(readerId),
      ),
    )
    .orderBy(asc(sql`aula_fold(${driveFolders.name})`), asc(driveFolders.id))
    .limit(window.limit)
    .offset(window.offset);
}

/** Whether the course or class a scope names exists in the tenant (share-locked until the transaction ends). */
export async function targetExists(
  db: Executor,
  tenantId: string,
  table: "courses" | "class_groups",
  id: string,
) {
  const result = (await db.execute(
    sql`SELECT 1 FROM ${sql.identifier(table)} WHERE tenant_id = ${tenantId} AND id = ${id} FOR SHARE`,
  )) as unknown as { rows: unknown[] };
  return result.rows.length > 0;
}

/** Moves and scope changes of one tenant's folders queue here, so two concurrent moves cannot make a cycle. */
export async function lockTree(db: Executor, tenantId: string): Promise<void> {
  await db.execute(sql`SELECT pg_advisory_xact_lock(hashtext('aula_drive_tree'), hashtext(${tenantId}))`);
}
