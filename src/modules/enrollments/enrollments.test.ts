import { randomUUID } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { classGroups, enrollments, lessonCompletions, platformEvents } from "../../db/schema/index.js";
import { MANY_STUDENTS, useApi } from "../../test-support/api.js";
import { enrollDirectly, makeCourse } from "../../test-support/catalogue.js";
import {
  json,
  makeKey,
  makeTenant,
  makeUser,
  roleCookie,
  type TestTenant,
} from "../../test-support/harness.js";
import { pageQuery } from "./repo.js";

const { h, tenants, call } = useApi({ env: MANY_STUDENTS, tenants: 2 });
const [a, b] = tenants;
let keyA: string;
let keyB: string;

beforeAll(async () => {
  keyA = await makeKey(h, a, ["enrollments:read", "enrollments:write"]);
  keyB = await makeKey(h, b, []);
});

async function eventsOf(t: TestTenant, type: string) {
  return h.database.db
    .select()
    .from(platformEvents)
    .where(and(eq(platformEvents.tenantId, t.id), eq(platformEvents.type, type)));
}

async function rowOf(t: TestTenant, id: string) {
  const rows = await h.database.db
    .select()
    .from(enrollments)
    .where(and(eq(enrollments.tenantId, t.id), eq(enrollments.id, id)));
  return rows[0];
}

