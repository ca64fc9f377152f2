import { and, asc, desc, eq, inArray, type SQL, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import { readCounter } from "../../db/counters.js";
import { type Bindable, likeContains, runPageQuery } from "../../db/page-query.js";
import { qualified } from "../../db/qualified.js";
import {
  learningPathCourses,
  learningPathEnrollments,
  learningPaths,
  tenantCounters,
} from "../../db/schema/index.js";
import { type CappedTotal, countCapped, exactTotal } from "../../platform/pagination/capped.js";
import type { PageWindow } from "../../platform/pagination/pagination.js";
import type { PathSort, PathStatus } from "./schemas.js";
import type { PathCourseRow } from "./validate.js";

/** A path as stored, without its courses. */
export interface PathRow {
  id: string;
  title: string;
  description: string | null;
  sequential: boolean;
  status: PathStatus;
  requiredCount: number;
  createdAt: string;
  updatedAt: string;
}

const columns = {
  id: learningPaths.id,
  title: learningPaths.title,
  description: learningPaths.description,
  sequential: learningPaths.sequential,
  status: learningPaths.status,
  requiredCount: learningPaths.requiredCount,
  createdAt: learningPaths.createdAt,
  updatedAt: learningPaths.updatedAt,
};

const searchable = sql`aula_fold(${learningPaths.title} || ' ' || coalesce(${learningPaths.description}, ''))`;

/** Every order ends on the id, so equal values page stably; titles sort ignoring case and accents. */
const ORDER: Record<PathSort, SQL[]> = {
  createdAt: [asc(learningPaths.createdAt), asc(learningPaths.id)],
  "-createdAt": [desc(learningPaths.createdAt), desc(learningPaths.id)],
  title: [sql`aula_fold(${learningPaths.title})`, asc(learningPaths.title), asc(learningPaths.id)],
  "-title": [sql`aula_fold(${learningPaths.title}) DESC`, desc(learningPaths.title), desc(learningPaths.id)],
};

export interface PathFilter {
  search?: string;
  status?: PathStatus;
}

function where(tenantId: Bindable, f: { status?: Bindable; pattern?: Bindable }): SQL {
  return and(
    eq(learningPaths.tenantId, tenantId),
    f.status === undefined ? undefined : eq(learningPaths.status, f.status),
    f.pattern === undefined ? undefined : sql`${searchable} LIKE aula_fold(${f.pattern})`,
  ) as SQL;
}

const bindings = (f: PathFilter) => ({
  status: f.status,
  pattern: f.search === undefined ? undefined : likeContains(f.search),
});

/** The published paths a learner is enrolled in: a handful, found through the learner's path enrollments. */
const learnerSees = (tenantId: string, userId: string) =>
  sql`${learningPaths.status} = 'published' AND ${qualified(learningPaths.id)} IN (
    SELECT pe.path_id FROM ${learningPathEnrollments} pe WHERE pe.tenant_id = ${tenantId} AND pe.user_id = ${userId})`;

export async function listPaths(
  db: Executor,
  tenantId: string,
  filter: PathFilter,
  sort: PathSort,
  window: PageWindow,
  learnerId?: string,
): Promise<PathRow[]> {
  if (learnerId !== undefined) {
    const rows = await db
      .select(columns)
      .from(learningPaths)
      .where(and(where(tenantId, bindings(filter)), learnerSees(tenantId, learnerId)))
      .orderBy(...ORDER[sort])
      .limit(window.limit)
      .offset(window.offset);
    return rows as PathRow[];
  }
  const list = sort === "-createdAt" ? "learning_paths" : `learning_paths_${sort.replace("-", "desc_")}`;
  const rows = await runPageQuery(
    db,
    list,
    tenantId,
    bindings(filter),
    window,
    (p, name) =>
      db
        .select(columns)
        .from(learningPaths)
        .where(where(p.tenantId, p))
        .orderBy(...ORDER[sort])
        .limit(p.limit)
        .offset(p.offset)
        .prepare(name),
    { customPlan: ["pattern"] },
  );
  return rows as PathRow[];
}

/** Unfiltered and status totals are counters; a search counts its matches up to the cap; a learner's, exactly. */
export async function countPaths(
  db: Executor,
  tenantId: string,
  filter: PathFilter,
  learnerId?: string,
): Promise<CappedTotal> {
  if (learnerId !== undefined) {
    const rows = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(learningPaths)
      .where(and(where(tenantId, bindings(filter)), learnerSees(tenantId, learnerId)));
    return exactTotal(rows[0]?.n ?? 0);
  }
  if (filter.search === undefined) {
    const counter = filter.status === undefined ? "learning_paths" : `learning_paths:status:${filter.status}`;
    return exactTotal(await readCounter(db, tenantId, counter));
  }
  return countCapped(db, learningPaths, where(tenantId, bindings(filter)), ORDER["-createdAt"]);
}

export async function findPath(
  db: Executor,
  tenantId: string,
  id: string,
  lock?: "update" | "no key update" | "share",
): Promise<PathRow | undefined> {
  const query = db
    .select(columns)
    .from(learningPaths)
    .where(and(eq(learningPaths.tenantId, tenantId), eq(learningPaths.id, id)));
  const rows = await (lock === undefined ? query : query.for(lock));
  return rows[0] as PathRow | undefined;
}

/** The courses of these paths, each path's in position order: one statement through the primary key. */
export async function coursesOf(
  db: Executor,
  tenantId: string,
  pathIds: readonly string[],
): Promise<Map<string, PathCourseRow[]>> {
  const out = new Map<string, PathCourseRow[]>(pathIds.map((id) => [id, []]));
  if (pathIds.length === 0) return out;
  const rows = await db
    .select({
      pathId: learningPathCourses.pathId,
      courseId: learningPathCourses.courseId,
      position: learningPathCourses.position,
      required: learningPathCourses.required,
      prerequisites: learningPathCourses.prerequisites,
    })
    .from(learningPathCourses)
    .where(
      and(eq(learningPathCourses.tenantId, tenantId), inArray(learningPathCourses.pathId, [...pathIds])),
    );
  // Ordered here rather than by the statement: at most 50 a path, and the primary key gives them by course id.
  for (const { pathId, ...row } of rows) out.get(pathId)?.push(row);
  for (const list of out.values()) list.sort((a, b) => a.position - b.position);
  return out;
}

/** Each path's enrolled users, from the counters the triggers keep: one statement for the page. */
export async function enrolledCounts(
  db: Executor,
  tenantId: string,
  pathIds: readonly string[],
): Promise<Map<string, number>> {
  const names = pathIds.map((id) => `learning_path_enrollments:path_id:${id.toLowerCase()}`);
  const out = new Map<string, number>();
  if (names.length === 0) return out;
  const rows = await db
    .select({ counter: tenantCounters.counter, value: tenantCounters.value })
    .from(tenantCounters)
    .where(and(eq(tenantCounters.tenantId, tenantId), inArray(tenantCounters.counter, names)));
  for (const row of rows) out.set(row.counter.slice(row.counter.lastIndexOf(":") + 1), Number(row.value));
  return out;
}

export async function insertPath(
  db: Executor,
  tenantId: string,
  input: { title: string; description: string | null; sequential: boolean; status: PathStatus },
  requiredCount: number,
): Promise<PathRow> {
  const rows = await db
    .insert(learningPaths)
    .values({ tenantId, ...input, requiredCount })
    .returning(columns);
  return rows[0] as PathRow;
}

export async function updatePath(
  db: Executor,
  tenantId: string,
  id: string,
  change: Partial<Pick<PathRow, "title" | "description" | "sequential" | "status" | "requiredCount">>,
): Promise<PathRow> {
  const rows = await db
    .update(learningPaths)
    .set({ ...change, updatedAt: sql`now()` })
    .where(and(eq(learningPaths.tenantId, tenantId), eq(learningPaths.id, id)))
    .returning(columns);
  return rows[0] as PathRow;
}

/** Replaces the path's courses by `rows` (two statements whatever their number, at most 50). */
export async function replaceCourses(
  db: Executor,
  tenantId: string,
  pathId: string,
  rows: readonly PathCourseRow[],
): Promise<void> {
  await db
    .delete(learningPathCourses)
    .where(and(eq(learningPathCourses.tenantId, tenantId), eq(learningPathCourses.pathId, pathId)));
  await db.insert(learningPathCourses).values(rows.map((r) => ({ tenantId, pathId, ...r })));
}

export async function hasEnrollments(db: Executor, tenantId: string, pathId: string): Promise<boolean> {
  const rows = await db
    .select({ one: sql<number>`1` })
    .from(learningPathEnrollments)
    .where(and(eq(learningPathEnrollments.tenantId, tenantId), eq(learningPathEnrollments.pathId, pathId)))
    .limit(1);
  return rows.length > 0;
}

export async function deletePath(db: Executor, tenantId: string, id: string): Promise<void> {
  await db.delete(learningPaths).where(and(eq(learningPaths.tenantId, tenantId), eq(learningPaths.id, id)));
}
