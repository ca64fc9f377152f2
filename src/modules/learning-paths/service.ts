import type { Executor } from "../../db/client.js";
import { AppError, type DetailKey, notFound } from "../../platform/errors/app-error.js";
import { cappedPageEnvelope } from "../../platform/pagination/capped.js";
import { pageWindow } from "../../platform/pagination/pagination.js";
import { type Reader, STAFF } from "../courses/audience.js";
import { existingCourses } from "../enrollments/lookups.js";
import type { Actor } from "../events/actor.js";
import { learnerStanding, pathRecord } from "./learner.js";
import { refreshPathProgress } from "./progress.js";
import * as repo from "./repo.js";
import type {
  CreatePathInput,
  LearningPathRecord,
  ListPathsQueryType,
  PathCourseInput,
  UpdatePathInput,
} from "./schemas.js";
import { checkCourses, type PathCourseRow } from "./validate.js";

export { type Reader, readerOf } from "../courses/audience.js";

const SYSTEM: Actor = { kind: "system" };

/** Paths as their records read, for the reader: courses and enrolled counts in one statement each for the page. */
async function recordsOf(
  db: Executor,
  tenantId: string,
  rows: readonly repo.PathRow[],
  reader: Reader,
): Promise<LearningPathRecord[]> {
  const ids = rows.map((r) => r.id);
  const [courses, counts] = await Promise.all([
    repo.coursesOf(db, tenantId, ids),
    repo.enrolledCounts(db, tenantId, ids),
  ]);
  const standing =
    reader.kind === "learner" ? await learnerStanding(db, tenantId, reader.userId, rows, courses) : undefined;
  return rows.map((row) =>
    pathRecord(row, courses.get(row.id) ?? [], counts.get(row.id) ?? 0, standing?.get(row.id)),
  );
}

/** The institution's paths; a student's list holds the published paths the student is enrolled in. */
export async function listPaths(
  db: Executor,
  tenantId: string,
  query: ListPathsQueryType,
  reader: Reader = STAFF,
) {
  const window = pageWindow(query);
  const filter = { search: query.search, status: query.status };
  const learner = reader.kind === "learner" ? reader.userId : undefined;
  const [rows, total] = await Promise.all([
    repo.listPaths(db, tenantId, filter, query.sort ?? "-createdAt", window, learner),
    repo.countPaths(db, tenantId, filter, learner),
  ]);
  return cappedPageEnvelope(await recordsOf(db, tenantId, rows, reader), total, window);
}

export async function getPath(
  db: Executor,
  tenantId: string,
  id: string,
  reader: Reader = STAFF,
): Promise<LearningPathRecord> {
  const row = await repo.findPath(db, tenantId, id);
  if (row === undefined) throw notFound();
  const [record] = await recordsOf(db, tenantId, [row], reader);
  // A student reads only the published paths it is enrolled in: anything else is 404 to it.
  if (reader.kind === "learner" && (row.status !== "published" || record?.progress === undefined))
    throw notFound();
  return record as LearningPathRecord;
}

/** The courses checked (shape and cycles) and found in the tenant; every problem is named by its field. */
async function checkedCourses(
  tx: Executor,
  tenantId: string,
  given: readonly PathCourseInput[],
): Promise<PathCourseRow[]> {
  const { rows, details } = checkCourses(given);
  const found = await existingCourses(tx, tenantId, [...new Set(rows.map((r) => r.courseId))]);
  const unknown: DetailKey[] = [];
  given.forEach((c, i) => {
    const id = c.courseId.toLowerCase();
    if (!found.has(id))
      unknown.push({ field: `courses[${i}].courseId`, key: "field.unknown_course", params: { id } });
  });
  if (unknown.length > 0 || details.length > 0) {
    throw new AppError("validation_failed", { details: [...unknown, ...details] });
  }
  return rows;
}

const requiredIn = (rows: readonly PathCourseRow[]) => rows.filter((r) => r.required).length;

export function createPath(
  db: Executor,
  tenantId: string,
  input: CreatePathInput,
): Promise<LearningPathRecord> {
  return db.transaction(async (tx) => {
    const courses = await checkedCourses(tx, tenantId, input.courses);
    const row = await repo.insertPath(
      tx,
      tenantId,
      {
        title: input.title,
        description: input.description ?? null,
        sequential: input.sequential ?? false,
        status: input.status ?? "draft",
      },
      requiredIn(courses),
    );
    await repo.replaceCourses(tx, tenantId, row.id, courses);
    return pathRecord(row, courses, 0);
  });
}

/**
 * Changes a path; `courses` replaces its whole list. Its enrolled users' progress is then counted again in the
 * same transaction (one statement over the path's enrollments), which can complete the path for some of them
 * (`learning_path_completed`). Users already enrolled are not enrolled in courses added here: enrolling them in
 * the path again does that (they are reported `skipped`, with the course enrollments made).
 */
export function updatePath(
  db: Executor,
  tenantId: string,
  id: string,
  input: UpdatePathInput,
  actor: Actor = SYSTEM,
): Promise<LearningPathRecord> {
  return db.transaction(async (tx) => {
    const before = await repo.findPath(tx, tenantId, id, "no key update");
    if (before === undefined) throw notFound();
    const { courses: given, ...fields } = input;
    const courses = given === undefined ? undefined : await checkedCourses(tx, tenantId, given);
    if (courses !== undefined) await repo.replaceCourses(tx, tenantId, id, courses);
    const row = await repo.updatePath(tx, tenantId, id, {
      ...fields,
      ...(courses === undefined ? {} : { requiredCount: requiredIn(courses) }),
    });
    if (courses !== undefined) await refreshPathProgress(tx, tenantId, { pathId: id }, actor);
    const [record] = await recordsOf(tx, tenantId, [row], STAFF);
    return record as LearningPathRecord;
  });
}

/**
 * Deletes a path with its path enrollments; the course enrollments it made stay. A path that users are enrolled
 * in is kept (409) unless the caller forces it.
 */
export async function deletePath(
  db: Executor,
  tenantId: string,
  id: string,
  options: { force?: boolean } = {},
): Promise<void> {
  await db.transaction(async (tx) => {
    // FOR UPDATE conflicts with the key-share lock a concurrent path enrollment's foreign key takes.
    const path = await repo.findPath(tx, tenantId, id, "update");
    if (path === undefined) throw notFound();
    if (options.force !== true && (await repo.hasEnrollments(tx, tenantId, id))) {
      throw new AppError("conflict", { messageKey: "conflict.path_has_enrollments" });
    }
    await repo.deletePath(tx, tenantId, id);
  });
}
