import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import {
  enrollments,
  lessons,
  platformEvents,
  quizzes,
  tagAssignments,
  tags,
} from "../../db/schema/index.js";
import { AS_WRITTEN, callApi, type Method, useApi } from "../../test-support/api.js";
import {
  json,
  makeKey,
  makeTenant,
  makeUser,
  roleCookie,
  type TestTenant,
  UNLIMITED_KEY,
} from "../../test-support/harness.js";

const { h, tenants } = useApi({ tenants: 2 });
const [a, b] = tenants;
let keyA: string;
let keyB: string;

beforeAll(async () => {
  // These tests send more than a standard key's 100 requests a minute.
  keyA = await makeKey(h, a, ["courses:read", "courses:write"], UNLIMITED_KEY);
  keyB = await makeKey(h, b, [], UNLIMITED_KEY);
});

const call = (method: string, url: string, payload?: object, tenant = a, key = keyA) =>
  callApi(h, tenant, key, method as Method, url, payload, AS_WRITTEN);

async function newCourse(title: string, tenant = a, key = keyA): Promise<string> {
  const res = await call("POST", "/api/institution/courses", { title }, tenant, key);
  expect(res.statusCode).toBe(201);
  return res.json().id;
}

async function eventsOf(tenant: TestTenant, courseId: string) {
  const rows = await h.database.db
    .select({ type: platformEvents.type, data: platformEvents.data, actor: platformEvents.actor })
    .from(platformEvents)
    .where(eq(platformEvents.tenantId, tenant.id))
    // In the order they happened: without ORDER BY, PostgreSQL may return rows in any order (it did, under load).
    .orderBy(platformEvents.occurredAt);
  return rows.filter((r) => (r.data as { courseId?: string }).courseId === courseId);
}

describe("course lifecycle events", () => {
  it("emits course_created, course_published and course_archived once per change, in the change's transaction", async () => {
    const id = await newCourse("Eventos");
    const publish = await call("POST", `/api/institution/courses/${id}/publish`);
    expect(publish.statusCode).toBe(200);
    expect(publish.json()).toMatchObject({ id, status: "published" });
    const again = await call("POST", `/api/institution/courses/${id}/publish`);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(publish.json());
    const archive = await call("POST", `/api/institution/courses/${id}/archive`);
    expect(archive.json().status).toBe("archived");
    // Through PATCH too; a PATCH that keeps the status emits nothing, and back to draft emits nothing.
    await call("PATCH", `/api/institution/courses/${id}`, { status: "published" });
    await call("PATCH", `/api/institution/courses/${id}`, { status: "published", title: "Eventos 2" });
    await call("PATCH", `/api/institution/courses/${id}`, { status: "draft" });

    const events = await eventsOf(a, id);
    expect(events.map((e) => e.type)).toEqual([
      "course_created",
      "course_published",
      "course_archived",
      "course_published",
    ]);
    expect(events[1]?.data).toEqual({
      courseId: id,
      title: "Eventos",
      status: "published",
      // The course as GET /courses/:id answered it just after the change.
      course: expect.objectContaining({ id, title: "Eventos", status: "published" }),
    });
    expect(events[0]?.actor).toMatchObject({ type: "api_key" });
  });

  it("records a session user as the actor", async () => {
    const cookie = await roleCookie(h, a, "teacher");
    const res = await h.inject({
      method: "POST",
      url: "/api/institution/courses",
      headers: { host: a.host, cookie, ...json },
      payload: { title: "Por sessão" },
    });
    expect(res.statusCode).toBe(201);
    const [event] = await eventsOf(a, res.json().id);
    expect(event?.actor).toMatchObject({ type: "user", id: expect.any(String) });
  });

  it("writes no event when the change is refused", async () => {
    const res = await call("POST", "/api/institution/courses", { title: "" });
    expect(res.statusCode).toBe(400);
    const missing = await call("POST", `/api/institution/courses/${randomUUID()}/publish`);
    expect(missing.statusCode).toBe(404);
    const other = await newCourse("De B", b, keyB);
    expect((await call("POST", `/api/institution/courses/${other}/archive`)).statusCode).toBe(404);
    expect((await eventsOf(b, other)).map((e) => e.type)).toEqual(["course_created"]);
  });
});

