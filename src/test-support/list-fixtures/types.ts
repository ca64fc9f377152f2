import { type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";

/**
 * The shape of one list route's fixture (issue 20): how to reach it, how to fill one tenant with `size` rows of
 * its kind in a few set-based statements, and which requests to measure. test/list-plans.test.ts proves each
 * query's statements flat at a large size; bench/lists.ts times them at 1,000 against a large tenant. Both read
 * the same table (src/test-support/list-fixtures.ts), so a new list is covered by adding one entry there.
 */

/** What a seed needs of its tenant (the test harness's and the bench's tenants both have it). */
export interface SeedTenant {
  id: string;
  slug: string;
  adminUserId: string;
}

/** Ids and values a seed made that the path or a query names, e.g. `{ id: courseId, userId }`. */
export type Seeded = Record<string, string>;

export interface ListQuery {
  /** Its name in test titles and bench lines: `sort=-name`, `search rare`, … */
  name: string;
  /** The querystring without `page`/`perPage`; `{key}` is replaced by the seed's value of that key. */
  query: string;
  /**
   * A filter matching a few rows whatever the size: its page may sort those few (a top-N under the Limit),
   * as the planner prefers for a rare value, and the bench compares it at a tenant larger again.
   */
  rare?: boolean;
  /** A search or filter (not only an order): the bench measures it at the huge size too. */
  filtered?: boolean;
  /**
   * A filter whose total is a trigger-kept counter, as every unfiltered list's is: no statement of the request
   * counts the list's tables.
   */
  counter?: boolean;
}

export interface ListFixture {
  /** Unique, short: the test's describe and the bench's line. */
  name: string;
  /** As registered, with `:id` for the seeded parent (`seed` returns `id`). */
  path: string;
  /** The API key's scopes; ignored when `session` is set. */
  scopes: string[];
  /** The route takes an administrator's session only (no API key). */
  session?: boolean;
  /**
   * The tables that grow with `size`: a statement of the request reading one of them is explained, and none may
   * scan them. The first is the list's own table (its page statement reads it).
   */
  tables: string[];
  /** Inserts `size` rows of the list's kind (and the parents they need) for `tenant`; ends with ANALYZE. */
  seed(db: Db, tenant: SeedTenant, size: number): Promise<Seeded>;
  queries: ListQuery[];
}

/** Rows of a statement's result, on PGlite or `pg`. */
export async function rows<T = Record<string, unknown>>(db: Db, query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

/** The one row of an INSERT … RETURNING id. */
export async function insertedId(db: Db, query: SQL): Promise<string> {
  const [row] = await rows<{ id: string }>(db, query);
  if (row === undefined) throw new Error("the seed's insert returned no row");
  return row.id;
}

/**
 * VACUUM ANALYZE: statistics for the planner, and the visibility map an index-only scan needs to skip the heap,
 * which autovacuum sets on a table at rest; right after a bulk insert every index-only scan still reads the heap.
 */
export async function analyze(db: Db, ...tables: string[]): Promise<void> {
  for (const table of tables) await db.execute(sql.raw(`VACUUM ANALYZE ${table}`));
}

/**
 * The `sort` values a list's querystring schema offers (its TypeBox enum), so that a sort added to a route is
 * measured without touching the fixture. The default order (no `sort`) comes first.
 */
export function sortQueries(querystring: unknown): ListQuery[] {
  const sort = (querystring as { properties?: { sort?: { enum?: string[] } } }).properties?.sort;
  return [
    { name: "default order", query: "" },
    ...(sort?.enum ?? []).map((value) => ({ name: `sort=${value}`, query: `sort=${value}` })),
  ];
}

/**
 * Ten of `size` rows are rare, spread over the whole range (numbers 7, 7 + size/10, …): a rare filter matches
 * the same ten at every size, so its page returns as much at 1,000,000 as at 1,000, while an index walk that
 * skips non-matching rows to reach them still grows with the institution and shows as a ratio under target.
 */
export function rare(size: number) {
  const step = Math.max(1, Math.floor(size / 10));
  return sql.raw(`i % ${step} = ${7 % step}`);
}

/** Timestamps rising with the row number, 20 seconds apart: ties are few, the newest is the largest number. */
export const AT = sql.raw("timestamptz '2024-01-01' + i * interval '20 seconds'");

/** `size` students of the tenant, named "Member i" (rare ones "Quixotic Member i"). */
export async function insertUsers(
  db: Db,
  tenant: SeedTenant,
  size: number,
  prefix = "member",
): Promise<void> {
  await db.execute(sql`
    INSERT INTO users (tenant_id, name, email, role, status, created_at)
    SELECT ${tenant.id}::uuid,
           CASE WHEN ${rare(size)} THEN 'Quixotic Member ' || i ELSE 'Member ' || i END,
           ${prefix} || i || '@' || ${tenant.slug} || '.test', 'student', 'active', ${AT}
    FROM generate_series(1, ${size}) AS i`);
}

/** One course, one module and one lesson of it: the parents of lessons, completions and quizzes. */
export async function insertCourseTree(db: Db, tenant: SeedTenant) {
  const courseId = await insertedId(
    db,
    sql`INSERT INTO courses (tenant_id, title, status) VALUES (${tenant.id}::uuid, 'Parent course', 'published')
        RETURNING id`,
  );
  const moduleId = await insertedId(
    db,
    sql`INSERT INTO course_modules (tenant_id, course_id, title, position, status)
        VALUES (${tenant.id}::uuid, ${courseId}::uuid, 'Parent module', 1, 'published') RETURNING id`,
  );
  const lessonId = await insertedId(
    db,
    sql`INSERT INTO lessons (tenant_id, course_id, module_id, title, type, content, position, status)
        VALUES (${tenant.id}::uuid, ${courseId}::uuid, ${moduleId}::uuid, 'Parent lesson', 'text',
                '{"bodyHtml": "<p>Lesson</p>"}'::jsonb, 1, 'published') RETURNING id`,
  );
  return { courseId, moduleId, lessonId };
}
