import type { Executor } from "../../db/client.js";
import { AppError, notFound } from "../../platform/errors/app-error.js";
import { cappedPageEnvelope } from "../../platform/pagination/capped.js";
import { pageWindow } from "../../platform/pagination/pagination.js";
import { copyCourseContent, outlineOf } from "../course-modules/service.js";
import { type Actor, eventActorOf } from "../events/actor.js";
import { emitEvent } from "../events/emit.js";
import { dropCourseFromPaths } from "../learning-paths/progress.js";
import { sourceDeleted } from "../rag/reindex.js";
import { assertReadable, type Reader, STAFF } from "./audience.js";
import * as repo from "./repo.js";
import type {
  CourseRecord,
  CourseStatus,
  CreateCourseInput,
  DuplicateCourseInput,
  ListCoursesQueryType,
  UpdateCourseInput,
} from "./schemas.js";

export { type Reader, readerOf } from "./audience.js";
export type { Actor };

const SYSTEM: Actor = { kind: "system" };

type LifecycleEvent = "course_created" | "course_published" | "course_archived" | "course_deleted";

/** The lifecycle event a change of status to `status` announces; a course back in draft announces nothing. */
const STATUS_EVENT: Partial<Record<CourseStatus, LifecycleEvent>> = {
  published: "course_published",
  archived: "course_archived",
};

function emitLifecycle(
  tx: Executor,
  tenantId: string,
  type: LifecycleEvent,
  course: CourseRecord,
  actor: Actor,
) {
  return emitEvent(tx, {
    tenantId,
    type,
    data: { courseId: course.id, title: course.title, status: course.status, course },
    actor: eventActorOf(actor),
  });
}

/** The institution's courses; a learner's list holds only the published courses they are enrolled in. */
export async function listCourses(
  db: Executor,
  tenantId: string,
  query: ListCoursesQueryType,
  reader: Reader = STAFF,
) {
  const window = pageWindow(query);
  const filter = { search: query.search, status: query.status, tag: query.tag?.toLowerCase() };
  const learner = reader.kind === "learner" ? reader.userId : undefined;
  const [data, total] = await Promise.all([
    repo.listCourses(db, tenantId, filter, query.sort ?? "-createdAt", window, learner),
    repo.countCourses(db, tenantId, filter, learner),
  ]);
  return cappedPageEnvelope(data, total, window);
}

export async function getCourse(
  db: Executor,
  tenantId: string,
  id: string,
  reader: Reader = STAFF,
): Promise<CourseRecord> {
  const course = await repo.findCourse(db, tenantId, id);
  if (course === undefined) throw notFound();
  await assertReadable(db, tenantId, reader, { courseId: id });
  return course;
}

/** Creates a course and its `course_created` event together. Scripts and fixtures act as the system. */
export function createCourse(
  db: Executor,
  tenantId: string,
  input: CreateCourseInput,
  actor: Actor = SYSTEM,
): Promise<CourseRecord> {
  return db.transaction(async (tx) => {
    const course = await repo.insertCourse(tx, tenantId, input);
    await emitLifecycle(tx, tenantId, "course_created", course, actor);
    return course;
  });
}

/** Applies a change to a locked course and announces a new status (published, archived); a repeat is silent. */
async function applyChange(
  tx: Executor,
  tenantId: string,
  before: CourseRecord,
  input: UpdateCourseInput,
  actor: Actor,
): Promise<CourseRecord> {
  const course = (await repo.updateCourse(tx, tenantId, before.id, input)) as CourseRecord;
  const event = course.status === before.status ? undefined : STATUS_EVENT[course.status];
  if (event !== undefined) await emitLifecycle(tx, tenantId, event, course, actor);
  return course;
}

export async function updateCourse(
  db: Executor,
  tenantId: string,
  id: string,
  input: UpdateCourseInput,
  actor: Actor = SYSTEM,
): Promise<CourseRecord> {
  return db.transaction(async (tx) => {
    const before = await repo.lockCourse(tx, tenantId, id, "no key update");
    if (before === undefined) throw notFound();
    return applyChange(tx, tenantId, before, input, actor);
  });
}

/** The publish and archive actions: idempotent, so a course already in that status is answered unchanged. */
export async function setCourseStatus(
  db: Executor,
  tenantId: string,
  id: string,
  status: "published" | "archived",
  actor: Actor = SYSTEM,
): Promise<CourseRecord> {
  return db.transaction(async (tx) => {
    const before = await repo.lockCourse(tx, tenantId, id, "no key update");
    if (before === undefined) throw notFound();
    if (before.status === status) return before;
    return applyChange(tx, tenantId, before, { status }, actor);
  });
}

/**
 * Deletes a course with its modules, lessons, enrollments and completions (foreign keys cascade). A course that
 * still has enrollments other than dropped ones is kept (409) unless the caller forces it.
 */
export async function deleteCourse(
  db: Executor,
  tenantId: string,
  id: string,
  options: { force?: boolean } = {},
  actor: Actor = SYSTEM,
): Promise<void> {
  await db.transaction(async (tx) => {
    // FOR UPDATE, not NO KEY UPDATE: it conflicts with the KEY SHARE lock a concurrent enrollment's foreign key
    // takes, so an enrollment cannot slip in between the check below and the delete.
    const course = await repo.lockCourse(tx, tenantId, id, "update");
    if (course === undefined) throw notFound();
    if (options.force !== true && (await repo.hasCurrentEnrollments(tx, tenantId, id))) {
      throw new AppError("conflict", { messageKey: "conflict.course_has_enrollments" });
    }
    // The course leaves the learning paths holding it first, so their counts and progress stay exact.
    await dropCourseFromPaths(tx, tenantId, id, actor);
    await sourceDeleted(tx, tenantId, { courseId: id });
    await repo.deleteCourse(tx, tenantId, id);
    await emitLifecycle(tx, tenantId, "course_deleted", course, actor);
  });
}

const COPY_SUFFIX = " (copy)";
const MAX_TITLE = 255;

/**
 * A draft copy of a course with its modules (prerequisites pointing at the copies), lessons and quiz settings, in
 * one transaction. The source is share-locked, so its structure cannot change halfway through the copy.
 */
export async function duplicateCourse(
  db: Executor,
  tenantId: string,
  id: string,
  input: DuplicateCourseInput,
  actor: Actor = SYSTEM,
): Promise<CourseRecord> {
  return db.transaction(async (tx) => {
    const source = await repo.lockCourse(tx, tenantId, id, "share");
    if (source === undefined) throw notFound();
    const title = input.title ?? `${source.title.slice(0, MAX_TITLE - COPY_SUFFIX.length)}${COPY_SUFFIX}`;
    const copy = await repo.insertCourse(tx, tenantId, {
      title,
      description: source.description,
      status: "draft",
    });
    await copyCourseContent(tx, tenantId, source.id, copy.id);
    await emitLifecycle(tx, tenantId, "course_created", copy, actor);
    return copy;
  });
}

/** The course with its modules and lessons; a learner's outline holds only the published ones. */
export async function getOutline(db: Executor, tenantId: string, id: string, reader: Reader = STAFF) {
  const course = await getCourse(db, tenantId, id, reader);
  const modules = await outlineOf(db, tenantId, id);
  if (reader.kind === "staff") return { course, modules };
  return {
    course,
    modules: modules
      .filter((m) => m.status === "published")
      .map((m) => {
        const lessons = m.lessons.filter((l) => l.status === "published");
        return { ...m, lessonCount: lessons.length, lessons };
      }),
  };
}
