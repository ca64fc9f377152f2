import { and, desc, eq, type SQL, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import { readCounter } from "../../db/counters.js";
import { type Bindable, likeContains, runPageQuery } from "../../db/page-query.js";
import { courses } from "../../db/schema/index.js";
import type { PageWindow } from "../../platform/pagination/pagination.js";
import type { CourseRecord, CourseStatus, CreateCourseInput, UpdateCourseInput } from "./schemas.js";

const columns = {
  id: courses.id,
  title: courses.title,
  description: courses.description,
  status: courses.status,
  createdAt: courses.createdAt,
  updatedAt: courses.updatedAt,
};

const searchable = sql`aula_fold(${courses.title} || ' ' || coalesce(${courses.description}, ''))`;

export interface CourseFilter {
  search?: string;
  status?: CourseStatus;
}

function where(tenantId: Bindable, filter: { status?: Bindable; pattern?: Bindable }): SQL {
  return and(
    eq(courses.tenantId, tenantId),
    filter.status === undefined ? undefined : eq(courses.status, filter.status),
    filter.pattern === undefined ? undefined : sql`${searchable} LIKE aula_fold(${filter.pattern})`,
  ) as SQL;
}

function bindings(filter: CourseFilter) {
  return {
    status: filter.status,
    pattern: filter.search === undefined ? undefined : likeContains(filter.search),
  };
}

export async function listCourses(
  db: Executor,
  tenantId: string,
  filter: CourseFilter,
  window: PageWindow,
): Promise<CourseRecord[]> {
  const rows = await runPageQuery(db, "courses", tenantId, bindings(filter), window, (p, name) =>
    db
      .select(columns)
      .from(courses)
      .where(where(p.tenantId, p))
      .orderBy(desc(courses.createdAt), desc(courses.id))
      .limit(p.limit)
      .offset(p.offset)
      .prepare(name),
  );
  return rows as CourseRecord[];
}

/**
 * Exact totals without counting the tenant's rows: unfiltered and status-filtered lists read the counters the
 * triggers keep; a text search counts only its own matches, through the trigram index.
 */
export async function countCourses(db: Executor, tenantId: string, filter: CourseFilter): Promise<number> {
  if (filter.search === undefined) {
    return readCounter(
      db,
      tenantId,
      filter.status === undefined ? "courses" : `courses:status:${filter.status}`,
    );
  }
  const rows = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(courses)
    .where(where(tenantId, bindings(filter)));
  return rows[0]?.n ?? 0;
}

export async function findCourse(
  db: Executor,
  tenantId: string,
  id: string,
): Promise<CourseRecord | undefined> {
  const rows = await db
    .select(columns)
    .from(courses)
    .where(and(eq(courses.tenantId, tenantId), eq(courses.id, id)));
  return rows[0] as CourseRecord | undefined;
}

export async function insertCourse(
  db: Executor,
  tenantId: string,
  input: CreateCourseInput,
): Promise<CourseRecord> {
  const rows = await db
    .insert(courses)
    .values({
      tenantId,
      title: input.title,
      description: input.description ?? null,
      status: input.status ?? "draft",
    })
    .returning(columns);
  return rows[0] as CourseRecord;
}

export async function updateCourse(
  db: Executor,
  tenantId: string,
  id: string,
  input: UpdateCourseInput,
): Promise<CourseRecord | undefined> {
  const rows = await db
    .update(courses)
    .set({ ...input, updatedAt: sql`now()` })
    .where(and(eq(courses.tenantId, tenantId), eq(courses.id, id)))
    .returning(columns);
  return rows[0] as CourseRecord | undefined;
}

export async function deleteCourse(db: Executor, tenantId: string, id: string): Promise<boolean> {
  const rows = await db
    .delete(courses)
    .where(and(eq(courses.tenantId, tenantId), eq(courses.id, id)))
    .returning({ id: courses.id });
  return rows.length > 0;
}
