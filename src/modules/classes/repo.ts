import { and, asc, desc, eq, inArray, type SQL, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import { readCounter } from "../../db/counters.js";
import { type Bindable, likeContains, runPageQuery } from "../../db/page-query.js";
import { qualified } from "../../db/qualified.js";
import { classGroupCourses, classGroups, courses, tenantCounters } from "../../db/schema/index.js";
import { type CappedTotal, countCapped, exactTotal } from "../../platform/pagination/capped.js";
import type { PageWindow } from "../../platform/pagination/pagination.js";
import type {
  ClassGroupRecord,
  ClassSort,
  ClassStatus,
  CreateClassInput,
  UpdateClassInput,
} from "./schemas.js";

/** The member count the triggers keep per class, read with the row instead of counting members. */
export const memberCount = sql<number>`coalesce((
  SELECT c.value FROM ${tenantCounters} c
  WHERE c.tenant_id = ${qualified(classGroups.tenantId)}
    AND c.counter = 'class_group_members:class_group_id:' || ${qualified(classGroups.id)}::text
), 0)::int`;

const columns = {
  id: classGroups.id,
  name: classGroups.name,
  code: classGroups.code,
  description: classGroups.description,
  status: classGroups.status,
  capacity: classGroups.capacity,
  courseIds: classGroups.courseIds,
  startsAt: classGroups.startsAt,
  endsAt: classGroups.endsAt,
  memberCount,
  createdAt: classGroups.createdAt,
  updatedAt: classGroups.updatedAt,
};

const searchable = sql`aula_fold(${classGroups.name} || ' ' || coalesce(${classGroups.code}, ''))`;

/** Every sort breaks ties by id, so pages never repeat or skip a row. */
const ORDER: Record<ClassSort, SQL[]> = {
  "-createdAt": [desc(classGroups.createdAt), desc(classGroups.id)],
  createdAt: [asc(classGroups.createdAt), asc(classGroups.id)],
  name: [sql`aula_fold(${classGroups.name}) ASC`, asc(classGroups.id)],
  "-name": [sql`aula_fold(${classGroups.name}) DESC`, desc(classGroups.id)],
};

/** The list's orders on a course's rows, which carry their class's name and creation time. */
const COURSE_ORDER: Record<ClassSort, SQL[]> = {
  "-createdAt": [desc(classGroupCourses.createdAt), desc(classGroupCourses.classGroupId)],
  createdAt: [asc(classGroupCourses.createdAt), asc(classGroupCourses.classGroupId)],
  name: [sql`aula_fold(${classGroupCourses.name}) ASC`, asc(classGroupCourses.classGroupId)],
  "-name": [sql`aula_fold(${classGroupCourses.name}) DESC`, desc(classGroupCourses.classGroupId)],
};

export const sortTag = (sort: string) => (sort.startsWith("-") ? `${sort.slice(1)}_desc` : `${sort}_asc`);

export interface ClassFilter {
  status?: ClassStatus;
  search?: string;
  courseId?: string;
}

function where(
  tenantId: Bindable,
  filter: { status?: Bindable; pattern?: Bindable; courseId?: Bindable },
): SQL {
  return and(
    eq(classGroups.tenantId, tenantId),
    filter.status === undefined ? undefined : eq(classGroups.status, filter.status),
    filter.pattern === undefined ? undefined : sql`${searchable} LIKE aula_fold(${filter.pattern})`,
    // Containment, not `= ANY(course_ids)`: class_groups_course_ids_idx (GIN) answers only the operator.
    filter.courseId === undefined
      ? undefined
      : sql`${classGroups.courseIds} @> ARRAY[${filter.courseId}::uuid]`,
  ) as SQL;
}

function bindings(filter: ClassFilter) {
  return {
    status: filter.status,
    pattern: filter.search === undefined ? undefined : likeContains(filter.search),
    courseId: filter.courseId,
  };
}

export async function listClasses(
  db: Executor,
  tenantId: string,
  filter: ClassFilter,
  sort: ClassSort,
  window: PageWindow,
): Promise<ClassGroupRecord[]> {
  const list = `class_groups_${sortTag(sort)}`;
  const rows = await runPageQuery(
    db,
    list,
    tenantId,
    bindings(filter),
    window,
    (p, name) => {
      const { courseId, ...rest } = p;
      if (courseId === undefined) {
        return db
          .select(columns)
          .from(classGroups)
          .where(where(p.tenantId, rest))
          .orderBy(...ORDER[sort])
          .limit(p.limit)
          .offset(p.offset)
          .prepare(name);
      }
      // A course walks its own rows in list order (class_group_courses, migration 0049) and joins each to its
      // class: the page reads what it returns, whether ten classes follow the course or all of them.
      return db
        .select(columns)
        .from(classGroupCourses)
        .innerJoin(
          classGroups,
          and(
            eq(classGroups.tenantId, classGroupCourses.tenantId),
            eq(classGroups.id, classGroupCourses.classGroupId),
          ),
        )
        .where(
          and(
            eq(classGroupCourses.tenantId, p.tenantId),
            eq(classGroupCourses.courseId, courseId),
            where(p.tenantId, rest),
          ),
        )
        .orderBy(...COURSE_ORDER[sort])
        .limit(p.limit)
        .offset(p.offset)
        .prepare(name);
    },
    // A search's generic plan would walk the tenant in list order, filtering every row, for a rare term: each
    // search is planned for its own term (the trigram index's few matches, or the order for a common one).
    { customPlan: ["pattern"] },
  );
  return rows as ClassGroupRecord[];
}

/**
 * Unfiltered and status-filtered totals come exactly from the counters; a search or a course counts its own
 * matches up to the platform's cap, walking the default order (`countCapped`).
 */
export async function countClasses(
  db: Executor,
  tenantId: string,
  filter: ClassFilter,
): Promise<CappedTotal> {
  if (filter.search === undefined && filter.courseId === undefined) {
    const counter = filter.status === undefined ? "class_groups" : `class_groups:status:${filter.status}`;
    return exactTotal(await readCounter(db, tenantId, counter));
  }
  if (filter.search === undefined && filter.status === undefined && filter.courseId !== undefined) {
    const counter = `class_group_courses:course_id:${filter.courseId.toLowerCase()}`;
    return exactTotal(await readCounter(db, tenantId, counter));
  }
  return countCapped(db, classGroups, where(tenantId, bindings(filter)), ORDER["-createdAt"]);
}

export async function findClass(
  db: Executor,
  tenantId: string,
  id: string,
  lock = false,
): Promise<ClassGroupRecord | undefined> {
  const query = db
    .select(columns)
    .from(classGroups)
    .where(and(eq(classGroups.tenantId, tenantId), eq(classGroups.id, id)));
  const rows = lock ? await query.for("update", { of: classGroups }) : await query;
  return rows[0] as ClassGroupRecord | undefined;
}

export async function missingCourses(
  db: Executor,
  tenantId: string,
  ids: readonly string[],
): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select({ id: courses.id })
    .from(courses)
    .where(and(eq(courses.tenantId, tenantId), inArray(courses.id, [...ids])));
  const found = new Set(rows.map((r) => r.id));
  return ids.filter((id) => !found.has(id));
}

export async function insertClass(db: Executor, tenantId: string, input: CreateClassInput): Promise<string> {
  const rows = await db
    .insert(classGroups)
    .values({
      tenantId,
      name: input.name,
      code: input.code ?? null,
      description: input.description ?? null,
      capacity: input.capacity ?? null,
      courseIds: input.courseIds ?? [],
      startsAt: input.startsAt ?? null,
      endsAt: input.endsAt ?? null,
      status: input.status ?? "active",
    })
    .returning({ id: classGroups.id });
  return (rows[0] as { id: string }).id;
}

export async function updateClass(
  db: Executor,
  tenantId: string,
  id: string,
  input: UpdateClassInput,
): Promise<void> {
  await db
    .update(classGroups)
    .set({ ...input, updatedAt: sql`now()` })
    .where(and(eq(classGroups.tenantId, tenantId), eq(classGroups.id, id)));
}

/** Memberships go with the class (foreign key cascade); enrollments keep their row with no class. */
export async function deleteClass(db: Executor, tenantId: string, id: string): Promise<boolean> {
  const rows = await db
    .delete(classGroups)
    .where(and(eq(classGroups.tenantId, tenantId), eq(classGroups.id, id)))
    .returning({ id: classGroups.id });
  return rows.length > 0;
}
