import { sql } from "drizzle-orm";
import { drizzle as drizzleNodePg } from "drizzle-orm/node-postgres";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { beforeAll, describe, expect, it } from "vitest";
import { BULK_CHUNK } from "../../db/chunks.js";
import type { Db } from "../../db/client.js";
import * as schema from "../../db/schema/index.js";
import { callerFor, useApi } from "../../test-support/api.js";
import { makeKey, UNLIMITED_KEY } from "../../test-support/harness.js";
import { bulkGrades } from "./grades.js";
import { publishedCourse } from "./test-fixtures.js";

const { h, tenants } = useApi({ tenants: 1 });
const [a] = tenants;
let key: string;
const call = callerFor(h, () => ({ tenant: a, credential: key }));

beforeAll(async () => {
  key = await makeKey(h, a, ["grades:read", "grades:write"], UNLIMITED_KEY);
});

/** `n` students enrolled in the course, written in two statements (the plan's student limit has its own tests). */
async function students(courseId: string, n: number): Promise<string[]> {
  const result = (await h.database.db.execute(sql`
    WITH made AS (
      INSERT INTO users (tenant_id, name, email, role)
      SELECT ${a.id}::uuid, 'Bulk ' || i, 'bulk-' || i || '-' || ${courseId} || '@x.test', 'student'
      FROM generate_series(1, ${n}) AS i RETURNING id)
    INSERT INTO enrollments (tenant_id, user_id, course_id, role, status)
    SELECT ${a.id}::uuid, id, ${courseId}::uuid, 'student', 'active' FROM made RETURNING user_id`)) as unknown as {
    rows: { user_id: string }[];
  };
  return result.rows.map((r) => r.user_id);
}

describe("bulk grades", () => {
  it("sends a few statements per chunk of rows, not per item, and recomputes every course grade", async () => {
    const course = await publishedCourse(h.database.db, a.id);
    const item = (
      await call("POST", `/courses/${course}/grade-items`, { title: "Prova", maxPoints: 10 })
    ).json();
    const ids = await students(course, 2 * BULK_CHUNK + 10);
    // The service on a database handle that counts the statements it is sent (as enrollments' bulk test does).
    let statements = 0;
    const logger = { logQuery: () => void statements++ };
    const client = (h.database.db as unknown as { $client: never }).$client;
    const db = (h.database.kind === "pglite"
      ? drizzlePglite(client, { schema, logger })
      : drizzleNodePg(client, { schema, logger })) as unknown as Db;
    const bulk = async (userIds: string[]) => {
      statements = 0;
      const results = await bulkGrades(
        db,
        a.id,
        { kind: "system" },
        course,
        userIds.map((userId, i) => ({ gradeItemId: item.id, userId, score: i % 11 })),
      );
      expect(results.every((r) => r.status === "created")).toBe(true);
      return statements;
    };
    const small = await bulk(ids.slice(0, 5));
    const large = await bulk(ids.slice(5, 5 + 2 * BULK_CHUNK));
    // The upsert, the change log and the read back go by chunks of BULK_CHUNK rows; everything else once.
    // 21 at the time of writing: the course lock, items, enrollments, grades, upsert, log, course grades (6),
    // settings, events (3), read back.
    expect(small).toBeLessThanOrEqual(24);
    expect(large).toBe(small + 3);
    await bulk(ids.slice(5 + 2 * BULK_CHUNK));
    const res = await call("GET", `/courses/${course}/gradebook?perPage=100&page=3`);
    expect(res.json().pagination.total).toBe(2 * BULK_CHUNK + 10);
    const cg = (await h.database.db.execute(
      sql`SELECT count(*)::int AS n FROM course_grades WHERE course_id = ${course}::uuid`,
    )) as unknown as { rows: { n: number }[] };
    expect(cg.rows[0]?.n).toBe(2 * BULK_CHUNK + 10);
  });
});
