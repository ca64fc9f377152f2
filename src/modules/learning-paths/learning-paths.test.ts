import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { learningPathCourses, learningPathEnrollments, learningPaths } from "../../db/schema/index.js";
import { fieldsOf, MANY_STUDENTS, useApi } from "../../test-support/api.js";
import { makeCourse } from "../../test-support/catalogue.js";
import { makeKey, makeUser, roleCookie, signedInUser } from "../../test-support/harness.js";

const { h, tenants, call } = useApi({ env: MANY_STUDENTS, tenants: 2 });
const [a, b] = tenants;
let writer: string;
let reader: string;
let courses: string[];
let foreignCourse: string;

beforeAll(async () => {
  writer = await makeKey(h, a, ["courses:read", "courses:write"]);
  reader = await makeKey(h, a, ["courses:read"]);
  courses = [];
  for (let i = 0; i < 4; i++) courses.push((await makeCourse(h.database.db, a.id)).courseId);
  foreignCourse = (await makeCourse(h.database.db, b.id)).courseId;
});

const create = (body: object, tenant = a, key = writer) => call(tenant, key, "POST", "/learning-paths", body);

async function stored(id: string) {
  const [row] = await h.database.db
    .select()
    .from(learningPaths)
    .where(and(eq(learningPaths.tenantId, a.id), eq(learningPaths.id, id)));
  const rows = await h.database.db
    .select()
    .from(learningPathCourses)
    .where(and(eq(learningPathCourses.tenantId, a.id), eq(learningPathCourses.pathId, id)));
  return { row, courses: rows };
}

