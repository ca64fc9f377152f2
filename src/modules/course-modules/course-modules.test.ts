import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { courseModules } from "../../db/schema/index.js";
import { AS_WRITTEN, callApi, type Method, useApi } from "../../test-support/api.js";
import { makeKey, UNLIMITED_KEY } from "../../test-support/harness.js";

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

async function newCourse(tenant = a, key = keyA): Promise<string> {
  const res = await call("POST", "/api/institution/courses", { title: "Curso" }, tenant, key);
  return res.json().id;
}

async function addModule(courseId: string, body: object, tenant = a, key = keyA) {
  const res = await call("POST", `/api/institution/courses/${courseId}/modules`, body, tenant, key);
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

/** The course's modules as stored: title by position. */
async function order(courseId: string): Promise<string[]> {
  const rows = await h.database.db
    .select({ title: courseModules.title, position: courseModules.position })
    .from(courseModules)
    .where(eq(courseModules.courseId, courseId))
    .orderBy(courseModules.position);
  expect(rows.map((r) => r.position)).toEqual(rows.map((_, i) => i + 1));
  return rows.map((r) => r.title);
}

describe("modules", () => {
  it("creates a module with defaults, last by default, with the contract's record", async () => {
    const course = await newCourse();
    const first = await addModule(course, { title: "Introdução" });
    expect(Object.keys(first).sort()).toEqual(
      [
        "id",
        "courseId",
        "title",
        "description",
        "position",
        "status",
        "unlockAt",
        "prerequisiteModuleIds",
        "completionRequirement",
        "sequential",
        "lessonCount",
        "createdAt",
        "updatedAt",
      ].sort(),
    );
    expect(first).toMatchObject({
      courseId: course,
      title: "Introdução",
      description: null,
      position: 1,
      status: "draft",
      unlockAt: null,
      prerequisiteModuleIds: [],
      completionRequirement: "all",
      sequential: false,
      lessonCount: 0,
    });
    const second = await addModule(course, {
      title: "Vetores",
      unlockAt: "2026-05-01T12:00:00-03:00",
      completionRequirement: "any",
      status: "published",
    });
    expect(second).toMatchObject({
      position: 2,
      unlockAt: "2026-05-01T15:00:00.000Z",
      completionRequirement: "any",
    });
    const got = await call("GET", `/api/institution/modules/${second.id}`);
    expect(got.statusCode).toBe(200);
    expect(got.json()).toEqual(second);
  });

  it("inserts at a position by shifting the following modules; past the end means last", async () => {
    const course = await newCourse();
    for (const title of ["A", "B", "C"]) await addModule(course, { title });
    await addModule(course, { title: "X", position: 2 });
    expect(await order(course)).toEqual(["A", "X", "B", "C"]);
    const last = await addModule(course, { title: "Z", position: 99 });
    expect(last.position).toBe(5);
    await addModule(course, { title: "first", position: 1 });
    expect(await order(course)).toEqual(["first", "A", "X", "B", "C", "Z"]);
  });

  it("moves with PATCH and renumbers densely; DELETE closes the gap and drops the prerequisite", async () => {
    const course = await newCourse();
    const ids: Record<string, string> = {};
    for (const title of ["A", "B", "C", "D"]) ids[title] = (await addModule(course, { title })).id;
    const down = await call("PATCH", `/api/institution/modules/${ids.A}`, { position: 3 });
    expect(down.statusCode).toBe(200);
    expect(down.json().position).toBe(3);
    expect(await order(course)).toEqual(["B", "C", "A", "D"]);
    await call("PATCH", `/api/institution/modules/${ids.D}`, { position: 1, title: "D!" });
    expect(await order(course)).toEqual(["D!", "B", "C", "A"]);
    await call("PATCH", `/api/institution/modules/${ids.B}`, { position: 50 });
    expect(await order(course)).toEqual(["D!", "C", "A", "B"]);

    await call("PATCH", `/api/institution/modules/${ids.B}`, { prerequisiteModuleIds: [ids.C, ids.A] });
    const del = await call("DELETE", `/api/institution/modules/${ids.C}`);
    expect(del.statusCode).toBe(204);
    expect(del.body).toBe("");
    expect(await order(course)).toEqual(["D!", "A", "B"]);
    const b = (await call("GET", `/api/institution/modules/${ids.B}`)).json();
    expect(b).toMatchObject({ position: 3, prerequisiteModuleIds: [ids.A] });
    expect((await call("GET", `/api/institution/modules/${ids.C}`)).statusCode).toBe(404);
  });

  it("accepts prerequisites at lower positions of the same course and refuses the rest", async () => {
    const course = await newCourse();
    const m1 = await addModule(course, { title: "M1" });
    const m2 = await addModule(course, { title: "M2", prerequisiteModuleIds: [m1.id] });
    expect(m2.prerequisiteModuleIds).toEqual([m1.id]);
    const elsewhere = await addModule(await newCourse(), { title: "Outro curso" });
    const foreign = await addModule(await newCourse(b, keyB), { title: "Outra instituição" }, b, keyB);

    // At position 1, M1 would come after the new module.
    const before = await call("POST", `/api/institution/courses/${course}/modules`, {
      title: "Cedo",
      position: 1,
      prerequisiteModuleIds: [m1.id],
    });
    expect(before.statusCode).toBe(400);
    expect(before.json().details).toEqual([
      { field: "prerequisiteModuleIds[0]", message: expect.stringContaining(m1.id) },
    ]);
    for (const id of [elsewhere.id, foreign.id, randomUUID()]) {
      const res = await call("POST", `/api/institution/courses/${course}/modules`, {
        title: "Mau",
        prerequisiteModuleIds: [m2.id, id],
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().details.map((d: { field: string }) => d.field)).toEqual(["prerequisiteModuleIds[1]"]);
    }
    // Itself, or a module after it, cannot be a prerequisite.
    const self = await call("PATCH", `/api/institution/modules/${m1.id}`, { prerequisiteModuleIds: [m1.id] });
    expect(self.statusCode).toBe(400);
    const later = await call("PATCH", `/api/institution/modules/${m1.id}`, {
      prerequisiteModuleIds: [m2.id],
    });
    expect(later.statusCode).toBe(400);
    expect(await order(course)).toEqual(["M1", "M2"]);
    expect((await call("GET", `/api/institution/modules/${m1.id}`)).json().prerequisiteModuleIds).toEqual([]);

    // Moving a module in front of its prerequisite is refused and changes nothing.
    const move = await call("PATCH", `/api/institution/modules/${m2.id}`, { position: 1 });
    expect(move.statusCode).toBe(400);
    expect(move.json().details).toEqual([{ field: "position", message: expect.any(String) }]);
    expect(await order(course)).toEqual(["M1", "M2"]);
    // Moving it together with dropping the prerequisite is fine.
    const both = await call("PATCH", `/api/institution/modules/${m2.id}`, {
      position: 1,
      prerequisiteModuleIds: [],
    });
    expect(both.statusCode).toBe(200);
    expect(await order(course)).toEqual(["M2", "M1"]);
  });

  it("reorders with exactly the course's modules, refusing any other set or a broken prerequisite", async () => {
    const course = await newCourse();
    const [x, y, z] = [
      await addModule(course, { title: "X" }),
      await addModule(course, { title: "Y" }),
      await addModule(course, { title: "Z" }),
    ];
    const url = `/api/institution/courses/${course}/modules/order`;
    const res = await call("PUT", url, { moduleIds: [z.id, x.id, y.id] });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.map((m: { title: string; position: number }) => [m.title, m.position])).toEqual([
      ["Z", 1],
      ["X", 2],
      ["Y", 3],
    ]);
    const other = await addModule(await newCourse(), { title: "W" });
    for (const moduleIds of [[z.id, x.id], [z.id, x.id, y.id, other.id], [z.id, x.id, other.id], []]) {
      const bad = await call("PUT", url, { moduleIds });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().details[0].field).toBe("moduleIds");
    }
    expect((await call("PUT", url, { moduleIds: [x.id, x.id, y.id] })).statusCode).toBe(400);
    await call("PATCH", `/api/institution/modules/${y.id}`, { prerequisiteModuleIds: [x.id] });
    const broken = await call("PUT", url, { moduleIds: [y.id, x.id, z.id] });
    expect(broken.statusCode).toBe(400);
    expect(broken.json().details[0].field).toBe("moduleIds");
    expect(await order(course)).toEqual(["Z", "X", "Y"]);
    const empty = await newCourse();
    const none = await call("PUT", `/api/institution/courses/${empty}/modules/order`, { moduleIds: [] });
    expect(none.statusCode).toBe(200);
    expect(none.json()).toEqual({ data: [] });
  });

  it("lists in position order with filters, sorts and exact totals", async () => {
    const course = await newCourse();
    for (const [title, status] of [
      ["Banana", "published"],
      ["abacaxi", "draft"],
      ["Caju", "published"],
    ]) {
      await addModule(course, { title, status });
    }
    const list = async (q = "") =>
      (await call("GET", `/api/institution/courses/${course}/modules${q}`)).json();
    const all = await list();
    expect(all.data.map((m: { title: string }) => m.title)).toEqual(["Banana", "abacaxi", "Caju"]);
    expect(all.pagination).toEqual({ page: 1, perPage: 20, total: 3, totalPages: 1, totalRelation: "eq" });
    const published = await list("?status=published&perPage=1&page=2");
    expect(published.data.map((m: { title: string }) => m.title)).toEqual(["Caju"]);
    expect(published.pagination).toEqual({
      page: 2,
      perPage: 1,
      total: 2,
      totalPages: 2,
      totalRelation: "eq",
    });
    expect((await list("?sort=-position")).data.map((m: { title: string }) => m.title)).toEqual([
      "Caju",
      "abacaxi",
      "Banana",
    ]);
    expect((await list("?sort=title")).data.map((m: { title: string }) => m.title)).toEqual([
      "abacaxi",
      "Banana",
      "Caju",
    ]);
    expect((await call("GET", `/api/institution/courses/${course}/modules?status=gone`)).statusCode).toBe(
      400,
    );
    expect((await call("GET", `/api/institution/courses/${randomUUID()}/modules`)).statusCode).toBe(404);
  });

  it("keeps another tenant's modules out of reach", async () => {
    const theirCourse = await newCourse(b, keyB);
    const theirs = await addModule(theirCourse, { title: "Deles" }, b, keyB);
    for (const [method, url, body] of [
      ["GET", `/api/institution/modules/${theirs.id}`],
      ["PATCH", `/api/institution/modules/${theirs.id}`, { title: "Meu" }],
      ["DELETE", `/api/institution/modules/${theirs.id}`],
      ["GET", `/api/institution/courses/${theirCourse}/modules`],
      ["POST", `/api/institution/courses/${theirCourse}/modules`, { title: "Intruso" }],
      ["PUT", `/api/institution/courses/${theirCourse}/modules/order`, { moduleIds: [theirs.id] }],
      ["GET", "/api/institution/modules/not-a-uuid"],
    ] as [string, string, object?][]) {
      const res = await call(method, url, body);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json().error).toBe("not_found");
    }
    const rows = await h.database.db
      .select()
      .from(courseModules)
      .where(and(eq(courseModules.tenantId, b.id), eq(courseModules.courseId, theirCourse)));
    expect(rows.map((r) => r.title)).toEqual(["Deles"]);
  });

  it("refuses unknown fields and bad values with details", async () => {
    const course = await newCourse();
    const res = await call("POST", `/api/institution/courses/${course}/modules`, {
      title: "",
      position: 0,
      completionRequirement: "most",
      courseId: randomUUID(),
    });
    expect(res.statusCode).toBe(400);
    expect(
      res
        .json()
        .details.map((d: { field: string }) => d.field)
        .sort(),
    ).toEqual(["completionRequirement", "courseId", "position", "title"]);
    const m = await addModule(course, { title: "ok" });
    expect((await call("PATCH", `/api/institution/modules/${m.id}`, {})).statusCode).toBe(400);
    expect(await order(course)).toEqual(["ok"]);
  });
});
