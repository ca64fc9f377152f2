import { randomUUID } from "node:crypto";
import { and, asc, eq } from "drizzle-orm";
import {
  courseGrades,
  gradeCategories,
  gradeChanges,
  gradeItems,
  grades,
  users,
} from "../../src/db/schema/index.js";
import { createCategory } from "../../src/modules/gradebook/categories.js";
import { putGrade } from "../../src/modules/gradebook/grades.js";
import { createItem } from "../../src/modules/gradebook/items.js";
import { enrollAs, publishedCourse } from "../../src/modules/gradebook/test-fixtures.js";
import type { Harness, TestTenant } from "../../src/test-support/harness.js";
import type { Fixtures } from "./fixture.js";

type Params = string | Record<string, string>;
const idOf = (params: Params) => (typeof params === "string" ? params : (params.id as string));
const SYSTEM = { kind: "system" } as const;

/**
 * One user per tenant, enrolled as a student in each course the fixtures make: the matrix's tenants are on the
 * free plan's student limit, which other groups' fixtures fill (a user with a student enrollment takes a seat).
 */
const learners = new Map<string, string>();
async function student(h: Harness, t: TestTenant, courseId: string): Promise<string> {
  let id = learners.get(t.id);
  if (id === undefined) {
    const [row] = await h.database.db
      .insert(users)
      .values({
        tenantId: t.id,
        name: "Matrix Student",
        email: `s-${randomUUID()}@${t.slug}.test`,
        role: "student",
      })
      .returning({ id: users.id });
    id = (row as { id: string }).id;
    learners.set(t.id, id);
  }
  await enrollAs(h.database.db, t.id, id, courseId);
  return id;
}

/** A course with a category, an item and one student's grade: what every gradebook route may touch. */
async function gradedCourse(h: Harness, t: TestTenant) {
  const db = h.database.db;
  const courseId = await publishedCourse(db, t.id);
  const category = await createCategory(db, t.id, SYSTEM, courseId, { name: "Matrix", weight: 50 });
  const item = await createItem(db, t.id, SYSTEM, courseId, {
    title: "Matrix",
    maxPoints: 10,
    categoryId: category.id,
  });
  const userId = await student(h, t, courseId);
  await putGrade(db, t.id, SYSTEM, item.id, userId, { score: 7 });
  return { courseId, categoryId: category.id, itemId: item.id, userId };
}

const course = async (h: Harness, t: TestTenant) => (await gradedCourse(h, t)).courseId;
const category = async (h: Harness, t: TestTenant) => (await gradedCourse(h, t)).categoryId;
const item = async (h: Harness, t: TestTenant) => (await gradedCourse(h, t)).itemId;
const gradePair = async (h: Harness, t: TestTenant) => {
  const made = await gradedCourse(h, t);
  return { id: made.itemId, userId: made.userId };
};

/** Everything of the course's gradebook, in a stable order: nothing of it may change on a refused request. */
async function courseTree(h: Harness, t: TestTenant, courseId: string) {
  const db = h.database.db;
  const items = await db
    .select()
    .from(gradeItems)
    .where(and(eq(gradeItems.tenantId, t.id), eq(gradeItems.courseId, courseId)))
    .orderBy(asc(gradeItems.id));
  if (items.length === 0) return undefined;
  return {
    items,
    categories: await db
      .select()
      .from(gradeCategories)
      .where(and(eq(gradeCategories.tenantId, t.id), eq(gradeCategories.courseId, courseId)))
      .orderBy(asc(gradeCategories.id)),
    grades: await db
      .select()
      .from(grades)
      .where(and(eq(grades.tenantId, t.id), eq(grades.courseId, courseId)))
      .orderBy(asc(grades.id)),
    courseGrades: await db
      .select()
      .from(courseGrades)
      .where(and(eq(courseGrades.tenantId, t.id), eq(courseGrades.courseId, courseId)))
      .orderBy(asc(courseGrades.userId)),
    changes: await db
      .select()
      .from(gradeChanges)
      .where(and(eq(gradeChanges.tenantId, t.id), eq(gradeChanges.courseId, courseId)))
      .orderBy(asc(gradeChanges.seq)),
  };
}

const courseOf = async (
  h: Harness,
  t: TestTenant,
  table: typeof gradeItems | typeof gradeCategories,
  id: string,
) => {
  const [row] = await h.database.db
    .select({ courseId: table.courseId })
    .from(table)
    .where(and(eq(table.tenantId, t.id), eq(table.id, id)));
  return row?.courseId;
};

const courseSnapshot = (h: Harness, t: TestTenant, params: Params) => courseTree(h, t, idOf(params));
const itemSnapshot = async (h: Harness, t: TestTenant, params: Params) => {
  const courseId = await courseOf(h, t, gradeItems, idOf(params));
  return courseId === undefined ? undefined : courseTree(h, t, courseId);
};
const categorySnapshot = async (h: Harness, t: TestTenant, params: Params) => {
  const courseId = await courseOf(h, t, gradeCategories, idOf(params));
  return courseId === undefined ? undefined : courseTree(h, t, courseId);
};

export const fixtures: Fixtures = {
  "GET /api/institution/courses/:id/grade-categories": { makeObject: course, snapshot: courseSnapshot },
  "POST /api/institution/courses/:id/grade-categories": {
    body: { name: "Matrix", weight: 10 },
    makeObject: course,
    snapshot: courseSnapshot,
  },
  "PATCH /api/institution/grade-categories/:id": {
    body: { weight: 20 },
    makeObject: category,
    snapshot: categorySnapshot,
  },
  "DELETE /api/institution/grade-categories/:id": { makeObject: category, snapshot: categorySnapshot },
  "GET /api/institution/courses/:id/grade-items": { makeObject: course, snapshot: courseSnapshot },
  "POST /api/institution/courses/:id/grade-items": {
    body: { title: "Matrix", maxPoints: 5 },
    makeObject: course,
    snapshot: courseSnapshot,
  },
  "GET /api/institution/grade-items/:id": { makeObject: item, snapshot: itemSnapshot },
  "PATCH /api/institution/grade-items/:id": {
    body: { maxPoints: 20 },
    makeObject: item,
    snapshot: itemSnapshot,
  },
  "DELETE /api/institution/grade-items/:id": { makeObject: item, snapshot: itemSnapshot },
  "GET /api/institution/grade-items/:id/grades": { makeObject: item, snapshot: itemSnapshot },
  "PUT /api/institution/grade-items/:id/grades/:userId": {
    body: { score: 1 },
    makeObject: gradePair,
    snapshot: itemSnapshot,
  },
  "POST /api/institution/courses/:id/grades/bulk": {
    body: { items: [{ gradeItemId: randomUUID(), userId: randomUUID(), score: 1 }] },
    makeObject: course,
    snapshot: courseSnapshot,
  },
  "POST /api/institution/courses/:id/grades/post": {
    body: { gradeItemIds: [randomUUID()] },
    makeObject: course,
    snapshot: courseSnapshot,
  },
  "GET /api/institution/courses/:id/gradebook": { makeObject: course, snapshot: courseSnapshot },
  "GET /api/institution/courses/:id/grade-changes": { makeObject: course, snapshot: courseSnapshot },
  "GET /api/institution/courses/:id/gradebook.csv": { makeObject: course, snapshot: courseSnapshot },
};
