import { and, desc, eq, sql } from "drizzle-orm";
import type { Db } from "../src/db/client.js";
import { courses, tenantCounters } from "../src/db/schema/index.js";

/**
 * The page query of src/modules/courses/repo.ts `listCourses` with no filter (tenant filter, newest first,
 * `id` as tie-breaker, LIMIT/OFFSET) and the counter read of `countCourses`, written with placeholders so they
 * can be prepared once. Keep these in step with repo.ts: variant (b) is only a fair baseline if it asks the
 * database the same questions as the real route.
 */
const columns = {
  id: courses.id,
  title: courses.title,
  description: courses.description,
  status: courses.status,
  createdAt: courses.createdAt,
  updatedAt: courses.updatedAt,
};

export function pageQuery(db: Db) {
  return db
    .select(columns)
    .from(courses)
    .where(eq(courses.tenantId, sql.placeholder("tenantId")))
    .orderBy(desc(courses.createdAt), desc(courses.id))
    .limit(sql.placeholder("limit"))
    .offset(sql.placeholder("offset"));
}

export function totalQuery(db: Db) {
  return db
    .select({ value: tenantCounters.value })
    .from(tenantCounters)
    .where(
      and(eq(tenantCounters.tenantId, sql.placeholder("tenantId")), eq(tenantCounters.counter, "courses")),
    );
}

/** The same page query with its parameter values, for EXPLAIN with a custom plan. */
export function literalPageQuery(db: Db, tenantId: string) {
  return db
    .select(columns)
    .from(courses)
    .where(eq(courses.tenantId, tenantId))
    .orderBy(desc(courses.createdAt), desc(courses.id))
    .limit(20)
    .offset(0);
}
