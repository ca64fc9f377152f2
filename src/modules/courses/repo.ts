import { and, desc, eq, type Placeholder, type SQL, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import { readCounter } from "../../db/counters.js";
import { prepared } from "../../db/prepared.js";
import { courses } from "../../db/schema/index.js";
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

/** Values, or placeholders bound later by a prepared statement. */
type Bindable = string | Placeholder;

function where(tenantId: Bindable, filter: { status?: Bindable; search?: Bindable }): SQL {
  return and(
    eq(courses.tenantId, tenantId),
    filter.status === undefined ? undefined : eq(courses.status, filter.status),
    filter.search === undefined ? undefined : sql`${searchable} LIKE aula_fold(${filter.search})`,
  ) as SQL;
}

/** One prepared statement per filter shape; the values are bound at execution. */
function listStatement(db: Executor, filter: CourseFilter) {
  const name = `courses_list${filter.status === undefined ? "" : "_status"}${filter.search === undefined ? "" : "_search"}`;
  return prepared(db, name, () =>
    db
      .select(columns)
      .from(courses)
      .where(
        where(sql.placeholder("tenantId"), {
          status: filter.status === undefined ? undefined : sql.placeholder("status"),
          search: filter.search === undefined ? undefined : sql.placeholder("pattern"),
        }),
      )
      .orderBy(desc(courses.createdAt), desc(courses.id))
      .limit(sql.placeholder("limit"))
      .offset(sql.placeholder("offset"))
      .prepare(name),
  );
}

export async function listCourses(
  db: Executor,
  tenantId: string,
  filter: CourseFilter,
  window: PageWindow,
): Promise<CourseRecord[]> {
  const rows = await listStatement(db, filter).execute({
    tenantId,
    status: filter.status,
    pattern: filter.search === undefined ? undefined : likeContains(filter.search),
    limit: window.limit,
    offset: window.offset,
  });
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
    .where(where(tenantId, { status: filter.status, search: likeContains(filter.search) }));
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
