import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { rubrics, rubricVersions } from "../../db/schema/index.js";
import { callerFor, fieldsOf, MANY_STUDENTS, useApi } from "../../test-support/api.js";
import { makeKey, signedInUser, UNLIMITED_KEY } from "../../test-support/harness.js";
import { enrollAs, publishedCourse } from "../gradebook/test-fixtures.js";
import { rubricBody } from "./test-fixtures.js";

const { h, tenants } = useApi({ env: MANY_STUDENTS, tenants: 2 });
const [a, b] = tenants;
let keyA: string;
let keyB: string;
const call = callerFor(h, () => ({ tenant: a, credential: keyA }));

beforeAll(async () => {
  keyA = await makeKey(h, a, ["rubrics:read", "rubrics:write"], UNLIMITED_KEY);
  keyB = await makeKey(h, b, ["rubrics:read", "rubrics:write"], UNLIMITED_KEY);
});

const ratings = (...points: number[]) => points.map((p) => ({ description: `R${p}`, points: p }));

describe("rubrics", () => {
  it("creates with version 1, ratings highest first, points possible summed, and stores the version", async () => {
    const res = await call("POST", "/rubrics", rubricBody({ description: "2º bimestre" }));
    expect(res.statusCode, res.body).toBe(201);
    const r = res.json();
    expect(r).toMatchObject({
      title: "Redação",
      description: "2º bimestre",
      scope: "institution",
      courseId: null,
      freeFormComments: false,
      hideScoreTotal: false,
      pointsPossible: 15,
      status: "active",
      inUse: false,
      version: 1,
      assessmentCount: 0,
    });
    expect(r.criteria.map((c: { position: number }) => c.position)).toEqual([1, 2]);
    expect(r.criteria[0].ratings.map((x: { points: number }) => x.points)).toEqual([10, 5, 0]);
    expect(r.criteria[1]).toMatchObject({ useRange: true, points: 5, longDescription: null });
    const versions = await h.database.db
      .select()
      .from(rubricVersions)
      .where(and(eq(rubricVersions.tenantId, a.id), eq(rubricVersions.rubricId, r.id)));
    expect(versions.map((v) => [v.version, v.pointsPossible])).toEqual([[1, 15]]);
    expect((await call("GET", `/rubrics/${r.id}`)).json()).toEqual(r);
  });

  it("refuses ratings that repeat points, exceed the criterion's, and more than 50 criteria", async () => {
    const bad = await call("POST", "/rubrics", {
      title: "Bad",
      criteria: [
        { description: "A", points: 5, ratings: ratings(5, 5) },
        { description: "B", points: 4, ratings: ratings(6, 0) },
      ],
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toBe("validation_failed");
    expect(fieldsOf(bad)).toEqual(["criteria[0].ratings[1].points", "criteria[1].ratings[0].points"]);
    const many = Array.from({ length: 51 }, (_, i) => ({
      description: `C${i}`,
      points: 1,
      ratings: ratings(1, 0),
    }));
    const tooMany = await call("POST", "/rubrics", { title: "Many", criteria: many });
    expect(tooMany.statusCode).toBe(400);
    expect(fieldsOf(tooMany)).toEqual(["criteria"]);
    expect((await call("POST", "/rubrics", { title: "Fifty", criteria: many.slice(0, 50) })).statusCode).toBe(
      201,
    );
    const one = await call("POST", "/rubrics", {
      title: "One",
      criteria: [{ description: "A", points: 1, ratings: ratings(1) }],
    });
    expect(one.statusCode).toBe(400);
    const zero = await call("POST", "/rubrics", {
      title: "Z",
      criteria: [{ description: "A", points: 0, ratings: ratings(0, 0) }],
    });
    expect(zero.statusCode).toBe(400);
  });

  it("takes the course scope with a course of the tenant only, and checks the scope against courseId", async () => {
    const course = await publishedCourse(h.database.db, a.id);
    const made = await call("POST", "/rubrics", rubricBody({ courseId: course }));
    expect(made.json()).toMatchObject({ scope: "course", courseId: course });
    const missing = await call("POST", "/rubrics", rubricBody({ scope: "course" }));
    expect(fieldsOf(missing)).toEqual(["courseId"]);
    const both = await call("POST", "/rubrics", rubricBody({ scope: "institution", courseId: course }));
    expect(fieldsOf(both)).toEqual(["courseId"]);
    const foreign = await publishedCourse(h.database.db, b.id);
    const other = await call("POST", "/rubrics", rubricBody({ courseId: foreign }));
    const unknown = await call("POST", "/rubrics", rubricBody({ courseId: randomUUID() }));
    expect(other.statusCode).toBe(400);
    expect(other.json().details[0].field).toBe("courseId");
    expect(unknown.statusCode).toBe(400);
  });

  it("lets a teacher change course rubrics of the courses it teaches only, and institution ones", async () => {
    const teacher = await signedInUser(h, a, "teacher");
    const taught = await publishedCourse(h.database.db, a.id);
    const other = await publishedCourse(h.database.db, a.id);
    await enrollAs(h.database.db, a.id, teacher.id, taught, "teacher");
    const asTeacher = (method: "POST" | "PATCH", url: string, body: unknown) =>
      call(method, url, body, { cookie: teacher.cookie });
    expect((await asTeacher("POST", "/rubrics", rubricBody({ courseId: taught }))).statusCode).toBe(201);
    expect((await asTeacher("POST", "/rubrics", rubricBody())).statusCode).toBe(201);
    const refused = await asTeacher("POST", "/rubrics", rubricBody({ courseId: other }));
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toBe("forbidden");
    const byAdmin = (await call("POST", "/rubrics", rubricBody({ courseId: other }))).json();
    expect((await asTeacher("PATCH", `/rubrics/${byAdmin.id}`, { title: "X" })).statusCode).toBe(403);
  });

  it("upserts and deletes one criterion, keeping positions, and refuses to delete the last", async () => {
    const r = (await call("POST", "/rubrics", rubricBody())).json();
    const id = randomUUID();
    const added = await call("PUT", `/rubrics/${r.id}/criteria/${id}`, {
      description: "Fontes",
      points: 3,
      ratings: ratings(0, 3),
      position: 1,
    });
    expect(added.statusCode, added.body).toBe(201);
    expect(added.json().criteria.map((c: { id: string }) => c.id)).toEqual([
      id,
      r.criteria[0].id,
      r.criteria[1].id,
    ]);
    expect(added.json()).toMatchObject({ pointsPossible: 18, version: 1 });
    const replaced = await call("PUT", `/rubrics/${r.id}/criteria/${id}`, {
      description: "Fontes citadas",
      points: 4,
      ratings: ratings(4, 1),
    });
    expect(replaced.statusCode).toBe(200);
    expect(replaced.json().criteria[0]).toMatchObject({ id, description: "Fontes citadas", position: 1 });
    const bad = await call("PUT", `/rubrics/${r.id}/criteria/${id}`, {
      description: "X",
      points: 1,
      ratings: ratings(2, 0),
    });
    expect(fieldsOf(bad)).toEqual(["ratings[0].points"]);
    expect((await call("DELETE", `/rubrics/${r.id}/criteria/${id}`)).statusCode).toBe(204);
    expect((await call("DELETE", `/rubrics/${r.id}/criteria/${randomUUID()}`)).statusCode).toBe(404);
    expect((await call("DELETE", `/rubrics/${r.id}/criteria/${r.criteria[0].id}`)).statusCode).toBe(204);
    const last = await call("DELETE", `/rubrics/${r.id}/criteria/${r.criteria[1].id}`);
    expect(last.statusCode).toBe(409);
    expect((await call("GET", `/rubrics/${r.id}`)).json()).toMatchObject({ pointsPossible: 5, version: 1 });
  });

  it("lists with filters and exact totals from counters, and a search ignoring accents", async () => {
    const t = b;
    const list = (q: string) => call("GET", `/rubrics${q}`, undefined, keyB, t);
    const course = await publishedCourse(h.database.db, t.id);
    await call("POST", "/rubrics", rubricBody({ title: "Avaliação oral" }), keyB, t);
    await call("POST", "/rubrics", rubricBody({ title: "Projeto", courseId: course }), keyB, t);
    await call("POST", "/rubrics", rubricBody({ title: "Antiga", status: "archived" }), keyB, t);
    const all = (await list("")).json();
    expect(all.data.map((r: { title: string }) => r.title)).toEqual(["Antiga", "Projeto", "Avaliação oral"]);
    expect(all.pagination).toMatchObject({ total: 3, totalRelation: "eq" });
    expect((await list("?status=archived")).json().pagination.total).toBe(1);
    expect((await list("?scope=course")).json().data.map((r: { title: string }) => r.title)).toEqual([
      "Projeto",
    ]);
    expect((await list(`?courseId=${course}`)).json().pagination.total).toBe(1);
    expect((await list("?search=avaliacao")).json().data.map((r: { title: string }) => r.title)).toEqual([
      "Avaliação oral",
    ]);
    expect((await list("?sort=title&perPage=1")).json()).toMatchObject({
      data: [{ title: "Antiga" }],
      pagination: { total: 3, totalPages: 3 },
    });
  });

  it("deletes a rubric never assessed (204) and answers 404 for another tenant's on every path", async () => {
    const r = (await call("POST", "/rubrics", rubricBody())).json();
    const foreign = (await call("POST", "/rubrics", rubricBody(), keyB, b)).json();
    const crit = foreign.criteria[0].id;
    for (const [method, url, body] of [
      ["GET", `/rubrics/${foreign.id}`],
      ["PATCH", `/rubrics/${foreign.id}`, { title: "X" }],
      ["DELETE", `/rubrics/${foreign.id}`],
      [
        "PUT",
        `/rubrics/${foreign.id}/criteria/${crit}`,
        { description: "X", points: 1, ratings: ratings(1, 0) },
      ],
      ["DELETE", `/rubrics/${foreign.id}/criteria/${crit}`],
      ["GET", `/rubrics/${foreign.id}/assessments`],
      ["GET", `/rubrics/${foreign.id}/assessments/${randomUUID()}`],
    ] as const) {
      const res = await call(method, url, body);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
    }
    const stored = await h.database.db.select().from(rubrics).where(eq(rubrics.id, foreign.id));
    expect(stored[0]?.title).toBe("Redação");
    expect((await call("DELETE", `/rubrics/${r.id}`)).statusCode).toBe(204);
    expect((await call("GET", `/rubrics/${r.id}`)).statusCode).toBe(404);
  });
});
