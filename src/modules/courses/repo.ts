import { and, desc, eq, type SQL, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import { courses, tenantCounters } from "../../db/schema/index.js";
import { likeContains } from "../../platform/http/schemas.js";
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

function where(tenantId: string, filter: CourseFilter): SQL {
  const conditions: SQL[] = [eq(courses.tenantId, tenantId)];
  if (filter.status !== undefined) conditions.push(eq(courses.status, filter.status));
  if (filter.search !== undefined) {
    conditions.push(sql`${searchable} LIKE aula_fold(${likeContains(filter.search)})`);
  }
  return and(...conditions) as SQL;
}

export async function listCourses(
  db: Executor,
  tenantId: string,
  filter: CourseFilter,
  window: PageWindow,
): Promise<CourseRecord[]> {
  const rows = await db
    .select(columns)
    .from(courses)
    .where(where(tenantId, filter))
    .orderBy(desc(courses.createdAt), desc(courses.id))
    .limit(window.limit)
    .offset(window.offset);
  return rows as CourseRecord[];
}

/**
 * Exact totals without counting the tenant's rows: unfiltered and status-filtered lists read the counters the
 * triggers keep; a text search counts only its own matches, through the trigram index.
 */
export async function countCourses(db: Executor, tenantId: string, filter: CourseFilter): Promise<number> {
  if (filter.search === undefined) {
    const counter = filter.status === undefined ? "courses" : `courses:status:${filter.status}`;
    const rows = await db
      .select({ value: tenantCounters.value })
      .from(tenantCounters)
      .where(and(eq(tenantCounters.tenantId, tenantId), eq(tenantCounters.counter, counter)));
    return rows[0]?.value ?? 0;
  }
  const rows = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(courses)
    .where(where(tenantId, filter));
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
