import { and, asc, eq, inArray, type SQL, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
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
  if (readerId !== undefined && id === null) {
    const result = (await db.execute(sql`
      SELECT coalesce(sum(c.value), 0)::int AS n FROM ${tenantCounters} c
      WHERE c.tenant_id = ${tenantId} AND c.counter IN (
        SELECT 'drive_roots:institution'
        UNION ALL
        SELECT 'drive_roots:course:' || e.course_id FROM ${enrollments} e
        WHERE e.tenant_id = ${tenantId} AND e.user_id = ${readerId} AND e.status IN ('active', 'completed')
        UNION ALL
        SELECT 'drive_roots:class:' || m.class_group_id FROM ${classGroupMembers} m
        WHERE m.tenant_id = ${tenantId} AND m.user_id = ${readerId})`)) as unknown as {
      rows: { n: number }[];
    };
    return { folders: result.rows[0]?.n ?? 0, files: 0 };
  }
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
 * drive_folders_children_idx, which is in that order under the tenant and the parent.
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
