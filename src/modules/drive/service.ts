import { sql } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import { isUniqueViolation } from "../../db/errors.js";
import { driveFolders } from "../../db/schema/index.js";
import type { Principal } from "../../platform/auth/types.js";
import { AppError, type DetailKey, notFound, validationError } from "../../platform/errors/app-error.js";
import { pageEnvelope, pageWindow } from "../../platform/pagination/pagination.js";
import type { Actor } from "../events/actor.js";
import { assertMayAddress } from "../media/audience.js";
import * as media from "../media/service.js";
import type { FolderRow } from "./repo.js";
import * as repo from "./repo.js";
import type {
  CreateFolderInput,
  EntryRecord,
  FolderRecord,
  FolderScope,
  UpdateFolderInput,
} from "./schemas.js";

/** A student's session reads what is shared with it; staff and keys read everything. */
export function readerOf(principal: Principal): string | undefined {
  return principal.kind === "session" && principal.role === "student" ? principal.userId : undefined;
}

const nameTaken = () => new AppError("conflict", { messageKey: "conflict.folder_name_taken" });

/** What a folder holds, as the reader sees it: read from the drive's counters (repo.countChildren). */
const counts = repo.countChildren;

async function toFolder(db: Executor, row: FolderRow, readerId?: string): Promise<FolderRecord> {
  const [path, inside] = await Promise.all([
    repo.pathOf(db, row.tenantId, row.id),
    counts(db, row.tenantId, row.id, readerId),
  ]);
  return {
    id: row.id,
    name: row.name,
    parentId: row.parentId,
    path,
    scope: row.scope as FolderScope,
    courseId: row.courseId,
    classId: row.classId,
    folderCount: inside.folders,
    fileCount: inside.files,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

type ScopeFields = { scope: FolderScope; courseId: string | null; classId: string | null };

/** A top-level folder's scope as given: `courseId` with `course`, `classId` with `class`, neither otherwise. */
async function checkedScope(
  tx: Executor,
  tenantId: string,
  given: { scope?: FolderScope; courseId?: string | null; classId?: string | null },
): Promise<ScopeFields> {
  const scope = given.scope ?? "institution";
  const courseId = given.courseId?.toLowerCase() ?? null;
  const classId = given.classId?.toLowerCase() ?? null;
  const details: DetailKey[] = [];
  if ((scope === "course") !== (courseId !== null))
    details.push({ field: "courseId", key: "field.scope_target" });
  if ((scope === "class") !== (classId !== null))
    details.push({ field: "classId", key: "field.scope_target" });
  if (details.length > 0) throw new AppError("validation_failed", { details });
  if (courseId !== null && !(await repo.targetExists(tx, tenantId, "courses", courseId))) {
    throw validationError("courseId", "field.unknown_course", { id: courseId });
  }
  if (classId !== null && !(await repo.targetExists(tx, tenantId, "class_groups", classId))) {
    throw validationError("classId", "field.unknown_class", { id: classId });
  }
  return { scope, courseId, classId };
}

const scopeGiven = (input: { scope?: unknown; courseId?: unknown; classId?: unknown }) =>
  input.scope !== undefined || input.courseId !== undefined || input.classId !== undefined;

const scopeOf = (row: FolderRow): ScopeFields => ({
  scope: row.scope as FolderScope,
  courseId: row.courseId,
  classId: row.classId,
});

export async function createFolder(db: Executor, tenantId: string, input: CreateFolderInput) {
  const parentId = input.parentId?.toLowerCase() ?? null;
  try {
    const row = await db.transaction(async (tx) => {
      let scope: ScopeFields;
      if (parentId !== null) {
        if (scopeGiven(input)) throw validationError("scope", "field.scope_on_root_only");
        const parent = await repo.findFolder(tx, tenantId, parentId);
        if (parent === undefined) throw validationError("parentId", "field.unknown_folder", { id: parentId });
        scope = scopeOf(parent);
      } else {
        scope = await checkedScope(tx, tenantId, input);
      }
      const rows = await tx
        .insert(driveFolders)
        .values({ tenantId, name: input.name.trim(), parentId, ...scope })
        .returning();
      return rows[0] as FolderRow;
    });
    return toFolder(db, row);
  } catch (err) {
    if (isUniqueViolation(err, "drive_folders_sibling_name_key")) throw nameTaken();
    throw err;
  }
}

export async function getFolder(db: Executor, tenantId: string, id: string, readerId?: string) {
  const row = await repo.findFolder(db, tenantId, id, readerId);
  if (row === undefined) throw notFound();
  return toFolder(db, row, readerId);
}

/**
 * Renames, moves (no cycles: the new parent may not be the folder or one of its sub-folders) and re-scopes. A
 * moved folder and everything below it take the new parent's scope; only a top-level folder's scope may be set.
 * Moves of one tenant queue on an advisory lock, so two concurrent moves cannot close a loop between them. A new
 * audience (a move under a folder of another scope, or a re-scope) shares every file below with it, so it needs
 * the right to address that audience (media/audience.ts), 403 otherwise.
 */
export async function updateFolder(
  db: Executor,
  tenantId: string,
  actor: Actor,
  id: string,
  input: UpdateFolderInput,
) {
  try {
    const row = await db.transaction(async (tx) => {
      await repo.lockTree(tx, tenantId);
      const current = await repo.lockFolder(tx, tenantId, id);
      if (current === undefined) throw notFound();
      const parentId =
        input.parentId === undefined ? current.parentId : (input.parentId?.toLowerCase() ?? null);
      let scope: ScopeFields | undefined;
      if (parentId !== null && input.parentId !== undefined) {
        const parent = await repo.findFolder(tx, tenantId, parentId);
        if (parent === undefined) throw validationError("parentId", "field.unknown_folder", { id: parentId });
        if ((await repo.ancestorsOf(tx, tenantId, parentId)).has(id)) {
          throw validationError("parentId", "field.folder_cycle");
        }
        scope = scopeOf(parent);
      }
      if (scopeGiven(input)) {
        if (parentId !== null) throw validationError("scope", "field.scope_on_root_only");
        scope = await checkedScope(tx, tenantId, {
          scope: input.scope ?? (current.scope as FolderScope),
          courseId: input.courseId === undefined ? current.courseId : input.courseId,
          classId: input.classId === undefined ? current.classId : input.classId,
        });
      }
      const widened =
        scope !== undefined &&
        (scope.scope !== current.scope ||
          scope.courseId !== current.courseId ||
          scope.classId !== current.classId);
      if (widened) await assertMayAddress(tx, tenantId, actor, scope as ScopeFields);
      await tx
        .update(driveFolders)
        .set({
          ...(input.name === undefined ? {} : { name: input.name.trim() }),
          parentId,
          updatedAt: sql`now()`,
        })
        .where(sql`${driveFolders.tenantId} = ${tenantId} AND ${driveFolders.id} = ${id}`);
      if (scope !== undefined)
        await repo.setScope(tx, tenantId, await repo.subtreeOf(tx, tenantId, id), scope);
      return (await repo.findFolder(tx, tenantId, id)) as FolderRow;
    });
    return toFolder(db, row);
  } catch (err) {
    if (isUniqueViolation(err, "drive_folders_sibling_name_key")) throw nameTaken();
    throw err;
  }
}

/**
 * Deletes a folder: 409 unless it is empty or `recursive`. Recursively, its sub-folders go (the foreign key
 * cascades) and so do the files in any of them, as `DELETE /media/:id` would delete each: 409 if a lesson uses
 * one, and their bytes removed after the commit.
 */
export async function deleteFolder(
  db: Executor,
  tenantId: string,
  id: string,
  recursive: boolean,
  deps: media.MediaDeps,
) {
  const files = await db.transaction(async (tx) => {
    await repo.lockTree(tx, tenantId);
    if ((await repo.lockFolder(tx, tenantId, id)) === undefined) throw notFound();
    const inside = await counts(tx, tenantId, id);
    if (!recursive && inside.folders + inside.files > 0) {
      throw new AppError("conflict", { messageKey: "conflict.folder_not_empty" });
    }
    const subtree = await repo.subtreeOf(tx, tenantId, id);
    const rows = await media.lockInFolders(tx, tenantId, subtree);
    // Bytes this process cannot remove (their store is not configured here): 503, and nothing is deleted.
    media.assertStoreReachable(deps, rows);
    const used = await media.countLessonsUsing(
      tx,
      tenantId,
      rows.map((r) => r.id),
    );
    if (used > 0)
      throw new AppError("conflict", { messageKey: "conflict.media_in_use", params: { lessons: used } });
    await media.deleteRows(
      tx,
      tenantId,
      rows.map((r) => r.id),
    );
    await tx
      .delete(driveFolders)
      .where(sql`${driveFolders.tenantId} = ${tenantId} AND ${driveFolders.id} = ${id}`);
    return rows;
  });
  await media.removeBytes(deps, files);
}

/**
 * A folder's children (`root`: the top level), folders first, then files, each by name; totals exact. The total
 * is read from counters and each part of the page walks an index in its order (migration 0032), so a page of a
 * folder of 100,000 files costs what a page of a small one does.
 */
export async function listChildren(
  db: Executor,
  tenantId: string,
  folderId: string | null,
  query: { page?: number; perPage?: number },
  readerId?: string,
) {
  if (folderId !== null && (await repo.findFolder(db, tenantId, folderId, readerId)) === undefined)
    throw notFound();
  const window = pageWindow(query);
  // A student's top level: the folders of its audiences, counted and walked per audience.
  const shared =
    readerId !== undefined && folderId === null ? await repo.sharedRoots(db, tenantId, readerId) : undefined;
  const total =
    shared === undefined
      ? await counts(db, tenantId, folderId, readerId)
      : { folders: shared.folders, files: 0 };
  // One window over folders then files: the folders' part first, the files fill what room is left.
  const folders =
    window.offset >= total.folders
      ? []
      : shared === undefined
        ? await repo.listFolders(db, tenantId, folderId, window, readerId)
        : await repo.listSharedRoots(db, tenantId, shared.audiences, window);
  const room = window.limit - folders.length;
  const files =
    room > 0 && !(readerId !== undefined && folderId === null)
      ? await media.listInFolder(db, tenantId, folderId, readerId !== undefined, {
          limit: room,
          offset: Math.max(0, window.offset - total.folders),
        })
      : [];
  const entries: EntryRecord[] = [
    ...folders.map((f) => ({
      type: "folder" as const,
      id: f.id,
      name: f.name,
      kind: null,
      contentType: null,
      sizeBytes: null,
      status: null,
      createdAt: f.createdAt,
      updatedAt: f.updatedAt,
    })),
    ...files.map((m) => {
      const record = media.toRecord(m);
      return {
        type: "file" as const,
        id: m.id,
        name: m.filename,
        kind: record.kind,
        contentType: m.contentType,
        sizeBytes: m.sizeBytes,
        status: record.status,
        createdAt: m.createdAt,
        updatedAt: m.updatedAt,
      };
    }),
  ];
  return pageEnvelope(entries, total.folders + total.files, window);
}
