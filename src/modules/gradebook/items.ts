import { and, asc, eq, type SQL, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import { readCounter } from "../../db/counters.js";
import { isUniqueViolation } from "../../db/errors.js";
import { type Bindable, runPageQuery } from "../../db/page-query.js";
import { qualified } from "../../db/qualified.js";
import { gradeCategories, gradeItems, rubrics } from "../../db/schema/index.js";
import type { Principal } from "../../platform/auth/types.js";
import { AppError, notFound, validationError } from "../../platform/errors/app-error.js";
import { cappedPageEnvelope, exactTotal } from "../../platform/pagination/capped.js";
import { type PageWindow, pageWindow } from "../../platform/pagination/pagination.js";
import type { Actor } from "../events/actor.js";

import { recomputeCourseGrades } from "./course-grades.js";
import { lockStaffCourse, readableCourse } from "./guard.js";
import { type CreateItemInput, type ItemRecord, MAX_ITEMS, type UpdateItemInput } from "./item-schemas.js";

export const itemColumns = {
  id: gradeItems.id,
  courseId: gradeItems.courseId,
  categoryId: gradeItems.categoryId,
  title: gradeItems.title,
  sourceType: gradeItems.sourceType,
  sourceId: gradeItems.sourceId,
  maxPoints: gradeItems.maxPoints,
  passPercent: gradeItems.passPercent,
  dueAt: gradeItems.dueAt,
  position: gradeItems.position,
  visibleToStudents: gradeItems.visibleToStudents,
  postPolicy: gradeItems.postPolicy,
  excludedFromFinal: gradeItems.excludedFromFinal,
  rubricId: gradeItems.rubricId,
  // The trigger-kept counter: one primary-key lookup per row.
  gradeCount: sql<number>`coalesce((SELECT c.value FROM tenant_counters c WHERE c.tenant_id = ${qualified(gradeItems.tenantId)}
    AND c.counter = 'grades:grade_item_id:' || ${qualified(gradeItems.id)}), 0)::int`,
  createdAt: gradeItems.createdAt,
  updatedAt: gradeItems.updatedAt,
};

const counterOf = (courseId: string) => `grade_items:course_id:${courseId}`;

function where(tenantId: Bindable, courseId: Bindable, visibleOnly: boolean): SQL {
  return and(
    eq(gradeItems.tenantId, tenantId),
    eq(gradeItems.courseId, courseId),
    visibleOnly ? eq(gradeItems.visibleToStudents, true) : undefined,
  ) as SQL;
}

async function page(
  db: Executor,
  tenantId: string,
  courseId: string,
  window: PageWindow,
  visibleOnly: boolean,
) {
  const list = visibleOnly ? "grade_items_visible" : "grade_items";
  return runPageQuery(db, list, tenantId, { courseId }, window, (p, name) =>
    db
      .select(itemColumns)
      .from(gradeItems)
      .where(where(p.tenantId, p.courseId as Bindable, visibleOnly))
      .orderBy(asc(gradeItems.position), asc(gradeItems.id))
      .limit(p.limit)
      .offset(p.offset)
      .prepare(name),
  ) as Promise<ItemRecord[]>;
}

/** Every item of a course in position order (the gradebook's columns; at most MAX_ITEMS). */
export async function itemsOfCourse(
  db: Executor,
  tenantId: string,
  courseId: string,
  visibleOnly: boolean,
): Promise<ItemRecord[]> {
  return (await db
    .select(itemColumns)
    .from(gradeItems)
    .where(where(tenantId, courseId, visibleOnly))
    .orderBy(asc(gradeItems.position), asc(gradeItems.id))) as ItemRecord[];
}

export async function findItem(db: Executor, tenantId: string, id: string): Promise<ItemRecord | undefined> {
  const rows = await db
    .select(itemColumns)
    .from(gradeItems)
    .where(and(eq(gradeItems.tenantId, tenantId), eq(gradeItems.id, id)));
  return rows[0] as ItemRecord | undefined;
}

/**
 * A course's items in position order. A student's session sees the items visible to students; its total is
 * then counted among the course's items (at most MAX_ITEMS), the staff's is the course's counter.
 */
export async function listItems(
  db: Executor,
  tenantId: string,
  principal: Principal,
  courseId: string,
  query: { page?: number; perPage?: number },
) {
  const window = pageWindow(query);
  const reader = await readableCourse(db, tenantId, principal, courseId);
  const learner = reader.kind === "learner";
  const [data, total] = await Promise.all([
    page(db, tenantId, courseId, window, learner),
    learner ? countVisible(db, tenantId, courseId) : readCounter(db, tenantId, counterOf(courseId)),
  ]);
  return cappedPageEnvelope(data, exactTotal(total), window);
}

async function countVisible(db: Executor, tenantId: string, courseId: string): Promise<number> {
  const rows = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(gradeItems)
    .where(where(tenantId, courseId, true));
  return rows[0]?.n ?? 0;
}

/** One item: staff of its course, or a student of it when the item is visible to students. */
export async function getItem(db: Executor, tenantId: string, principal: Principal, id: string) {
  const item = await findItem(db, tenantId, id);
  if (item === undefined) throw notFound();
  const reader = await readableCourse(db, tenantId, principal, item.courseId);
  if (reader.kind === "learner" && !item.visibleToStudents) throw notFound();
  return item;
}

/** 400 unless the category is one of the course's. */
async function assertCategory(tx: Executor, tenantId: string, courseId: string, categoryId: string | null) {
  if (categoryId === null) return;
  const rows = await tx
    .select({ id: gradeCategories.id })
    .from(gradeCategories)
    .where(
      and(
        eq(gradeCategories.tenantId, tenantId),
        eq(gradeCategories.id, categoryId),
        eq(gradeCategories.courseId, courseId),
      ),
    );
  if (rows.length === 0)
    throw validationError("categoryId", "field.unknown_grade_category", { id: categoryId });
}

/** 400 unless the rubric is the institution's or this course's (the foreign key alone admits another course's). */
async function assertRubric(
  tx: Executor,
  tenantId: string,
  courseId: string,
  rubricId: string | null | undefined,
) {
  if (rubricId === null || rubricId === undefined) return;
  const rows = await tx
    .select({ id: rubrics.id })
    .from(rubrics)
    .where(
      and(
        eq(rubrics.tenantId, tenantId),
        eq(rubrics.id, rubricId),
        sql`(${rubrics.courseId} IS NULL OR ${rubrics.courseId} = ${courseId})`,
      ),
    );
  if (rows.length === 0) throw validationError("rubricId", "field.unknown_rubric", { id: rubricId });
}

function sourceTaken(err: unknown): never {
  if (isUniqueViolation(err, "grade_items_source_key"))
    throw new AppError("conflict", { messageKey: "conflict.grade_source_taken" });
  throw err;
}

export async function createItem(
  db: Executor,
  tenantId: string,
  actor: Actor,
  courseId: string,
  input: CreateItemInput,
): Promise<ItemRecord> {
  return db.transaction(async (tx) => {
    await lockStaffCourse(tx, tenantId, actor, courseId);
    const categoryId = input.categoryId?.toLowerCase() ?? null;
    await assertCategory(tx, tenantId, courseId, categoryId);
    const rubricId = input.rubricId?.toLowerCase() ?? null;
    await assertRubric(tx, tenantId, courseId, rubricId);
    const count = await readCounter(tx, tenantId, counterOf(courseId));
    if (count >= MAX_ITEMS)
      throw new AppError("conflict", { messageKey: "conflict.grade_limit", params: { limit: MAX_ITEMS } });
    const [row] = await tx
      .insert(gradeItems)
      .values({
        tenantId,
        courseId,
        categoryId,
        title: input.title,
        sourceType: input.sourceType ?? "manual",
        sourceId: input.sourceId?.toLowerCase() ?? null,
        maxPoints: input.maxPoints,
        passPercent: input.passPercent ?? null,
        dueAt: input.dueAt ?? null,
        position: input.position ?? count + 1,
        visibleToStudents: input.visibleToStudents ?? true,
        postPolicy: input.postPolicy ?? "automatic",
        excludedFromFinal: input.excludedFromFinal ?? false,
        rubricId,
      })
      .returning({ id: gradeItems.id })
      .catch(sourceTaken);
    // A new item counts 0 in every student's final score.
    await recomputeCourseGrades(tx, tenantId, courseId, "all", actor);
    return (await findItem(tx, tenantId, (row as { id: string }).id)) as ItemRecord;
  });
}

async function lockedItem(tx: Executor, tenantId: string, actor: Actor, id: string): Promise<ItemRecord> {
  const item = await findItem(tx, tenantId, id);
  if (item === undefined) throw notFound();
  await lockStaffCourse(tx, tenantId, actor, item.courseId);
  return item;
}

/** What changes the course grades: then every student of the course is recomputed. */
const COUNTED = ["categoryId", "maxPoints", "excludedFromFinal", "visibleToStudents", "position"] as const;

export async function updateItem(
  db: Executor,
  tenantId: string,
  actor: Actor,
  id: string,
  input: UpdateItemInput,
): Promise<ItemRecord> {
  return db.transaction(async (tx) => {
    const item = await lockedItem(tx, tenantId, actor, id);
    const categoryId = input.categoryId === undefined ? undefined : (input.categoryId?.toLowerCase() ?? null);
    if (categoryId !== undefined) await assertCategory(tx, tenantId, item.courseId, categoryId);
    const rubricId = input.rubricId === undefined ? undefined : (input.rubricId?.toLowerCase() ?? null);
    await assertRubric(tx, tenantId, item.courseId, rubricId);
    await tx
      .update(gradeItems)
      .set({
        ...input,
        ...(categoryId === undefined ? {} : { categoryId }),
        ...(rubricId === undefined ? {} : { rubricId }),
        updatedAt: sql`now()`,
      })
      .where(and(eq(gradeItems.tenantId, tenantId), eq(gradeItems.id, id)));
    if (COUNTED.some((field) => input[field] !== undefined))
      await recomputeCourseGrades(tx, tenantId, item.courseId, "all", actor);
    return (await findItem(tx, tenantId, id)) as ItemRecord;
  });
}

/** 409 while the item has grades, unless `force`: then its grades go with it. */
export async function deleteItem(
  db: Executor,
  tenantId: string,
  actor: Actor,
  id: string,
  force: boolean,
): Promise<void> {
  await db.transaction(async (tx) => {
    const item = await lockedItem(tx, tenantId, actor, id);
    if (item.gradeCount > 0 && !force)
      throw new AppError("conflict", { messageKey: "conflict.grade_item_has_grades" });
    await tx.delete(gradeItems).where(and(eq(gradeItems.tenantId, tenantId), eq(gradeItems.id, id)));
    await recomputeCourseGrades(tx, tenantId, item.courseId, "all", actor);
  });
}
