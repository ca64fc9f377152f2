import type { Executor } from "../../db/client.js";
import { AppError, type DetailKey, notFound, validationError } from "../../platform/errors/app-error.js";
import { cappedPageEnvelope, exactTotal } from "../../platform/pagination/capped.js";
import { pageWindow } from "../../platform/pagination/pagination.js";
import { assertReadable, type Reader, STAFF, statusFor } from "../courses/audience.js";
import { courseExists, lockCourseStructure } from "../courses/repo.js";
import { quizAttemptsExist } from "../lessons/repo.js";
import { copyLessons, lessonsOfCourse, quizHasAttempts } from "../lessons/service.js";
import { sourceDeleted } from "../rag/reindex.js";
import * as repo from "./repo.js";
import type {
  CreateModuleInput,
  ListModulesQueryType,
  ModuleOrderInput,
  ModuleRecord,
  OutlineModuleRecord,
  UpdateModuleInput,
} from "./schemas.js";

function clampPosition(wanted: number | undefined, last: number): number {
  return Math.min(wanted ?? last, last);
}

/**
 * Every prerequisite must be a module of the same course at a lower position, which also rules out cycles. Run
 * after a change, inside its transaction, over the course as it now stands: a fault in the edited module's own
 * list names that entry; a fault elsewhere means the change put a module before one it depends on.
 */
async function assertPrerequisites(
  tx: Executor,
  tenantId: string,
  courseId: string,
  edited: string | undefined,
  orderField: string,
): Promise<void> {
  const structure = await repo.structureOf(tx, tenantId, courseId);
  const positions = new Map(structure.map((m) => [m.id, m.position]));
  const details: DetailKey[] = [];
  let orderBroken = false;
  for (const m of structure) {
    m.prerequisiteModuleIds.forEach((id, i) => {
      const at = positions.get(id);
      if (at !== undefined && at < m.position) return;
      if (m.id === edited) {
        details.push({
          field: `prerequisiteModuleIds[${i}]`,
          key: "field.prerequisite_invalid",
          params: { id },
        });
      } else {
        orderBroken = true;
      }
    });
  }
  if (orderBroken) details.push({ field: orderField, key: "field.order_breaks_prerequisites" });
  if (details.length > 0) throw new AppError("validation_failed", { details });
}

export async function listModules(
  db: Executor,
  tenantId: string,
  courseId: string,
  query: ListModulesQueryType,
  reader: Reader = STAFF,
) {
  const window = pageWindow(query);
  await assertReadable(db, tenantId, reader, { courseId });
  const status = statusFor(reader, query.status);
  if (status === null) return cappedPageEnvelope([], exactTotal(0), window);
  const filter = { status };
  const [exists, data, total] = await Promise.all([
    courseExists(db, tenantId, courseId),
    repo.listModules(db, tenantId, courseId, filter, query.sort ?? "position", window),
    repo.countModules(db, tenantId, courseId, filter),
  ]);
  if (!exists) throw notFound();
  return cappedPageEnvelope(await asReadBy(db, tenantId, reader, data), total, window);
}

/** A learner's modules count only the lessons a learner reads: the published ones. */
async function asReadBy(
  db: Executor,
  tenantId: string,
  reader: Reader,
  modules: ModuleRecord[],
): Promise<ModuleRecord[]> {
  if (reader.kind === "staff") return modules;
  const counts = await repo.publishedLessonCounts(
    db,
    tenantId,
    modules.map((m) => m.id),
  );
  return modules.map((m) => ({ ...m, lessonCount: counts.get(m.id) ?? 0 }));
}

export async function getModule(
  db: Executor,
  tenantId: string,
  id: string,
  reader: Reader = STAFF,
): Promise<ModuleRecord> {
  const module = await repo.findModule(db, tenantId, id);
  if (module === undefined) throw notFound();
  await assertReadable(db, tenantId, reader, { courseId: module.courseId, moduleId: id });
  const [read] = await asReadBy(db, tenantId, reader, [module]);
  return read as ModuleRecord;
}

export async function createModule(
  db: Executor,
  tenantId: string,
  courseId: string,
  input: CreateModuleInput,
): Promise<ModuleRecord> {
  return db.transaction(async (tx) => {
    if (!(await lockCourseStructure(tx, tenantId, courseId))) throw notFound();
    const count = await repo.countInCourse(tx, tenantId, courseId);
    const position = clampPosition(input.position, count + 1);
    if (position <= count) await repo.shiftPositions(tx, tenantId, courseId, { from: position }, 1);
    const id = await repo.insertModule(tx, tenantId, courseId, {
      title: input.title,
      description: input.description ?? null,
      position,
      status: input.status ?? "draft",
      unlockAt: input.unlockAt ?? null,
      prerequisiteModuleIds: (input.prerequisiteModuleIds ?? []).map((p) => p.toLowerCase()),
      completionRequirement: input.completionRequirement ?? "all",
      sequential: input.sequential ?? false,
    });
    await assertPrerequisites(tx, tenantId, courseId, id, "position");
    return (await repo.findModule(tx, tenantId, id)) as ModuleRecord;
  });
}

