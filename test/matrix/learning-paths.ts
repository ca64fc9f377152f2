import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { learningPathCourses, learningPathEnrollments, learningPaths } from "../../src/db/schema/index.js";
import { createCourse } from "../../src/modules/courses/service.js";
import { createPath } from "../../src/modules/learning-paths/service.js";
import { type Harness, makeUser, type TestTenant } from "../../src/test-support/harness.js";
import type { Fixtures } from "./fixture.js";

type Params = string | Record<string, string>;
const idOf = (params: Params) => (typeof params === "string" ? params : (params.id as string));

const path = async (h: Harness, t: TestTenant) => {
  const course = await createCourse(h.database.db, t.id, { title: "Fixture" });
  return (await createPath(h.database.db, t.id, { title: "Fixture", courses: [{ courseId: course.id }] })).id;
};

/** A path with one enrolled user (a teacher: the matrix's tenants are on the free plan's student limit). */
const enrolled = async (h: Harness, t: TestTenant) => {
  const id = await path(h, t);
  const user = await makeUser(h, t, "teacher");
  await h.database.db.insert(learningPathEnrollments).values({ tenantId: t.id, pathId: id, userId: user.id });
  return { id, userId: user.id };
};

/** The path, its courses and its enrollments: nothing of them may change on a refused request. */
const pathTree = async (h: Harness, t: TestTenant, params: Params) => {
  const id = idOf(params);
  const db = h.database.db;
  const [row] = await db
    .select()
    .from(learningPaths)
    .where(and(eq(learningPaths.tenantId, t.id), eq(learningPaths.id, id)));
  if (row === undefined) return undefined;
  const courses = await db
    .select()
    .from(learningPathCourses)
    .where(and(eq(learningPathCourses.tenantId, t.id), eq(learningPathCourses.pathId, id)));
  const members = await db
    .select()
    .from(learningPathEnrollments)
    .where(and(eq(learningPathEnrollments.tenantId, t.id), eq(learningPathEnrollments.pathId, id)));
  return { row, courses, members };
};

export const fixtures: Fixtures = {
  "GET /api/institution/learning-paths": {},
  "POST /api/institution/learning-paths": {
    body: { title: "Matrix", courses: [{ courseId: randomUUID() }] },
  },
  "GET /api/institution/learning-paths/:id": { makeObject: path, snapshot: pathTree },
  "PATCH /api/institution/learning-paths/:id": {
    body: { title: "Renamed" },
    makeObject: path,
    snapshot: pathTree,
  },
  "DELETE /api/institution/learning-paths/:id": { makeObject: path, snapshot: pathTree },
  "GET /api/institution/learning-paths/:id/enrollments": { makeObject: enrolled, snapshot: pathTree },
  "POST /api/institution/learning-paths/:id/enrollments": {
    body: { userIds: [randomUUID()] },
    makeObject: path,
    snapshot: pathTree,
  },
  "DELETE /api/institution/learning-paths/:id/enrollments/:userId": {
    makeObject: enrolled,
    snapshot: pathTree,
  },
};
