import { and, asc, eq, type SQL, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import { readCounter } from "../../db/counters.js";
import { type Bindable, runPageQuery } from "../../db/page-query.js";
import { gradeCategories } from "../../db/schema/index.js";
import type { Principal } from "../../platform/auth/types.js";
import { AppError, notFound } from "../../platform/errors/app-error.js";
import { cappedPageEnvelope, exactTotal } from "../../platform/pagination/capped.js";
import { type PageWindow, pageWindow } from "../../platform/pagination/pagination.js";
import type { Actor } from "../events/actor.js";
import { recomputeCourseGrades } from "./course-grades.js";
import { lockStaffCourse, readableCourse } from "./guard.js";
import {
  type CategoryRecord,
  type CreateCategoryInput,
  MAX_CATEGORIES,
  type UpdateCategoryInput,
} from "./item-schemas.js";

const columns = {
  id: gradeCategories.id,
  courseId: gradeCategories.courseId,
  name: gradeCategories.name,
  weight: gradeCategories.weight,
  dropLowest: gradeCategories.dropLowest,
  position: gradeCategories.position,
  createdAt: gradeCategories.createdAt,
  updatedAt: gradeCategories.updatedAt,
};

const counterOf = (courseId: string) => `grade_categories:course_id:${courseId}`;

function where(tenantId: Bindable, courseId: Bindable): SQL {
  return and(eq(gradeCategories.tenantId, tenantId), eq(gradeCategories.courseId, courseId)) as SQL;
}

async function page(db: Executor, tenantId: string, courseId: string, window: PageWindow) {
  return runPageQuery(db, "grade_categories", tenantId, { courseId }, window, (p, name) =>
    db
      .select(columns)
      .from(gradeCategories)
      .where(where(p.tenantId, p.courseId as Bindable))
      .orderBy(asc(gradeCategories.position), asc(gradeCategories.id))
      .limit(p.limit)
      .offset(p.offset)
      .prepare(name),
  ) as Promise<CategoryRecord[]>;
}

export async function findCategory(db: Executor, tenantId: string, id: string) {
  const rows = await db
    .select(columns)
    .from(gradeCategories)
    .where(and(eq(gradeCategories.tenantId, tenantId), eq(gradeCategories.id, id)));
  return rows[0] as CategoryRecord | undefined;
}

/** A course's categories in position order; a student's session reads those of its own course. */
export async function listCategories(
  db: Executor,
  tenantId: string,
  principal: Principal,
  courseId: string,
  query: { page?: number; perPage?: number },
) {
  const window = pageWindow(query);
  await readableCourse(db, tenantId, principal, courseId);
  const [data, total] = await Promise.all([
    page(db, tenantId, courseId, window),
    readCounter(db, tenantId, counterOf(courseId)),
  ]);
  return cappedPageEnvelope(data, exactTotal(total), window);
}

export async function createCategory(
  db: Executor,
  tenantId: string,
  actor: Actor,
  courseId: string,
  input: CreateCategoryInput,
): Promise<CategoryRecord> {
  return db.transaction(async (tx) => {
    await lockStaffCourse(tx, tenantId, actor, courseId);
    const count = await readCounter(tx, tenantId, counterOf(courseId));
    if (count >= MAX_CATEGORIES)
      throw new AppError("conflict", {
        messageKey: "conflict.grade_limit",
        params: { limit: MAX_CATEGORIES },
      });
    const [row] = await tx
      .insert(gradeCategories)
      .values({
        tenantId,
        courseId,
        name: input.name,
        weight: input.weight ?? null,
        dropLowest: input.dropLowest ?? 0,
        position: input.position ?? count + 1,
      })
      .returning(columns);
    // A first weight turns the course to weighted grading: every student's course grade changes.
    if (input.weight !== undefined && input.weight !== null)
      await recomputeCourseGrades(tx, tenantId, courseId, "all", actor);
    return row as CategoryRecord;
  });
}

/** The category, under its course's lock, for a staff actor allowed on that course. */
async function lockedCategory(tx: Executor, tenantId: string, actor: Actor, id: string) {
  const seen = await findCategory(tx, tenantId, id);
  if (seen === undefined) throw notFound();
  await lockStaffCourse(tx, tenantId, actor, seen.courseId);
  return seen;
}

export async function updateCategory(
  db: Executor,
  tenantId: string,
  actor: Actor,
  id: string,
  input: UpdateCategoryInput,
): Promise<CategoryRecord> {
  return db.transaction(async (tx) => {
    const category = await lockedCategory(tx, tenantId, actor, id);
    const [row] = await tx
      .update(gradeCategories)
      .set({ ...input, updatedAt: sql`now()` })
      .where(and(eq(gradeCategories.tenantId, tenantId), eq(gradeCategories.id, id)))
      .returning(columns);
    if (input.weight !== undefined || input.dropLowest !== undefined)
      await recomputeCourseGrades(tx, tenantId, category.courseId, "all", actor);
    return row as CategoryRecord;
  });
}

/** Deletes the category; its items stay, in no category. */
export async function deleteCategory(
  db: Executor,
  tenantId: string,
  actor: Actor,
  id: string,
): Promise<void> {
  await db.transaction(async (tx) => {
    const category = await lockedCategory(tx, tenantId, actor, id);
    await tx
      .delete(gradeCategories)
      .where(and(eq(gradeCategories.tenantId, tenantId), eq(gradeCategories.id, id)));
    await recomputeCourseGrades(tx, tenantId, category.courseId, "all", actor);
  });
}