describe("enrollments", () => {
  it("creates, reads, updates, drops and deletes an enrollment, with events", async () => {
    const user = await makeUser(h, a, "student");
    const { courseId } = await makeCourse(h.database.db, a.id);
    const created = await call(a, keyA, "POST", "/enrollments", {
      userId: user.id,
      courseId,
      expiresAt: "2099-01-01T00:00:00Z",
    });
    expect(created.statusCode, created.body).toBe(201);
    const enrollment = created.json();
    expect(Object.keys(enrollment).sort()).toEqual(
      [
        "id",
        "userId",
        "courseId",
        "classGroupId",
        "role",
        "status",
        "source",
        "enrolledAt",
        "startedAt",
        "completedAt",
        "expiresAt",
        "lastActivityAt",
        "progressPercent",
        "lessonsCompleted",
        "lessonsTotal",
        "createdAt",
        "updatedAt",
      ].sort(),
    );
    expect(enrollment).toMatchObject({
      userId: user.id,
      courseId,
      classGroupId: null,
      role: "student",
      status: "active",
      source: "api",
      startedAt: null,
      completedAt: null,
      expiresAt: "2099-01-01T00:00:00.000Z",
      progressPercent: 0,
      lessonsCompleted: 0,
      lessonsTotal: 2,
    });
    const [event] = await eventsOf(a, "enrollment_created");
    expect(event?.data).toEqual({
      enrollmentId: enrollment.id,
      courseId,
      userId: user.id,
      // The enrollment as this answer gave it.
      enrollment,
      role: "student",
      status: "active",
      source: "api",
      classGroupId: null,
    });
    expect(event?.subject).toMatchObject({ id: user.id, email: user.email, role: "student" });
    expect(event?.actor).toMatchObject({ type: "api_key" });

    const got = await call(a, keyA, "GET", `/enrollments/${enrollment.id}`);
    expect(got.statusCode).toBe(200);
    expect(got.json()).toEqual(enrollment);

    const patched = await call(a, keyA, "PATCH", `/enrollments/${enrollment.id}`, {
      status: "suspended",
      expiresAt: null,
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json()).toMatchObject({ id: enrollment.id, status: "suspended", expiresAt: null });

    const dropped = await call(a, keyA, "DELETE", `/enrollments/${enrollment.id}`);
    expect(dropped.statusCode).toBe(204);
    expect(dropped.body).toBe("");
    expect((await rowOf(a, enrollment.id))?.status).toBe("dropped");
    const dropEvents = await eventsOf(a, "enrollment_dropped");
    expect(dropEvents.map((e) => e.data)).toEqual([
      {
        enrollmentId: enrollment.id,
        courseId,
        userId: user.id,
        enrollment: (await call(a, keyA, "GET", `/enrollments/${enrollment.id}`)).json(),
        mode: "drop",
      },
    ]);
    expect(dropEvents[0]?.data).toMatchObject({ enrollment: { status: "dropped" } });
    // Dropping a dropped enrollment changes nothing and says nothing.
    expect((await call(a, keyA, "DELETE", `/enrollments/${enrollment.id}`)).statusCode).toBe(204);
    expect(await eventsOf(a, "enrollment_dropped")).toHaveLength(1);

    // A dropped enrollment is history: the user may be enrolled again.
    const again = await call(a, keyA, "POST", "/enrollments", { userId: user.id, courseId });
    expect(again.statusCode).toBe(201);
    const deleted = await call(a, keyA, "DELETE", `/enrollments/${again.json().id}?mode=delete`);
    expect(deleted.statusCode).toBe(204);
    expect(await rowOf(a, again.json().id)).toBeUndefined();
    // A deleted enrollment is carried as it read just before the deletion.
    expect((await eventsOf(a, "enrollment_dropped")).map((e) => e.data)).toContainEqual({
      enrollmentId: again.json().id,
      courseId,
      userId: user.id,
      enrollment: again.json(),
      mode: "delete",
    });
    expect((await call(a, keyA, "GET", `/enrollments/${again.json().id}`)).statusCode).toBe(404);
    // The course's total (a trigger-kept counter) follows inserts and deletes: the dropped one remains.
    const total = (await call(a, keyA, "GET", `/enrollments?courseId=${courseId}`)).json().pagination.total;
    expect(total).toBe(1);
  });

  it("refuses a second current enrollment with 409 and writes nothing", async () => {
    const user = await makeUser(h, a, "student");
    const { courseId } = await makeCourse(h.database.db, a.id);
    expect((await call(a, keyA, "POST", "/enrollments", { userId: user.id, courseId })).statusCode).toBe(201);
    const before = (await eventsOf(a, "enrollment_created")).length;
    const dup = await call(a, keyA, "POST", "/enrollments", { userId: user.id, courseId, role: "observer" });
    expect(dup.statusCode).toBe(409);
    expect(dup.json()).toEqual({
      error: "conflict",
      message: "This user already has a current enrollment in this course.",
    });
    const rows = await h.database.db
      .select()
      .from(enrollments)
      .where(and(eq(enrollments.tenantId, a.id), eq(enrollments.userId, user.id)));
    expect(rows).toHaveLength(1);
    expect(await eventsOf(a, "enrollment_created")).toHaveLength(before);
  });

  it("answers 400 naming each unknown or foreign reference, and a bad expiry", async () => {
    const foreignUser = await makeUser(h, b, "student");
    const { courseId } = await makeCourse(h.database.db, a.id);
    const unknown = await call(a, keyA, "POST", "/enrollments", {
      userId: foreignUser.id,
      courseId: randomUUID(),
      classGroupId: randomUUID(),
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error).toBe("validation_failed");
    expect(unknown.json().details.map((d: { field: string }) => d.field)).toEqual([
      "userId",
      "courseId",
      "classGroupId",
    ]);
    const user = await makeUser(h, a, "student");
    const badExpiry = await call(a, keyA, "POST", "/enrollments", {
      userId: user.id,
      courseId,
      startsAt: "2030-01-01T00:00:00Z",
      expiresAt: "2029-12-31T00:00:00Z",
    });
    expect(badExpiry.statusCode).toBe(400);
    expect(badExpiry.json().details).toEqual([
      {
        field: "expiresAt",
        message: "Must be later than the start of the enrollment (2030-01-01T00:00:00Z).",
      },
    ]);
    const extra = await call(a, keyA, "POST", "/enrollments", { userId: user.id, courseId, tenantId: b.id });
    expect(extra.statusCode).toBe(400);
    expect(extra.json().details).toEqual([{ field: "tenantId", message: "This field is not allowed." }]);
    const badId = await call(a, keyA, "POST", "/enrollments", { userId: "nope", courseId });
    expect(badId.statusCode).toBe(400);
    const rows = await h.database.db
      .select()
      .from(enrollments)
      .where(and(eq(enrollments.tenantId, a.id), eq(enrollments.userId, user.id)));
    expect(rows).toHaveLength(0);
  });

  it("stores startsAt as enrolledAt, and checks a PATCHed expiry and class group", async () => {
    const user = await makeUser(h, a, "student");
    const { courseId } = await makeCourse(h.database.db, a.id);
    const [group] = await h.database.db
      .insert(classGroups)
      .values({ tenantId: a.id, name: "Turma A" })
      .returning({ id: classGroups.id });
    const created = await call(a, keyA, "POST", "/enrollments", {
      userId: user.id,
      courseId,
      role: "assistant",
      classGroupId: group?.id,
      startsAt: "2030-01-01T00:00:00Z",
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({
      enrolledAt: "2030-01-01T00:00:00.000Z",
      role: "assistant",
      classGroupId: group?.id,
    });
    const id = created.json().id;
    const early = await call(a, keyA, "PATCH", `/enrollments/${id}`, { expiresAt: "2029-01-01T00:00:00Z" });
    expect(early.statusCode).toBe(400);
    expect(early.json().details[0].field).toBe("expiresAt");
    const badGroup = await call(a, keyA, "PATCH", `/enrollments/${id}`, { classGroupId: randomUUID() });
    expect(badGroup.statusCode).toBe(400);
    expect(badGroup.json().details[0].field).toBe("classGroupId");
    const completed = await call(a, keyA, "PATCH", `/enrollments/${id}`, { status: "completed" });
    expect(completed.statusCode).toBe(400);
    const empty = await call(a, keyA, "PATCH", `/enrollments/${id}`, {});
    expect(empty.statusCode).toBe(400);
    const cleared = await call(a, keyA, "PATCH", `/enrollments/${id}`, { classGroupId: null });
    expect(cleared.json().classGroupId).toBeNull();
  });

  it("refuses to take a dropped enrollment back while a newer one is current", async () => {
    const user = await makeUser(h, a, "student");
    const { courseId } = await makeCourse(h.database.db, a.id);
    const first = (await call(a, keyA, "POST", "/enrollments", { userId: user.id, courseId })).json();
    await call(a, keyA, "DELETE", `/enrollments/${first.id}`);
    expect((await call(a, keyA, "POST", "/enrollments", { userId: user.id, courseId })).statusCode).toBe(201);
    const back = await call(a, keyA, "PATCH", `/enrollments/${first.id}`, { status: "active" });
    expect(back.statusCode).toBe(409);
    expect((await rowOf(a, first.id))?.status).toBe("dropped");
  });

  it("lets a teacher's session enroll (source manual), and keeps other tenants' enrollments out of sight", async () => {
    const teacher = await roleCookie(h, a, "teacher");
    const user = await makeUser(h, a, "student");
    const { courseId } = await makeCourse(h.database.db, a.id);
    const res = await h.inject({
      method: "POST",
      url: "/api/institution/enrollments",
      headers: { host: a.host, cookie: teacher, ...json },
      payload: { userId: user.id, courseId },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().source).toBe("manual");

    const userB = await makeUser(h, b, "student");
    const courseB = await makeCourse(h.database.db, b.id);
    const theirs = (
      await call(b, keyB, "POST", "/enrollments", { userId: userB.id, courseId: courseB.courseId })
    ).json();
    for (const [method, url, body] of [
      ["GET", `/enrollments/${theirs.id}`],
      ["GET", `/enrollments/${theirs.id}/progress`],
      ["PATCH", `/enrollments/${theirs.id}`, { status: "suspended" }],
      ["DELETE", `/enrollments/${theirs.id}?mode=delete`],
      ["GET", `/users/${userB.id}/enrollments`],
      ["GET", "/enrollments/not-a-uuid"],
    ] as const) {
      const r = await call(a, keyA, method, url, body);
      expect(r.statusCode, `${method} ${url}`).toBe(404);
      expect(r.json().error).toBe("not_found");
    }
    expect((await rowOf(b, theirs.id))?.status).toBe("active");
    const list = await call(a, keyA, "GET", `/enrollments?userId=${userB.id}`);
    expect(list.json().data).toEqual([]);
    expect(list.json().pagination.total).toBe(0);
  });
});

describe("lists", () => {
  it("filter by user, course, class group, status and role, sort both ways, with exact totals", async () => {
    const t = await makeTenant(h);
    const key = await makeKey(h, t, []);
    const [u1, u2] = [await makeUser(h, t, "student"), await makeUser(h, t, "student")];
    const c1 = (await makeCourse(h.database.db, t.id)).courseId;
    const c2 = (await makeCourse(h.database.db, t.id)).courseId;
    const [group] = await h.database.db
      .insert(classGroups)
      .values({ tenantId: t.id, name: "G" })
      .returning({ id: classGroups.id });
    const ids: string[] = [];
    for (const [user, course, extra] of [
      [u1, c1, {}],
      [u1, c2, { role: "observer" }],
      [u2, c1, { classGroupId: group?.id }],
    ] as const) {
      const r = await call(t, key, "POST", "/enrollments", { userId: user.id, courseId: course, ...extra });
      expect(r.statusCode).toBe(201);
      ids.push(r.json().id);
    }
    await call(t, key, "PATCH", `/enrollments/${ids[0]}`, { status: "suspended" });
    const list = async (q: string) => (await call(t, key, "GET", `/enrollments${q}`)).json();
    const idsOf = (page: { data: { id: string }[] }) => page.data.map((e) => e.id);

    const all = await list("");
    expect(idsOf(all)).toEqual([ids[2], ids[1], ids[0]]);
    expect(all.pagination).toEqual({ page: 1, perPage: 20, total: 3, totalPages: 1, totalRelation: "eq" });
    expect(idsOf(await list("?sort=createdAt"))).toEqual(ids);
    expect(idsOf(await list(`?courseId=${c1}`))).toEqual([ids[2], ids[0]]);
    expect((await list(`?courseId=${c1}`)).pagination.total).toBe(2);
    // The course's counter is keyed by the id's canonical (lowercase) text; any spelling of the id finds it.
    expect((await list(`?courseId=${c1.toUpperCase()}`)).pagination.total).toBe(2);
    expect(idsOf(await list(`?userId=${u1.id}&sort=createdAt`))).toEqual([ids[0], ids[1]]);
    expect(idsOf(await list(`?classGroupId=${group?.id}`))).toEqual([ids[2]]);
    expect(idsOf(await list("?role=observer"))).toEqual([ids[1]]);
    expect((await list("?role=observer")).pagination.total).toBe(1);
    expect(idsOf(await list("?status=suspended"))).toEqual([ids[0]]);
    expect((await list("?status=active")).pagination.total).toBe(2);
    expect((await list(`?status=active&courseId=${c1}`)).pagination.total).toBe(1);
    const paged = await list("?perPage=2&page=2");
    expect(idsOf(paged)).toEqual([ids[0]]);
    expect(paged.pagination).toEqual({ page: 2, perPage: 2, total: 3, totalPages: 2, totalRelation: "eq" });

    const mine = await call(t, key, "GET", `/users/${u1.id}/enrollments`);
    expect(mine.statusCode).toBe(200);
    expect(idsOf(mine.json())).toEqual([ids[1], ids[0]]);
    expect(mine.json().pagination.total).toBe(2);
    // The user's total is the user's counter (migration 0045), whatever the id's spelling.
    const upper = await call(t, key, "GET", `/users/${u1.id.toUpperCase()}/enrollments`);
    expect(upper.json().pagination).toEqual({
      page: 1,
      perPage: 20,
      total: 2,
      totalPages: 1,
      totalRelation: "eq",
    });
    expect((await call(t, key, "GET", `/users/${randomUUID()}/enrollments`)).statusCode).toBe(404);

    for (const bad of ["?sort=title", "?status=gone", "?courseId=x", "?page=0", "?other=1"]) {
      const r = await call(t, key, "GET", `/enrollments${bad}`);
      expect(r.statusCode, bad).toBe(400);
      expect(r.json().error).toBe("validation_failed");
    }
  });
});

describe("progress", () => {
  it("counts published required lessons only, on records, lists and the per-lesson view", async () => {
    const t = await makeTenant(h);
    const key = await makeKey(h, t, []);
    const user = await makeUser(h, t, "student");
    const course = await makeCourse(h.database.db, t.id, [
      {
        lessons: [
          { title: "Intro" },
          { title: "Optional", required: false },
          { title: "Draft", status: "draft" },
        ],
      },
      { lessons: [{ title: "Two" }, { title: "Three" }] },
    ]);
    const [intro, optional, draft, two] = course.lessonIds as [string, string, string, string, string];
    const enrollmentId = (
      await call(t, key, "POST", "/enrollments", { userId: user.id, courseId: course.courseId })
    ).json().id;
    for (const lesson of [intro, optional, draft]) {
      const r = await call(t, key, "PUT", `/lessons/${lesson}/completions/${user.id}`, {});
      expect(r.statusCode, r.body).toBe(201);
    }
    const one = (await call(t, key, "GET", `/enrollments/${enrollmentId}`)).json();
    expect(one).toMatchObject({ lessonsCompleted: 1, lessonsTotal: 3, progressPercent: 33.33 });
    expect(one.startedAt).not.toBeNull();
    expect(one.lastActivityAt).not.toBeNull();

    expect((await call(t, key, "PUT", `/lessons/${two}/completions/${user.id}`, {})).statusCode).toBe(201);
    const listed = (await call(t, key, "GET", `/enrollments?courseId=${course.courseId}`)).json().data[0];
    expect(listed).toMatchObject({
      id: enrollmentId,
      lessonsCompleted: 2,
      lessonsTotal: 3,
      progressPercent: 66.67,
    });

    const progress = await call(t, key, "GET", `/enrollments/${enrollmentId}/progress`);
    expect(progress.statusCode).toBe(200);
    const body = progress.json();
    expect(body).toMatchObject({
      enrollmentId,
      userId: user.id,
      courseId: course.courseId,
      status: "active",
      lessonsCompleted: 2,
      lessonsTotal: 3,
      progressPercent: 66.67,
    });
    expect(body.lessons.map((l: { title: string; required: boolean }) => [l.title, l.required])).toEqual([
      ["Intro", true],
      ["Optional", false],
      ["Two", true],
      ["Three", true],
    ]);
    expect(body.lessons[0].moduleId).toBe(course.modules[0]?.id);
    expect(body.lessons.map((l: { completedAt: string | null }) => l.completedAt !== null)).toEqual([
      true,
      true,
      true,
      false,
    ]);
  });

  it("reports 0% for a course without required lessons", async () => {
    const t = await makeTenant(h);
    const key = await makeKey(h, t, []);
    const user = await makeUser(h, t, "student");
    const course = await makeCourse(h.database.db, t.id, [{ lessons: [{ required: false }] }]);
    const r = await call(t, key, "POST", "/enrollments", { userId: user.id, courseId: course.courseId });
    expect(r.json()).toMatchObject({ lessonsCompleted: 0, lessonsTotal: 0, progressPercent: 0 });
  });

  it("serves a page of a 10,000-enrollment course through the course and completion indexes", async () => {
    const t = await makeTenant(h);
    const key = await makeKey(h, t, []);
    const course = await makeCourse(h.database.db, t.id, [{ lessons: [{}, {}, {}, {}] }]);
    const db = h.database.db;
    await db.execute(sql`INSERT INTO users (tenant_id, name, email, role)
      SELECT ${t.id}, 'Learner ' || g, 'learner' || g || '@bulk.test', 'student' FROM generate_series(1, 10000) g`);
    await db.execute(sql`INSERT INTO enrollments (tenant_id, user_id, course_id, created_at)
      SELECT tenant_id, id, ${course.courseId}, now() - (row_number() OVER (ORDER BY id)) * interval '1 second'
      FROM users WHERE tenant_id = ${t.id} AND role = 'student'`);
    // The same learners in another course of the tenant, so the tenant's own index is no shortcut.
    const other = await makeCourse(h.database.db, t.id, [{ lessons: [{}] }]);
    await db.execute(sql`INSERT INTO enrollments (tenant_id, user_id, course_id, created_at)
      SELECT tenant_id, user_id, ${other.courseId}, created_at + interval '1 millisecond'
      FROM enrollments WHERE tenant_id = ${t.id} AND course_id = ${course.courseId}`);
    // Half of the learners completed the first two lessons.
    await db.execute(sql`INSERT INTO lesson_completions (tenant_id, lesson_id, user_id, course_id, module_id)
      SELECT e.tenant_id, l.id, e.user_id, l.course_id, l.module_id
      FROM enrollments e JOIN lessons l ON l.tenant_id = e.tenant_id AND l.course_id = e.course_id AND l.position <= 2
      WHERE e.tenant_id = ${t.id} AND e.course_id = ${course.courseId} AND get_byte(uuid_send(e.user_id), 0) < 128`);
    await db.execute(sql`ANALYZE enrollments, lesson_completions, lessons`);

    const res = await call(t, key, "GET", `/enrollments?courseId=${course.courseId}&page=3&perPage=50`);
    expect(res.statusCode).toBe(200);
    expect(res.json().pagination).toEqual({
      page: 3,
      perPage: 50,
      total: 10000,
      totalPages: 200,
      totalRelation: "eq",
    });
    const page = res.json().data as {
      lessonsCompleted: number;
      lessonsTotal: number;
      progressPercent: number;
    }[];
    expect(page).toHaveLength(50);
    for (const e of page) {
      expect(e.lessonsTotal).toBe(4);
      expect([0, 2]).toContain(e.lessonsCompleted);
      expect(e.progressPercent).toBe(e.lessonsCompleted === 2 ? 50 : 0);
    }

    const query = pageQuery(
      db,
      { tenantId: t.id, courseId: course.courseId, limit: 50, offset: 100 },
      "-createdAt",
    ).toSQL();
    const client = (
      db as unknown as { $client: { query(q: string, p: unknown[]): Promise<{ rows: object[] }> } }
    ).$client;
    const plan = (await client.query(`EXPLAIN ${query.sql}`, query.params)).rows
      .map((r) => Object.values(r)[0])
      .join("\n");
    expect(plan).toContain("enrollments_course_created_idx");
    expect(plan).toMatch(
      /lesson_completions_course_user_idx|lesson_completions_tenant_id_lesson_id_user_id_pk/,
    );
    expect(plan).not.toMatch(/Seq Scan on (enrollments|lesson_completions)/);
    const started = performance.now();
    for (let i = 0; i < 20; i++)
      await call(t, key, "GET", `/enrollments?courseId=${course.courseId}&page=${i + 1}`);
    console.info(
      `page query plan:\n${plan}\nGET /enrollments?courseId= (10,000): ${((performance.now() - started) / 20).toFixed(1)} ms per page`,
    );
  }, 60_000);
});

describe("completions outlive a deleted enrollment", () => {
  it("detaches them and counts them again for a new enrollment", async () => {
    const t = await makeTenant(h);
    const key = await makeKey(h, t, []);
    const user = await makeUser(h, t, "student");
    const course = await makeCourse(h.database.db, t.id, [{ lessons: [{}, {}] }]);
    const first = await enrollDirectly(h.database.db, t.id, user.id, course.courseId);
    await call(t, key, "PUT", `/lessons/${course.lessonIds[0]}/completions/${user.id}`, {});
    expect((await call(t, key, "DELETE", `/enrollments/${first}?mode=delete`)).statusCode).toBe(204);
    const [kept] = await h.database.db
      .select()
      .from(lessonCompletions)
      .where(and(eq(lessonCompletions.tenantId, t.id), eq(lessonCompletions.userId, user.id)));
    expect(kept?.enrollmentId).toBeNull();
    const again = await call(t, key, "POST", "/enrollments", { userId: user.id, courseId: course.courseId });
    expect(again.json()).toMatchObject({ lessonsCompleted: 1, lessonsTotal: 2, progressPercent: 50 });
  });
});