describe("deleting a course", () => {
  it("is 409 while enrollments other than dropped exist, unless forced; emits course_deleted", async () => {
    const id = await newCourse("Com matrículas");
    const student = await makeUser(h, a, "student");
    const [enrollment] = await h.database.db
      .insert(enrollments)
      .values({ tenantId: a.id, userId: student.id, courseId: id })
      .returning({ id: enrollments.id });

    const refused = await call("DELETE", `/api/institution/courses/${id}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ error: "conflict" });
    expect(refused.json().message).toMatch(/force=true/);
    expect((await call("GET", `/api/institution/courses/${id}`)).statusCode).toBe(200);

    // A dropped enrollment no longer holds the course.
    await h.database.db
      .update(enrollments)
      .set({ status: "dropped" })
      .where(and(eq(enrollments.tenantId, a.id), eq(enrollments.id, enrollment?.id as string)));
    const other = await newCourse("Só abandonadas");
    await h.database.db
      .insert(enrollments)
      .values({ tenantId: a.id, userId: student.id, courseId: other, status: "dropped" });
    expect((await call("DELETE", `/api/institution/courses/${other}`)).statusCode).toBe(204);

    await h.database.db.insert(enrollments).values({ tenantId: a.id, userId: student.id, courseId: id });
    expect((await call("DELETE", `/api/institution/courses/${id}`)).statusCode).toBe(409);
    const forced = await call("DELETE", `/api/institution/courses/${id}?force=true`);
    expect(forced.statusCode).toBe(204);
    expect(forced.body).toBe("");
    expect((await call("GET", `/api/institution/courses/${id}`)).statusCode).toBe(404);
    const left = await h.database.db
      .select()
      .from(enrollments)
      .where(and(eq(enrollments.tenantId, a.id), eq(enrollments.courseId, id)));
    expect(left).toEqual([]);
    expect((await eventsOf(a, id)).map((e) => e.type)).toEqual(["course_created", "course_deleted"]);
  });

  it("refuses a force flag that is not a boolean", async () => {
    const id = await newCourse("Flag");
    const res = await call("DELETE", `/api/institution/courses/${id}?force=maybe`);
    expect(res.statusCode).toBe(400);
    expect(res.json().details[0].field).toBe("force");
  });
});

describe("listing courses", () => {
  it("sorts by title, updatedAt and createdAt, stable on ties", async () => {
    const t = await makeTenant(h);
    const key = await makeKey(h, t, []);
    const ids: Record<string, string> = {};
    for (const title of ["beta", "Álgebra", "Cálculo", "alfa"]) ids[title] = await newCourse(title, t, key);
    await call("PATCH", `/api/institution/courses/${ids.beta}`, { description: "touched" }, t, key);
    const titles = async (sort: string) =>
      (await call("GET", `/api/institution/courses?sort=${sort}`, undefined, t, key))
        .json()
        .data.map((c: { title: string }) => c.title);
    expect(await titles("title")).toEqual(["alfa", "Álgebra", "beta", "Cálculo"]);
    expect(await titles("-title")).toEqual(["Cálculo", "beta", "Álgebra", "alfa"]);
    expect(await titles("createdAt")).toEqual(["beta", "Álgebra", "Cálculo", "alfa"]);
    expect(await titles("-createdAt")).toEqual(["alfa", "Cálculo", "Álgebra", "beta"]);
    expect((await titles("-updatedAt"))[0]).toBe("beta");
    const bad = await call("GET", "/api/institution/courses?sort=price", undefined, t, key);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details[0].field).toBe("sort");
  });

  it("filters by tag with an exact total, combined with status and search", async () => {
    const t = await makeTenant(h);
    const key = await makeKey(h, t, []);
    const tagged = [await newCourse("Física I", t, key), await newCourse("Física II", t, key)];
    await newCourse("Química", t, key);
    const [tag] = await h.database.db
      .insert(tags)
      .values({ tenantId: t.id, name: "STEM", slug: "stem", appliesTo: ["course", "user"] })
      .returning({ id: tags.id });
    const tagId = tag?.id as string;
    await h.database.db.insert(tagAssignments).values([
      ...tagged.map((resourceId) => ({ tenantId: t.id, tagId, resourceType: "course", resourceId })),
      // The same id as a user resource must not count as a course.
      { tenantId: t.id, tagId, resourceType: "user", resourceId: randomUUID() },
    ]);
    await call("POST", `/api/institution/courses/${tagged[0]}/publish`, undefined, t, key);

    const list = async (q: string) =>
      (await call("GET", `/api/institution/courses?${q}`, undefined, t, key)).json();
    const all = await list(`tag=${tagId}`);
    expect(all.data.map((c: { title: string }) => c.title)).toEqual(["Física II", "Física I"]);
    expect(all.pagination.total).toBe(2);
    expect((await list(`tag=${tagId}&status=published`)).pagination.total).toBe(1);
    expect((await list(`tag=${tagId}&search=ii`)).data.map((c: { id: string }) => c.id)).toEqual([tagged[1]]);
    expect((await list(`tag=${randomUUID()}`)).pagination.total).toBe(0);
    // Another tenant's tag id finds nothing here.
    expect((await call("GET", `/api/institution/courses?tag=${tagId}`)).json().pagination.total).toBe(0);
    expect((await call("GET", "/api/institution/courses?tag=nope", undefined, t, key)).statusCode).toBe(400);
  });
});

describe("duplicating a course", () => {
  it("copies modules, lessons and quiz settings with new ids and remapped prerequisites, as a draft", async () => {
    const id = await newCourse("Original");
    await call("PATCH", `/api/institution/courses/${id}`, { description: "Descrição", status: "published" });
    const m1 = (await call("POST", `/api/institution/courses/${id}/modules`, { title: "M1" })).json();
    const m2 = (
      await call("POST", `/api/institution/courses/${id}/modules`, {
        title: "M2",
        prerequisiteModuleIds: [m1.id],
        sequential: true,
      })
    ).json();
    const text = (
      await call("POST", `/api/institution/modules/${m1.id}/lessons`, {
        title: "Texto",
        type: "text",
        content: { bodyHtml: "<p>Oi</p>" },
      })
    ).json();
    const quiz = (
      await call("POST", `/api/institution/modules/${m2.id}/lessons`, {
        title: "Prova",
        type: "quiz",
        completionCriteria: { type: "min_score", minScorePercent: 70 },
      })
    ).json();
    await h.database.db
      .insert(quizzes)
      .values({ tenantId: a.id, lessonId: quiz.id, courseId: id, passPercent: 70, allowedAttempts: 3 });

    const res = await call("POST", `/api/institution/courses/${id}/duplicate`, {});
    expect(res.statusCode).toBe(201);
    const copy = res.json();
    expect(copy).toMatchObject({ title: "Original (copy)", description: "Descrição", status: "draft" });
    expect(copy.id).not.toBe(id);

    const outline = (await call("GET", `/api/institution/courses/${copy.id}/outline`)).json();
    expect(outline.course).toEqual(copy);
    expect(outline.modules.map((m: { title: string }) => m.title)).toEqual(["M1", "M2"]);
    const [c1, c2] = outline.modules;
    expect([c1.id, c2.id]).not.toContain(m1.id);
    expect(c2.prerequisiteModuleIds).toEqual([c1.id]);
    expect(c2).toMatchObject({ courseId: copy.id, sequential: true, lessonCount: 1, position: 2 });
    expect(c1.lessons).toHaveLength(1);
    expect(c1.lessons[0]).toMatchObject({
      title: "Texto",
      content: { bodyHtml: "<p>Oi</p>" },
      courseId: copy.id,
      moduleId: c1.id,
    });
    expect(c1.lessons[0].id).not.toBe(text.id);
    const copiedQuiz = c2.lessons[0];
    expect(copiedQuiz).toMatchObject({
      type: "quiz",
      completionCriteria: { type: "min_score", minScorePercent: 70 },
    });
    const quizRows = await h.database.db
      .select()
      .from(quizzes)
      .where(and(eq(quizzes.tenantId, a.id), eq(quizzes.lessonId, copiedQuiz.id)));
    expect(quizRows).toHaveLength(1);
    expect(quizRows[0]).toMatchObject({ courseId: copy.id, passPercent: 70, allowedAttempts: 3 });

    // The source is untouched.
    const source = (await call("GET", `/api/institution/courses/${id}/outline`)).json();
    expect(source.modules.map((m: { id: string }) => m.id)).toEqual([m1.id, m2.id]);
    expect(source.course.status).toBe("published");
    const events = await eventsOf(a, copy.id);
    expect(events.map((e) => e.type)).toEqual(["course_created"]);
  });

  it("takes a title, copies an empty course, and is 404 for another tenant's course", async () => {
    const id = await newCourse("Vazio");
    const named = await call("POST", `/api/institution/courses/${id}/duplicate`, { title: "Turma 2" });
    expect(named.statusCode).toBe(201);
    expect(named.json()).toMatchObject({ title: "Turma 2", status: "draft" });
    const outline = (await call("GET", `/api/institution/courses/${named.json().id}/outline`)).json();
    expect(outline.modules).toEqual([]);
    const bodiless = await call("POST", `/api/institution/courses/${id}/duplicate`);
    expect(bodiless.statusCode).toBe(201);
    expect(bodiless.json().title).toBe("Vazio (copy)");
    const bad = await call("POST", `/api/institution/courses/${id}/duplicate`, { title: "", extra: 1 });
    expect(bad.statusCode).toBe(400);
    const other = await newCourse("De B", b, keyB);
    expect((await call("POST", `/api/institution/courses/${other}/duplicate`, {})).statusCode).toBe(404);
    const count = await h.database.db.select().from(lessons).where(eq(lessons.tenantId, b.id));
    expect(count).toEqual([]);
  });

  it("keeps a long title within 255 characters", async () => {
    const id = await newCourse("x".repeat(255));
    const copy = (await call("POST", `/api/institution/courses/${id}/duplicate`, {})).json();
    expect(copy.title).toHaveLength(255);
    expect(copy.title.endsWith(" (copy)")).toBe(true);
  });
});

describe("the outline", () => {
  it("nests lessons under modules in position order; 404 for a malformed or foreign id", async () => {
    const id = await newCourse("Árvore");
    const m2 = (await call("POST", `/api/institution/courses/${id}/modules`, { title: "Dois" })).json();
    const m1 = (
      await call("POST", `/api/institution/courses/${id}/modules`, { title: "Um", position: 1 })
    ).json();
    for (const title of ["b", "a"]) {
      await call("POST", `/api/institution/modules/${m1.id}/lessons`, {
        title,
        type: "quiz",
        position: 1,
      });
    }
    const res = await call("GET", `/api/institution/courses/${id}/outline`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.modules.map((m: { id: string }) => m.id)).toEqual([m1.id, m2.id]);
    expect(body.modules[0].lessons.map((l: { title: string }) => l.title)).toEqual(["a", "b"]);
    expect(body.modules[0].lessonCount).toBe(2);
    expect(body.modules[1].lessons).toEqual([]);
    expect((await call("GET", "/api/institution/courses/nope/outline")).statusCode).toBe(404);
    const other = await newCourse("De B", b, keyB);
    expect((await call("GET", `/api/institution/courses/${other}/outline`)).statusCode).toBe(404);
  });
});
