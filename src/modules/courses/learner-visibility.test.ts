import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { courseModules, courses, quizzes } from "../../db/schema/index.js";
import { useApi } from "../../test-support/api.js";
import { enrollDirectly, makeCourse, type TestCourse } from "../../test-support/catalogue.js";
import { bearer, makeKey, roleCookie, signedInUser } from "../../test-support/harness.js";

/**
 * A student's session reads the published material of the courses it is enrolled in, and nothing else: drafts,
 * unpublished modules and lessons, other courses and their quizzes are 404 to it (or absent from its lists).
 * Teachers, administrators and keys read everything, as before.
 */
const { h, tenants } = useApi({ tenants: 1 });
const [t] = tenants;
let student: string;
let teacher: string;
let key: string;
/** Published, the student enrolled: module 1 published (lesson 1 published, lesson 2 draft), module 2 draft. */
let mine: TestCourse;
/** Published, the student's enrollment suspended. */
let suspended: TestCourse;
/** Published, the student not enrolled. */
let other: TestCourse;
/** A draft course the student is enrolled in. */
let draft: TestCourse;
const quizOf = new Map<string, string>();

beforeAll(async () => {
  const user = await signedInUser(h, t, "student");
  student = user.cookie;
  teacher = await roleCookie(h, t, "teacher");
  key = await makeKey(h, t, ["courses:read"]);
  const db = h.database.db;
  mine = await makeCourse(db, t.id, [{ lessons: [{}, { status: "draft" }] }, { lessons: [{}] }], "Mine");
  await db
    .update(courseModules)
    .set({ status: "draft" })
    .where(eq(courseModules.id, mine.modules[1]?.id as string));
  suspended = await makeCourse(db, t.id, [{ lessons: [{}] }], "Suspended");
  other = await makeCourse(db, t.id, [{ lessons: [{}] }], "Other");
  draft = await makeCourse(db, t.id, [{ lessons: [{}] }], "Draft");
  await db.update(courses).set({ status: "draft" }).where(eq(courses.id, draft.courseId));
  await enrollDirectly(db, t.id, user.id, mine.courseId);
  await enrollDirectly(db, t.id, user.id, suspended.courseId, "suspended");
  await enrollDirectly(db, t.id, user.id, draft.courseId);
  for (const course of [mine, suspended, other, draft]) {
    for (const lessonId of course.lessonIds) {
      const [row] = await db
        .insert(quizzes)
        .values({ tenantId: t.id, lessonId, courseId: course.courseId })
        .returning({ id: quizzes.id });
      quizOf.set(lessonId, (row as { id: string }).id);
    }
  }
});

const get = (url: string, credentials: Record<string, string> = { cookie: student }) =>
  h.inject({ method: "GET", url: `/api/institution${url}`, headers: { host: t.host, ...credentials } });

const ids = async (url: string, credentials?: Record<string, string>) => {
  const res = await get(url, credentials);
  expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
  const body = res.json() as { data: { id: string }[]; pagination: { total: number } };
  expect(body.pagination.total, url).toBe(body.data.length);
  return body.data.map((x) => x.id).sort();
};

const sorted = (xs: (string | undefined)[]) => (xs.filter((x) => x !== undefined) as string[]).sort();

describe("what a student's session reads", () => {
  it("lists only the published courses it is enrolled in (active or completed)", async () => {
    expect(await ids("/courses")).toEqual([mine.courseId]);
    expect(await ids("/courses?status=draft")).toEqual([]);
    expect(await ids("/courses?search=Other")).toEqual([]);
    for (const staff of [{ cookie: teacher }, bearer(key)]) {
      expect(await ids("/courses", staff)).toEqual(
        sorted([mine.courseId, suspended.courseId, other.courseId, draft.courseId]),
      );
    }
  });

  it("gets its course, its outline, modules and lessons, published ones only", async () => {
    expect((await get(`/courses/${mine.courseId}`)).statusCode).toBe(200);
    const outline = (await get(`/courses/${mine.courseId}/outline`)).json();
    expect(outline.modules.map((m: { id: string }) => m.id)).toEqual([mine.modules[0]?.id]);
    expect(outline.modules[0].lessons.map((l: { id: string }) => l.id)).toEqual([mine.lessonIds[0]]);
    expect(await ids(`/courses/${mine.courseId}/modules`)).toEqual([mine.modules[0]?.id]);
    expect(await ids(`/courses/${mine.courseId}/modules?status=draft`)).toEqual([]);
    expect((await get(`/modules/${mine.modules[0]?.id}`)).statusCode).toBe(200);
    expect((await get(`/modules/${mine.modules[1]?.id}`)).statusCode).toBe(404);
    expect(await ids(`/modules/${mine.modules[0]?.id}/lessons`)).toEqual([mine.lessonIds[0]]);
    expect((await get(`/modules/${mine.modules[1]?.id}/lessons`)).statusCode).toBe(404);
    expect((await get(`/lessons/${mine.lessonIds[0]}`)).statusCode).toBe(200);
    // A draft lesson, and a published lesson of a draft module.
    expect((await get(`/lessons/${mine.lessonIds[1]}`)).statusCode).toBe(404);
    expect((await get(`/lessons/${mine.lessonIds[2]}`)).statusCode).toBe(404);
    // Module 1's draft lesson is not counted for the student, anywhere its lessonCount shows.
    expect(outline.modules[0].lessonCount).toBe(1);
    expect((await get(`/courses/${mine.courseId}/modules`)).json().data[0].lessonCount).toBe(1);
    expect((await get(`/modules/${mine.modules[0]?.id}`)).json().lessonCount).toBe(1);
    // Teachers still see the whole course.
    const full = (await get(`/courses/${mine.courseId}/outline`, { cookie: teacher })).json();
    expect(full.modules).toHaveLength(2);
    expect(full.modules[0].lessonCount).toBe(2);
    expect((await get(`/modules/${mine.modules[0]?.id}`, { cookie: teacher })).json().lessonCount).toBe(2);
    expect(await ids(`/modules/${mine.modules[0]?.id}/lessons`, { cookie: teacher })).toEqual(
      sorted(mine.modules[0]?.lessonIds ?? []),
    );
  });

  it("answers 404 for drafts, courses it is not enrolled in, and suspended enrollments, on every read", async () => {
    for (const course of [draft, other, suspended]) {
      for (const url of [
        `/courses/${course.courseId}`,
        `/courses/${course.courseId}/outline`,
        `/courses/${course.courseId}/modules`,
        `/modules/${course.modules[0]?.id}`,
        `/modules/${course.modules[0]?.id}/lessons`,
        `/lessons/${course.lessonIds[0]}`,
        `/quizzes/${quizOf.get(course.lessonIds[0] as string)}`,
      ]) {
        const res = await get(url);
        expect(res.statusCode, url).toBe(404);
        expect(res.json().error).toBe("not_found");
        expect((await get(url, bearer(key))).statusCode, url).toBe(200);
      }
    }
  });

  it("lists and gets only the quizzes of lessons it may read", async () => {
    const readable = quizOf.get(mine.lessonIds[0] as string);
    expect(await ids("/quizzes")).toEqual([readable]);
    expect(await ids(`/quizzes?courseId=${other.courseId}`)).toEqual([]);
    expect((await get(`/quizzes/${readable}`)).statusCode).toBe(200);
    expect((await get(`/quizzes/${quizOf.get(mine.lessonIds[1] as string)}`)).statusCode).toBe(404);
    expect(await ids("/quizzes", { cookie: teacher })).toHaveLength(quizOf.size);
  });
});
