import { and, asc, desc, eq, ne, type SQL, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import { readCounter } from "../../db/counters.js";
import { type Bindable, likeContains, runPageQuery } from "../../db/page-query.js";
import { qualified } from "../../db/qualified.js";
import { courses, enrollments, tagAssignments } from "../../db/schema/index.js";
import { type CappedTotal, countCapped, exactTotal } from "../../platform/pagination/capped.js";
import type { PageWindow } from "../../platform/pagination/pagination.js";
import { learnerCourseIds } from "./audience.js";
import type {
  CourseRecord,
  CourseSort,
  CourseStatus,
  CreateCourseInput,
  UpdateCourseInput,
} from "./schemas.js";

const columns = {
  id: courses.id,
  title: courses.title,
  description: courses.description,
  status: courses.status,
  createdAt: courses.createdAt,
  updatedAt: courses.updatedAt,
};

const searchable = sql`aula_fold(${courses.title} || ' ' || coalesce(${courses.description}, ''))`;

/** Every order ends on the id, so equal values page stably. Titles sort ignoring case and accents. */
const ORDER: Record<CourseSort, SQL[]> = {
  createdAt: [asc(courses.createdAt), asc(courses.id)],
  "-createdAt": [desc(courses.createdAt), desc(courses.id)],
  updatedAt: [asc(courses.updatedAt), asc(courses.id)],
  "-updatedAt": [desc(courses.updatedAt), desc(courses.id)],
  title: [sql`aula_fold(${courses.title})`, asc(courses.title), asc(courses.id)],
  "-title": [sql`aula_fold(${courses.title}) DESC`, desc(courses.title), desc(courses.id)],
};

export interface CourseFilter {
  search?: string;
  status?: CourseStatus;
  tag?: string;
}

function where(tenantId: Bindable, filter: { status?: Bindable; pattern?: Bindable; tag?: Bindable }): SQL {
  return and(
    eq(courses.tenantId, tenantId),
    filter.status === undefined ? undefined : eq(courses.status, filter.status),
    filter.pattern === undefined ? undefined : sql`${searchable} LIKE aula_fold(${filter.pattern})`,
    // Through the assignments' primary key (tenant, tag, resource type, resource id): one probe per course.
    filter.tag === undefined
      ? undefined
      : sql`EXISTS (SELECT 1 FROM ${tagAssignments} ta WHERE ta.tenant_id = ${qualified(courses.tenantId)}
          AND ta.tag_id = ${filter.tag}::uuid AND ta.resource_type = 'course' AND ta.resource_id = ${qualified(courses.id)})`,
  ) as SQL;
}

/** The courses a learner may read (see audience.ts). */
const learnerSees = (tenantId: string, userId: string) =>
  sql`${qualified(courses.id)} IN (${learnerCourseIds(tenantId, userId)})`;

function bindings(filter: CourseFilter) {
  return {
    status: filter.status,
    pattern: filter.search === undefined ? undefined : likeContains(filter.search),
    tag: filter.tag,
  };
}

export async function listCourses(
  db: Executor,
  tenantId: string,
  filter: CourseFilter,
  sort: CourseSort,
  window: PageWindow,
  learnerId?: string,
): Promise<CourseRecord[]> {
  if (learnerId !== undefined) {
    // A learner's courses: a handful, found through the learner's enrollments, so no prepared statement.
    const rows = await db
      .select(columns)
      .from(courses)
      .where(and(where(tenantId, bindings(filter)), learnerSees(tenantId, learnerId)))
      .orderBy(...ORDER[sort])
      .limit(window.limit)
      .offset(window.offset);
    return rows as CourseRecord[];
  }
  // The default order keeps the statement name it always had; every other order gets its own statement.
  const list = sort === "-createdAt" ? "courses" : `courses_${sort.replace("-", "desc_")}`;
  const rows = await runPageQuery(
    db,
    list,
    tenantId,
    bindings(filter),
    window,
    (p, name) =>
      db
        .select(columns)
        .from(courses)
        .where(where(p.tenantId, p))
        .orderBy(...ORDER[sort])
        .limit(p.limit)
        .offset(p.offset)
        .prepare(name),
    // A term's matches range from none to the whole tenant: each search is planned for its own term.
    { customPlan: ["pattern"] },
  );
  return rows as CourseRecord[];
}

/**
 * Unfiltered and status-filtered totals are the counters the triggers keep (exact). A search or a tag can match
 * any number of courses: those count their matches up to the platform's cap, walking the default order. A
 * learner's list holds the courses they are enrolled in, a handful, and is counted exactly.
 */
export async function countCourses(
  db: Executor,
  tenantId: string,
  filter: CourseFilter,
  learnerId?: string,
): Promise<CappedTotal> {
  if (learnerId !== undefined) {
    const rows = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(courses)
      .where(and(where(tenantId, bindings(filter)), learnerSees(tenantId, learnerId)));
    return exactTotal(rows[0]?.n ?? 0);
  }
  if (filter.search === undefined && filter.tag === undefined) {
    const counter = filter.status === undefined ? "courses" : `courses:status:${filter.status}`;
    return exactTotal(await readCounter(db, tenantId, counter));
  }
  return countCapped(db, courses, where(tenantId, bindings(filter)), ORDER["-createdAt"]);
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

/** The course, locked against concurrent changes of it and of its modules and lessons until the transaction ends. */
export async function lockCourse(
  db: Executor,
  tenantId: string,
  id: string,
  strength: "update" | "no key update" | "share",
): Promise<CourseRecord | undefined> {
  const rows = await db
    .select(columns)
    .from(courses)
    .where(and(eq(courses.tenantId, tenantId), eq(courses.id, id)))
    .for(strength);
  return rows[0] as CourseRecord | undefined;
}

export async function courseExists(db: Executor, tenantId: string, id: string): Promise<boolean> {
  return (await findCourse(db, tenantId, id)) !== undefined;
}

/**
 * Serialises every change to a course's structure (module and lesson positions) on the course row. NO KEY UPDATE
 * does not block the key-share locks foreign keys take, so enrollments keep being written meanwhile. False when
 * the course does not exist.
 */
export async function lockCourseStructure(
  db: Executor,
  tenantId: string,
  courseId: string,
): Promise<boolean> {
  return (await lockCourse(db, tenantId, courseId, "no key update")) !== undefined;
}

/** Whether anyone is still enrolled: every status but `dropped` counts. */
export async function hasCurrentEnrollments(
  db: Executor,
  tenantId: string,
  courseId: string,
): Promise<boolean> {
  const rows = await db
    .select({ one: sql<number>`1` })
    .from(enrollments)
    .where(
      and(
        eq(enrollments.tenantId, tenantId),
        eq(enrollments.courseId, courseId),
        ne(enrollments.status, "dropped"),
      ),
    )
    .limit(1);
  return rows.length > 0;
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
