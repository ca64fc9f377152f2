import type { Executor } from "../../db/client.js";
import { AppError, notFound, validationError } from "../../platform/errors/app-error.js";
import { cappedPageEnvelope, exactTotal } from "../../platform/pagination/capped.js";
import { pageWindow } from "../../platform/pagination/pagination.js";
import { assertReadable, type Reader, STAFF, statusFor } from "../courses/audience.js";
import { lockCourseStructure } from "../courses/repo.js";
import { assertUsableMedia } from "../media/service.js";
import { sourceDeleted, syncLessonDocuments } from "../rag/reindex.js";
import { assertLessonShape, defaultCriteria } from "./content.js";
import * as repo from "./repo.js";
import { storableContent } from "./sanitize.js";
import type {
  CreateLessonInput,
  LessonContent,
  LessonOrderInput,
  LessonRecord,
  LessonType,
  ListLessonsQueryType,
  MoveLessonInput,
  UpdateLessonInput,
} from "./schemas.js";

/**
 * A lesson by id, for other modules (completions, quizzes), inside their own transaction when they pass one.
 * `lock: "share"` keeps it from being deleted or moved until that transaction ends.
 */
export function findLesson(
  db: Executor,
  tenantId: string,
  id: string,
  options: { lock?: "share" | "update" } = {},
): Promise<LessonRecord | undefined> {
  return repo.findLesson(db, tenantId, id, options.lock);
}

/** A course's lessons, module by module in position order (for the course outline). */
export const lessonsOfCourse = repo.lessonsOfCourse;

/** Copies a course's lessons and their quiz settings into a copy's modules (for course duplication). */
export { copyLessons } from "./copy.js";

/** `wanted` within 1..`last`: a position past the end means last, as in Canvas. */
function clampPosition(wanted: number | undefined, last: number): number {
  return Math.min(wanted ?? last, last);
}

async function lessonIn(tx: Executor, tenantId: string, id: string): Promise<LessonRecord> {
  const seen = await repo.findLesson(tx, tenantId, id);
  if (seen === undefined) throw notFound();
  await lockCourseStructure(tx, tenantId, seen.courseId);
  // Read again under the course lock: a concurrent move or delete has finished by now.
  const lesson = await repo.findLesson(tx, tenantId, id);
  if (lesson === undefined) throw notFound();
  return lesson;
}

async function moduleIn(tx: Executor, tenantId: string, moduleId: string) {
  const seen = await repo.findModule(tx, tenantId, moduleId);
  if (seen === undefined || !(await lockCourseStructure(tx, tenantId, seen.courseId))) throw notFound();
  const module = await repo.findModule(tx, tenantId, moduleId);
  if (module === undefined) throw notFound();
  return module;
}

async function assertModuleExists(db: Executor, tenantId: string, moduleId: string): Promise<void> {
  if ((await repo.findModule(db, tenantId, moduleId)) === undefined) throw notFound();
}

export async function listLessons(
  db: Executor,
  tenantId: string,
  moduleId: string,
  query: ListLessonsQueryType,
  reader: Reader = STAFF,
) {
  const window = pageWindow(query);
  if (reader.kind === "learner") {
    const module = await repo.findModule(db, tenantId, moduleId);
    if (module === undefined) throw notFound();
    await assertReadable(db, tenantId, reader, { courseId: module.courseId, moduleId });
  }
  const status = statusFor(reader, query.status);
  if (status === null) return cappedPageEnvelope([], exactTotal(0), window);
  const filter = { status, type: query.type };
  const [, data, total] = await Promise.all([
    assertModuleExists(db, tenantId, moduleId),
    repo.listLessons(db, tenantId, moduleId, filter, query.sort ?? "position", window),
    repo.countLessons(db, tenantId, moduleId, filter),
  ]);
  return cappedPageEnvelope(data, total, window);
}

export async function getLesson(
  db: Executor,
  tenantId: string,
  id: string,
  reader: Reader = STAFF,
): Promise<LessonRecord> {
  const lesson = await repo.findLesson(db, tenantId, id);
  if (lesson === undefined) throw notFound();
  await assertReadable(db, tenantId, reader, { courseId: lesson.courseId, lessonId: id });
  return lesson;
}

/**
 * `content.mediaId` as the database prints ids (lowercase), so the reference index that guards a file's deletion
 * (`lessons_media_ref_idx`, compared as text) finds it whatever case the client wrote.
 */
function withCanonicalMedia(content: LessonContent): LessonContent {
  return content.mediaId === undefined ? content : { ...content, mediaId: content.mediaId.toLowerCase() };
}

export async function createLesson(
  db: Executor,
  tenantId: string,
  moduleId: string,
  input: CreateLessonInput,
): Promise<LessonRecord> {
  const content = withCanonicalMedia(await storableContent(input.content ?? {}));
  const completionCriteria = input.completionCriteria ?? defaultCriteria(input.type);
  const unlockAt = input.unlockAt ?? null;
  const dueAt = input.dueAt ?? null;
  return db.transaction(async (tx) => {
    const module = await moduleIn(tx, tenantId, moduleId);
    assertLessonShape(input.type, { content, completionCriteria, unlockAt, dueAt });
    if (content.mediaId !== undefined)
      await assertUsableMedia(tx, tenantId, content.mediaId, "content.mediaId");
    const count = await repo.countInModule(tx, tenantId, moduleId);
    const position = clampPosition(input.position, count + 1);
    if (position <= count) await repo.shiftPositions(tx, tenantId, moduleId, { from: position }, 1);
    const id = await repo.insertLesson(
      tx,
      tenantId,
      { courseId: module.courseId, moduleId },
      {
        title: input.title,
        type: input.type,
        content,
        position,
        status: input.status ?? "draft",
        isPreview: input.isPreview ?? false,
        durationSeconds: input.durationSeconds ?? null,
        requiredForCompletion: input.requiredForCompletion ?? true,
        completionCriteria,
        unlockAt,
        dueAt,
      },
    );
    return (await repo.findLesson(tx, tenantId, id)) as LessonRecord;
  });
}

