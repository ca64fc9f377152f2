import { randomUUID } from "node:crypto";
import { and, asc, eq } from "drizzle-orm";
import { courseModules, courses, lessons } from "../../src/db/schema/index.js";
import { createModule } from "../../src/modules/course-modules/service.js";
import { createCourse } from "../../src/modules/courses/service.js";
import { createLesson } from "../../src/modules/lessons/service.js";
import type { Harness, TestTenant } from "../../src/test-support/harness.js";
import type { Fixture, Fixtures } from "./fixture.js";

type Params = string | Record<string, string>;
const idOf = (params: Params) => (typeof params === "string" ? params : (params.id as string));

const course = async (h: Harness, t: TestTenant) =>
  (await createCourse(h.database.db, t.id, { title: "Fixture" })).id;
const module = async (h: Harness, t: TestTenant) =>
  (await createModule(h.database.db, t.id, await course(h, t), { title: "Fixture module" })).id;
const lesson = async (h: Harness, t: TestTenant) =>
  (await createLesson(h.database.db, t.id, await module(h, t), { title: "Fixture lesson", type: "quiz" })).id;

/** The course with its modules and lessons: a refused request on a course route must leave all of it as it was. */
const courseTree = async (h: Harness, t: TestTenant, params: Params) => {
  const id = idOf(params);
  const db = h.database.db;
  return {
    course: (
      await db
        .select()
        .from(courses)
        .where(and(eq(courses.tenantId, t.id), eq(courses.id, id)))
    )[0],
    modules: await db
      .select()
      .from(courseModules)
      .where(and(eq(courseModules.tenantId, t.id), eq(courseModules.courseId, id)))
      .orderBy(asc(courseModules.position)),
    lessons: await db
      .select()
      .from(lessons)
      .where(and(eq(lessons.tenantId, t.id), eq(lessons.courseId, id)))
      .orderBy(asc(lessons.id)),
  };
};

const moduleTree = async (h: Harness, t: TestTenant, params: Params) => {
  const id = idOf(params);
  const db = h.database.db;
  const [row] = await db
    .select()
    .from(courseModules)
    .where(and(eq(courseModules.tenantId, t.id), eq(courseModules.id, id)));
  if (row === undefined) return undefined;
  return { module: row, course: await courseTree(h, t, row.courseId) };
};

const lessonRow = async (h: Harness, t: TestTenant, params: Params) =>
  (
    await h.database.db
      .select()
      .from(lessons)
      .where(and(eq(lessons.tenantId, t.id), eq(lessons.id, idOf(params))))
  )[0];

const onCourse = (extra: Fixture = {}): Fixture => ({ makeObject: course, snapshot: courseTree, ...extra });
const onModule = (extra: Fixture = {}): Fixture => ({ makeObject: module, snapshot: moduleTree, ...extra });
const onLesson = (extra: Fixture = {}): Fixture => ({ makeObject: lesson, snapshot: lessonRow, ...extra });

export const fixtures: Fixtures = {
  "POST /api/institution/courses/:id/publish": onCourse(),
  "POST /api/institution/courses/:id/archive": onCourse(),
  "POST /api/institution/courses/:id/duplicate": onCourse({ body: { title: "Matrix copy" } }),
  "GET /api/institution/courses/:id/outline": onCourse(),
  "GET /api/institution/courses/:id/modules": onCourse(),
  "POST /api/institution/courses/:id/modules": onCourse({ body: { title: "Matrix" } }),
  "PUT /api/institution/courses/:id/modules/order": onCourse({ body: { moduleIds: [] } }),
  "GET /api/institution/modules/:id": onModule(),
  "PATCH /api/institution/modules/:id": onModule({ body: { title: "Renamed" } }),
  "DELETE /api/institution/modules/:id": onModule(),
  "GET /api/institution/modules/:id/lessons": onModule(),
  "POST /api/institution/modules/:id/lessons": onModule({ body: { title: "Matrix", type: "quiz" } }),
  "PUT /api/institution/modules/:id/lessons/order": onModule({ body: { lessonIds: [] } }),
  "GET /api/institution/lessons/:id": onLesson(),
  "PATCH /api/institution/lessons/:id": onLesson({ body: { title: "Renamed" } }),
  "DELETE /api/institution/lessons/:id": onLesson(),
  "POST /api/institution/lessons/:id/move": onLesson({ body: { moduleId: randomUUID() } }),
};