describe("creating, reading and changing a path", () => {
  it("creates a path with ordered courses, prerequisites and defaults, and reads it back", async () => {
    const [c1, c2, c3] = courses as [string, string, string];
    const res = await create({
      title: "Data Science Track",
      description: "From algebra to models.",
      sequential: true,
      courses: [
        { courseId: c2, position: 2, prerequisites: [c1.toUpperCase()] },
        { courseId: c1.toUpperCase(), position: 1 },
        { courseId: c3, position: 3, required: false },
      ],
    });
    expect(res.statusCode, res.body).toBe(201);
    const path = res.json();
    expect(path).toEqual({
      id: expect.any(String),
      title: "Data Science Track",
      description: "From algebra to models.",
      sequential: true,
      status: "draft",
      courses: [
        { courseId: c1, position: 1, required: true, prerequisites: [] },
        { courseId: c2, position: 2, required: true, prerequisites: [c1] },
        { courseId: c3, position: 3, required: false, prerequisites: [] },
      ],
      enrolledCount: 0,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const saved = await stored(path.id);
    expect(saved.row?.requiredCount).toBe(2);
    expect(saved.courses).toHaveLength(3);

    const got = await call(a, reader, "GET", `/learning-paths/${path.id}`);
    expect(got.statusCode).toBe(200);
    expect(got.json()).toEqual(path);
  });

  it("changes fields and replaces the course list, keeping the required count", async () => {
    const [c1, c2, c3, c4] = courses as [string, string, string, string];
    const { id } = (
      await create({ title: "To change", courses: [{ courseId: c1 }, { courseId: c2 }] })
    ).json();
    const res = await call(a, writer, "PATCH", `/learning-paths/${id}`, {
      title: "Changed",
      status: "published",
      courses: [{ courseId: c3 }, { courseId: c4, required: false, prerequisites: [c3] }],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      title: "Changed",
      status: "published",
      courses: [
        { courseId: c3, position: 1, required: true, prerequisites: [] },
        { courseId: c4, position: 2, required: false, prerequisites: [c3] },
      ],
    });
    const saved = await stored(id);
    expect(saved.row?.requiredCount).toBe(1);
    expect(saved.courses.map((c) => c.courseId).sort()).toEqual([c3, c4].sort());
    expect((await call(a, writer, "PATCH", `/learning-paths/${id}`, {})).statusCode).toBe(400);
  });

  it("deletes a path: 409 while users are enrolled, unless forced", async () => {
    const { id } = (await create({ title: "To delete", courses: [{ courseId: courses[0] }] })).json();
    const user = await makeUser(h, a, "teacher");
    await h.database.db
      .insert(learningPathEnrollments)
      .values({ tenantId: a.id, pathId: id, userId: user.id });
    const refused = await call(a, writer, "DELETE", `/learning-paths/${id}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toBe("conflict");
    expect((await stored(id)).row).toBeDefined();
    const forced = await call(a, writer, "DELETE", `/learning-paths/${id}?force=true`);
    expect(forced.statusCode).toBe(204);
    expect(forced.body).toBe("");
    expect((await stored(id)).row).toBeUndefined();
    const left = await h.database.db
      .select()
      .from(learningPathEnrollments)
      .where(and(eq(learningPathEnrollments.tenantId, a.id), eq(learningPathEnrollments.pathId, id)));
    expect(left).toEqual([]);
    expect((await call(a, writer, "DELETE", `/learning-paths/${id}`)).statusCode).toBe(404);
  });
});

describe("validation", () => {
  it("refuses duplicates, unknown and other tenants' courses, bad prerequisites and no required course", async () => {
    const [c1, c2] = courses as [string, string];
    const unknown = randomUUID();
    const res = await create({
      title: "Bad",
      courses: [
        { courseId: c1, position: 1 },
        { courseId: c1, position: 1 },
        { courseId: foreignCourse, position: 2, prerequisites: [c2] },
        { courseId: unknown, position: 3, prerequisites: [unknown] },
      ],
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().error).toBe("validation_failed");
    expect(fieldsOf(res)).toEqual(
      [
        "courses[1].courseId",
        "courses[1].position",
        "courses[2].courseId",
        "courses[2].prerequisites[0]",
        "courses[3].courseId",
        "courses[3].prerequisites[0]",
      ].sort(),
    );
    expect(res.body).not.toContain(b.id);
    const none = await create({ title: "Optional only", courses: [{ courseId: c1, required: false }] });
    expect(none.statusCode).toBe(400);
    expect(fieldsOf(none)).toEqual(["courses"]);
  });

  it("refuses a cycle of prerequisites, naming it", async () => {
    const [c1, c2, c3] = courses as [string, string, string];
    const res = await create({
      title: "Cycle",
      courses: [
        { courseId: c1, prerequisites: [c3] },
        { courseId: c2, prerequisites: [c1] },
        { courseId: c3, prerequisites: [c2] },
      ],
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().details).toEqual([{ field: "courses", message: expect.stringContaining(c1) }]);
  });

  it("refuses more than 50 courses, an empty list, unknown fields and a bad title", async () => {
    const many = Array.from({ length: 51 }, () => ({ courseId: randomUUID() }));
    expect((await create({ title: "Many", courses: many })).statusCode).toBe(400);
    expect((await create({ title: "None", courses: [] })).statusCode).toBe(400);
    expect((await create({ title: "", courses: [{ courseId: courses[0] }] })).statusCode).toBe(400);
    expect((await create({ title: "x".repeat(256), courses: [{ courseId: courses[0] }] })).statusCode).toBe(
      400,
    );
    const spoof = await create({ title: "Spoof", tenantId: b.id, courses: [{ courseId: courses[0] }] });
    expect(spoof.statusCode).toBe(400);
    expect(await h.database.db.select().from(learningPaths).where(eq(learningPaths.tenantId, b.id))).toEqual(
      [],
    );
  });
});

describe("lists", () => {
  it("lists newest first, by title, by status and by search ignoring accents, with totals", async () => {
    const key = await makeKey(h, b, ["courses:read", "courses:write"]);
    const course = (await makeCourse(h.database.db, b.id)).courseId;
    for (const title of ["Álgebra Linear", "Cálculo", "Física"]) {
      const res = await create(
        { title, status: title === "Física" ? "archived" : "published", courses: [{ courseId: course }] },
        b,
        key,
      );
      expect(res.statusCode, res.body).toBe(201);
    }
    const list = await call(b, key, "GET", "/learning-paths?perPage=2");
    expect(list.statusCode).toBe(200);
    expect(list.json().pagination).toEqual({
      page: 1,
      perPage: 2,
      total: 3,
      totalPages: 2,
      totalRelation: "eq",
    });
    const second = await call(b, key, "GET", "/learning-paths?perPage=2&page=2");
    const titles = [...list.json().data, ...second.json().data].map((p: { title: string }) => p.title);
    expect(titles.sort()).toEqual(["Cálculo", "Física", "Álgebra Linear"].sort());
    const byTitle = await call(b, key, "GET", "/learning-paths?sort=title");
    expect(byTitle.json().data.map((p: { title: string }) => p.title)).toEqual([
      "Álgebra Linear",
      "Cálculo",
      "Física",
    ]);
    const archived = await call(b, key, "GET", "/learning-paths?status=archived");
    expect(archived.json().pagination.total).toBe(1);
    const search = await call(b, key, "GET", "/learning-paths?search=algebra");
    expect(search.json().data.map((p: { title: string }) => p.title)).toEqual(["Álgebra Linear"]);
    expect(search.json().data[0].courses).toEqual([
      { courseId: course, position: 1, required: true, prerequisites: [] },
    ]);
    expect((await call(b, key, "GET", "/learning-paths?page=0")).statusCode).toBe(400);
  });
});

describe("another tenant's paths", () => {
  it("are 404 on every route and never listed", async () => {
    const keyB = await makeKey(h, b, [
      "courses:write",
      "courses:read",
      "enrollments:read",
      "enrollments:write",
    ]);
    const course = (await makeCourse(h.database.db, b.id)).courseId;
    const theirs = (await create({ title: "Theirs", courses: [{ courseId: course }] }, b, keyB)).json();
    const full = await makeKey(h, a, []);
    for (const [method, url, body] of [
      ["GET", `/learning-paths/${theirs.id}`, undefined],
      ["PATCH", `/learning-paths/${theirs.id}`, { title: "Mine" }],
      ["DELETE", `/learning-paths/${theirs.id}?force=true`, undefined],
      ["GET", `/learning-paths/${theirs.id}/enrollments`, undefined],
      ["POST", `/learning-paths/${theirs.id}/enrollments`, { userIds: [randomUUID()] }],
      ["DELETE", `/learning-paths/${theirs.id}/enrollments/${randomUUID()}`, undefined],
    ] as const) {
      const res = await call(a, full, method, url, body);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json()).toEqual({ error: "not_found", message: expect.any(String) });
    }
    expect((await call(b, keyB, "GET", `/learning-paths/${theirs.id}`)).json().title).toBe("Theirs");
    const mine = await call(a, full, "GET", "/learning-paths?perPage=100");
    expect(mine.json().data.map((p: { id: string }) => p.id)).not.toContain(theirs.id);
  });
});

describe("a student's view", () => {
  it("sees only the published paths it is enrolled in, with its own progress; staff see no progress", async () => {
    const [c1, c2] = courses as [string, string];
    const student = await signedInUser(h, a, "student");
    const body = {
      title: "Student path",
      status: "published",
      sequential: true,
      courses: [{ courseId: c1 }, { courseId: c2 }],
    };
    const mine = (await create(body)).json();
    const draft = (await create({ ...body, status: "draft" })).json();
    const other = (await create(body)).json();
    for (const id of [mine.id, draft.id]) {
      await h.database.db
        .insert(learningPathEnrollments)
        .values({ tenantId: a.id, pathId: id, userId: student.id });
    }
    const list = await call(a, student.cookie, "GET", "/learning-paths");
    expect(list.statusCode).toBe(200);
    expect(list.json().data.map((p: { id: string }) => p.id)).toEqual([mine.id]);
    expect(list.json().pagination.total).toBe(1);
    const got = await call(a, student.cookie, "GET", `/learning-paths/${mine.id}`);
    expect(got.statusCode).toBe(200);
    expect(got.json().progress).toEqual({
      status: "active",
      requiredCompleted: 0,
      requiredTotal: 2,
      progressPercent: 0,
      enrolledAt: expect.any(String),
      completedAt: null,
    });
    expect(got.json().courses).toEqual([
      { courseId: c1, position: 1, required: true, prerequisites: [], completed: false, locked: false },
      { courseId: c2, position: 2, required: true, prerequisites: [], completed: false, locked: true },
    ]);
    expect((await call(a, student.cookie, "GET", `/learning-paths/${draft.id}`)).statusCode).toBe(404);
    expect((await call(a, student.cookie, "GET", `/learning-paths/${other.id}`)).statusCode).toBe(404);
    expect((await call(a, student.cookie, "POST", "/learning-paths", body)).statusCode).toBe(403);
    const teacher = await roleCookie(h, a, "teacher");
    const staffView = await call(a, teacher, "GET", `/learning-paths/${mine.id}`);
    expect(staffView.json().progress).toBeUndefined();
    expect(staffView.json().enrolledCount).toBe(1);
  });
});