/** Moves a lesson to `to` inside its module, shifting the lessons in between by one place. */
async function reposition(tx: Executor, tenantId: string, lesson: LessonRecord, to: number): Promise<void> {
  const from = lesson.position;
  if (to === from) return;
  if (to < from) await repo.shiftPositions(tx, tenantId, lesson.moduleId, { from: to, to: from - 1 }, 1);
  else await repo.shiftPositions(tx, tenantId, lesson.moduleId, { from: from + 1, to }, -1);
  await repo.updateLesson(tx, tenantId, lesson.id, { position: to });
}

export async function updateLesson(
  db: Executor,
  tenantId: string,
  id: string,
  input: UpdateLessonInput,
): Promise<LessonRecord> {
  // Sanitised before the transaction: it runs on a worker thread, and no row lock should wait for it.
  const storable = await storableContent(input.content);
  return db.transaction(async (tx) => {
    const lesson = await lessonIn(tx, tenantId, id);
    assertLessonShape(lesson.type as LessonType, {
      content: input.content,
      completionCriteria: input.completionCriteria,
      unlockAt: input.unlockAt === undefined ? lesson.unlockAt : input.unlockAt,
      dueAt: input.dueAt === undefined ? lesson.dueAt : input.dueAt,
    });
    if (input.content?.mediaId !== undefined) {
      await assertUsableMedia(tx, tenantId, input.content.mediaId, "content.mediaId");
    }
    const { position, ...given } = input;
    const fields = storable === undefined ? given : { ...given, content: withCanonicalMedia(storable) };
    if (position !== undefined) {
      const count = await repo.countInModule(tx, tenantId, lesson.moduleId);
      await reposition(tx, tenantId, lesson, clampPosition(position, count));
    }
    if (Object.keys(fields).length > 0) await repo.updateLesson(tx, tenantId, id, fields);
    const updated = (await repo.findLesson(tx, tenantId, id)) as LessonRecord;
    // Published now, or its text changed while published: knowledge bases following course content re-index it.
    if (updated.status === "published" && (lesson.status !== "published" || input.content !== undefined)) {
      await syncLessonDocuments(tx, tenantId, id);
    }
    return updated;
  });
}

export const quizHasAttempts = () => new AppError("conflict", { messageKey: "conflict.quiz_has_attempts" });

/** 409 when the lesson's quiz has attempts (grade history); deleting it otherwise cascades its completions. */
export async function deleteLesson(db: Executor, tenantId: string, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    const lesson = await lessonIn(tx, tenantId, id);
    if (await repo.quizAttemptsExist(tx, tenantId, { lessonId: id })) throw quizHasAttempts();
    await sourceDeleted(tx, tenantId, { lessonId: id });
    await repo.deleteLesson(tx, tenantId, id);
    await repo.shiftPositions(tx, tenantId, lesson.moduleId, { from: lesson.position + 1 }, -1);
  });
}

/** True when `ids` names each of `current` exactly once (the body schema already refuses duplicates). */
function sameSet(ids: readonly string[], current: readonly string[]): boolean {
  const have = new Set(current);
  return ids.length === current.length && ids.every((id) => have.has(id));
}

export async function reorderLessons(
  db: Executor,
  tenantId: string,
  moduleId: string,
  input: LessonOrderInput,
): Promise<{ data: LessonRecord[] }> {
  return db.transaction(async (tx) => {
    await moduleIn(tx, tenantId, moduleId);
    const ids = input.lessonIds.map((id) => id.toLowerCase());
    if (!sameSet(ids, await repo.lessonIdsOfModule(tx, tenantId, moduleId))) {
      throw validationError("lessonIds", "field.order_mismatch");
    }
    await repo.applyOrder(tx, tenantId, moduleId, ids);
    return { data: await repo.lessonsOfModule(tx, tenantId, moduleId) };
  });
}

/**
 * Moves a lesson to another module of the same course (or to another place in its own): the old module closes
 * the gap, the new one makes room, and the lesson's completions follow it.
 */
export async function moveLesson(
  db: Executor,
  tenantId: string,
  id: string,
  input: MoveLessonInput,
): Promise<LessonRecord> {
  return db.transaction(async (tx) => {
    const lesson = await lessonIn(tx, tenantId, id);
    const targetId = input.moduleId.toLowerCase();
    const target = await repo.findModule(tx, tenantId, targetId);
    if (target === undefined || target.courseId !== lesson.courseId) {
      throw validationError("moduleId", "field.same_course_module");
    }
    if (targetId === lesson.moduleId) {
      const count = await repo.countInModule(tx, tenantId, targetId);
      await reposition(tx, tenantId, lesson, clampPosition(input.position, count));
    } else {
      await repo.shiftPositions(tx, tenantId, lesson.moduleId, { from: lesson.position + 1 }, -1);
      const count = await repo.countInModule(tx, tenantId, targetId);
      const position = clampPosition(input.position, count + 1);
      await repo.shiftPositions(tx, tenantId, targetId, { from: position }, 1);
      await repo.updateLesson(tx, tenantId, id, { moduleId: targetId, position });
      await repo.moveCompletions(tx, tenantId, id, targetId);
    }
    return (await repo.findLesson(tx, tenantId, id)) as LessonRecord;
  });
}
