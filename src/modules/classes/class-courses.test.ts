import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { callerFor, useApi, WHOLE_PATHS } from "../../test-support/api.js";
import { makeKey } from "../../test-support/harness.js";
import { createCourse } from "../courses/service.js";

/**
 * A course's classes (migration 0049): the page walks class_group_courses, which triggers keep from
 * `class_groups.course_ids`, and the total is the course's counter. Both must say what the classes themselves say
 * after every kind of write.
 */

const { h, tenants } = useApi({ tenants: 2 });
const [t, other] = tenants;
let key: string;
let otherKey: string;

beforeAll(async () => {
  key = await makeKey(h, t, ["classes:read", "classes:write"]);
  otherKey = await makeKey(h, other, ["classes:read", "classes:write"]);
});

const send = callerFor(h, () => ({ tenant: t, credential: key }), WHOLE_PATHS);
const course = async () => (await createCourse(h.database.db, t.id, { title: "Curso" })).id;

const list = async (query: string) => {
  const res = await send("GET", `/api/institution/classes?perPage=100&${query}`);
  expect(res.statusCode, query).toBe(200);
  return res.json() as {
    data: { id: string; name: string; courseIds: string[] }[];
    pagination: { total: number };
  };
};

/** The course rows and course counters that disagree with the classes' own course_ids, for tenant t. */
async function drift(): Promise<string[]> {
  const { rows } = (await h.database.db.execute(sql`
    WITH expected AS (
      SELECT DISTINCT g.id AS class_group_id, c.course_id, g.name, g.created_at
      FROM class_groups g CROSS JOIN LATERAL unnest(g.course_ids) AS c(course_id) WHERE g.tenant_id = ${t.id}
    ), kept AS (
      SELECT class_group_id, course_id, name, created_at FROM class_group_courses WHERE tenant_id = ${t.id}
    ), counts AS (
      SELECT 'class_group_courses:course_id:' || course_id AS counter, count(*)::int AS n FROM expected
      GROUP BY course_id
    )
    (SELECT 'missing ' || class_group_id || ' ' || course_id AS off
     FROM (SELECT * FROM expected EXCEPT SELECT * FROM kept) m)
    UNION ALL (SELECT 'extra ' || class_group_id || ' ' || course_id FROM (SELECT * FROM kept EXCEPT SELECT * FROM expected) x)
    UNION ALL
    SELECT 'counter ' || coalesce(c.counter, k.counter) || ' ' || coalesce(c.n, 0) || ' <> ' || coalesce(k.value, 0)
    FROM counts c FULL JOIN (
      SELECT counter, value::int AS value FROM tenant_counters
      WHERE tenant_id = ${t.id} AND counter LIKE 'class_group_courses:%' AND value <> 0) k ON k.counter = c.counter
    WHERE c.n IS DISTINCT FROM k.value`)) as unknown as { rows: { off: string }[] };
  return rows.map((r) => r.off);
}

describe("classes by course", () => {
  it("keeps each class's courses through creation, edits, renames and deletion", async () => {
    const [c1, c2, c3] = [await course(), await course(), await course()];
    const ids: string[] = [];
    for (let i = 1; i <= 5; i++) {
      const courseIds = i % 2 === 0 ? [c1, c2] : [c1];
      const res = await send("POST", "/api/institution/classes", { name: `Turma ${i}`, courseIds });
      expect(res.statusCode, res.body).toBe(201);
      ids.push(res.json().id);
    }
    expect(await drift()).toEqual([]);
    expect((await send("PATCH", `/api/institution/classes/${ids[0]}`, { courseIds: [c3] })).statusCode).toBe(
      200,
    );
    expect((await send("PATCH", `/api/institution/classes/${ids[1]}`, { name: "Renamed" })).statusCode).toBe(
      200,
    );
    await h.database.db.execute(sql`UPDATE class_groups SET capacity = 30 WHERE tenant_id = ${t.id}`);
    expect(await drift()).toEqual([]);
    expect((await send("DELETE", `/api/institution/classes/${ids[2]}`)).statusCode).toBe(204);
    expect(await drift()).toEqual([]);

    const first = await list(`courseId=${c1}&sort=name`);
    expect(first.data.map((g) => g.name)).toEqual(["Renamed", "Turma 4", "Turma 5"]);
    expect(first.pagination.total).toBe(3);
    expect((await list(`courseId=${c2}`)).pagination.total).toBe(2);
    expect((await list(`courseId=${c3}`)).data.map((g) => g.id)).toEqual([ids[0]]);
    // With another filter, the course's rows joined to their classes: capped count, same rows.
    expect((await list(`courseId=${c1}&status=active`)).pagination.total).toBe(3);
    expect((await list(`courseId=${c1}&status=archived`)).pagination.total).toBe(0);
  });

  it("pages a course's classes in every order exactly as the whole list, filtered, would", async () => {
    const [c1, c2] = [await course(), await course()];
    const names = ["delta", "Álgebra", "charlie", "Bravo", "eco", "ábaco", "foxtrot"];
    for (const [i, name] of names.entries()) {
      const res = await send("POST", "/api/institution/classes", {
        name,
        courseIds: i % 3 === 0 ? [c2] : [c1],
      });
      expect(res.statusCode).toBe(201);
    }
    for (const sort of ["createdAt", "-createdAt", "name", "-name"]) {
      const whole = await list(`sort=${sort}`);
      for (const c of [c1, c2]) {
        const expected = whole.data.filter((g) => g.courseIds.includes(c)).map((g) => g.id);
        expect(
          (await list(`sort=${sort}&courseId=${c}`)).data.map((g) => g.id),
          sort,
        ).toEqual(expected);
        const page2 = await send(
          "GET",
          `/api/institution/classes?perPage=2&page=2&sort=${sort}&courseId=${c}`,
        );
        expect(page2.json().data.map((g: { id: string }) => g.id)).toEqual(expected.slice(2, 4));
      }
    }
  });

  it("answers another tenant's course as no classes, and never its classes", async () => {
    const c1 = await course();
    await send("POST", "/api/institution/classes", { name: "Private", courseIds: [c1] });
    const res = await h.inject({
      method: "GET",
      url: `/api/institution/classes?courseId=${c1}`,
      headers: { host: other.host, authorization: `Bearer ${otherKey}` },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ data: [], pagination: { total: 0 } });
  });
});