/** The module, read again under its course's lock so that a concurrent move or delete has finished. */
async function lockedModule(tx: Executor, tenantId: string, id: string): Promise<ModuleRecord> {
  const seen = await repo.findModule(tx, tenantId, id);
  if (seen === undefined) throw notFound();
  await lockCourseStructure(tx, tenantId, seen.courseId);
  const module = await repo.findModule(tx, tenantId, id);
  if (module === undefined) throw notFound();
  return module;
}

export async function updateModule(
  db: Executor,
  tenantId: string,
  id: string,
  input: UpdateModuleInput,
): Promise<ModuleRecord> {
  return db.transaction(async (tx) => {
    const module = await lockedModule(tx, tenantId, id);
    const { position, prerequisiteModuleIds, ...fields } = input;
    if (position !== undefined) {
      const to = clampPosition(position, await repo.countInCourse(tx, tenantId, module.courseId));
      const from = module.position;
      if (to < from) await repo.shiftPositions(tx, tenantId, module.courseId, { from: to, to: from - 1 }, 1);
      if (to > from) await repo.shiftPositions(tx, tenantId, module.courseId, { from: from + 1, to }, -1);
      if (to !== from) await repo.updateModule(tx, tenantId, id, { position: to });
    }
    const changes = {
      ...fields,
      ...(prerequisiteModuleIds === undefined
        ? {}
        : { prerequisiteModuleIds: prerequisiteModuleIds.map((p) => p.toLowerCase()) }),
    };
    if (Object.keys(changes).length > 0) await repo.updateModule(tx, tenantId, id, changes);
    if (position !== undefined || prerequisiteModuleIds !== undefined) {
      // Without a new list, a fault in this module's own prerequisites is the move's doing.
      const edited = prerequisiteModuleIds === undefined ? undefined : id;
      await assertPrerequisites(tx, tenantId, module.courseId, edited, "position");
    }
    return (await repo.findModule(tx, tenantId, id)) as ModuleRecord;
  });
}

export async function deleteModule(db: Executor, tenantId: string, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    const module = await lockedModule(tx, tenantId, id);
    if (await quizAttemptsExist(tx, tenantId, { moduleId: id })) throw quizHasAttempts();
    await sourceDeleted(tx, tenantId, { moduleId: id });
    await repo.deleteModule(tx, tenantId, module.courseId, id);
    await repo.shiftPositions(tx, tenantId, module.courseId, { from: module.position + 1 }, -1);
  });
}

export async function reorderModules(
  db: Executor,
  tenantId: string,
  courseId: string,
  input: ModuleOrderInput,
): Promise<{ data: ModuleRecord[] }> {
  return db.transaction(async (tx) => {
    if (!(await lockCourseStructure(tx, tenantId, courseId))) throw notFound();
    const ids = input.moduleIds.map((id) => id.toLowerCase());
    const current = new Set((await repo.structureOf(tx, tenantId, courseId)).map((m) => m.id));
    if (ids.length !== current.size || !ids.every((id) => current.has(id))) {
      throw validationError("moduleIds", "field.order_mismatch");
    }
    await repo.applyOrder(tx, tenantId, courseId, ids);
    await assertPrerequisites(tx, tenantId, courseId, undefined, "moduleIds");
    return { data: await repo.modulesOfCourse(tx, tenantId, courseId) };
  });
}

/** A course's modules in position order, each with its lessons in position order (two queries). */
export async function outlineOf(
  db: Executor,
  tenantId: string,
  courseId: string,
): Promise<OutlineModuleRecord[]> {
  const [modules, lessons] = await Promise.all([
    repo.modulesOfCourse(db, tenantId, courseId),
    lessonsOfCourse(db, tenantId, courseId),
  ]);
  const byModule = new Map(
    modules.map((m) => [m.id, { ...m, lessons: [] as OutlineModuleRecord["lessons"] }]),
  );
  for (const lesson of lessons) byModule.get(lesson.moduleId)?.lessons.push(lesson);
  return [...byModule.values()];
}

/** Copies a course's modules and lessons (with quiz settings) into another course, inside the caller's transaction. */
export async function copyCourseContent(
  tx: Executor,
  tenantId: string,
  fromCourseId: string,
  toCourseId: string,
): Promise<void> {
  const moduleMap = await repo.copyModules(tx, tenantId, fromCourseId, toCourseId);
  if (moduleMap.size > 0) await copyLessons(tx, tenantId, fromCourseId, toCourseId, moduleMap);
}
