import { randomUUID } from "node:crypto";
import { and, asc, desc, eq, inArray, type SQL, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import { parentValueCounter, readCounter } from "../../db/counters.js";
import { orderedSiblings } from "../../db/ordered-siblings.js";
import { type Bindable, runPageQuery } from "../../db/page-query.js";
import { qualified } from "../../db/qualified.js";
import { courseModules, lessons } from "../../db/schema/index.js";
import { type CappedTotal, exactTotal } from "../../platform/pagination/capped.js";
import type { PageWindow } from "../../platform/pagination/pagination.js";
import type { ModuleRecord, ModuleSort } from "./schemas.js";

const columns = {
  id: courseModules.id,
  courseId: courseModules.courseId,
  title: courseModules.title,
  description: courseModules.description,
  position: courseModules.position,
  status: courseModules.status,
  unlockAt: courseModules.unlockAt,
  prerequisiteModuleIds: courseModules.prerequisiteModuleIds,
  completionRequirement: courseModules.completionRequirement,
  sequential: courseModules.sequential,
  // The trigger-kept counter: one primary-key lookup per row instead of counting the module's lessons.
  lessonCount: sql<number>`coalesce((SELECT c.value FROM tenant_counters c WHERE c.tenant_id = ${qualified(courseModules.tenantId)}
    AND c.counter = 'lessons:module_id:' || ${qualified(courseModules.id)}), 0)::int`,
  createdAt: courseModules.createdAt,
  updatedAt: courseModules.updatedAt,
};

const ORDER: Record<ModuleSort, SQL[]> = {
  position: [asc(courseModules.position), asc(courseModules.id)],
  "-position": [desc(courseModules.position), desc(courseModules.id)],
  title: [sql`aula_fold(${courseModules.title})`, asc(courseModules.title), asc(courseModules.id)],
  "-title": [sql`aula_fold(${courseModules.title}) DESC`, desc(courseModules.title), desc(courseModules.id)],
  createdAt: [asc(courseModules.createdAt), asc(courseModules.id)],
  "-createdAt": [desc(courseModules.createdAt), desc(courseModules.id)],
};

function where(tenantId: Bindable, courseId: Bindable, status: Bindable | undefined): SQL {
  return and(
    eq(courseModules.tenantId, tenantId),
    eq(courseModules.courseId, courseId),
    status === undefined ? undefined : eq(courseModules.status, status),
  ) as SQL;
}

export async function listModules(
  db: Executor,
  tenantId: string,
  courseId: string,
  filter: { status?: string },
  sort: ModuleSort,
  window: PageWindow,
): Promise<ModuleRecord[]> {
  const list = `course_modules_${sort.replace("-", "desc_")}`;
  const rows = await runPageQuery(db, list, tenantId, { courseId, ...filter }, window, (p, name) =>
    db
      .select(columns)
      .from(courseModules)
      .where(where(p.tenantId, p.courseId as Bindable, p.status))
      .orderBy(...ORDER[sort])
      .limit(p.limit)
      .offset(p.offset)
      .prepare(name),
  );
  return rows as ModuleRecord[];
}

/**
 * The course's counter when unfiltered (exact); a status filter counts its matches up to the platform's cap, in
 * position order through the course's status index.
 */
export async function countModules(
  db: Executor,
  tenantId: string,
  courseId: string,
  filter: { status?: string },
): Promise<CappedTotal> {
  const counter =
    filter.status === undefined
      ? `course_modules:course_id:${courseId}`
      : parentValueCounter("course_modules", { column: "course_id", id: courseId }, "status", filter.status);
  return exactTotal(await readCounter(db, tenantId, counter));
}

export async function findModule(
  db: Executor,
  tenantId: string,
  id: string,
): Promise<ModuleRecord | undefined> {
  const rows = await db
    .select(columns)
    .from(courseModules)
    .where(and(eq(courseModules.tenantId, tenantId), eq(courseModules.id, id)));
  return rows[0] as ModuleRecord | undefined;
}

/**
 * How many published lessons each of these modules holds (a learner's `lessonCount`; the trigger-kept counter
 * counts drafts too). One indexed, grouped count; a module without any is absent from the map.
 */
export async function publishedLessonCounts(
  db: Executor,
  tenantId: string,
  moduleIds: readonly string[],
): Promise<Map<string, number>> {
  if (moduleIds.length === 0) return new Map();
  const rows = await db
    .select({ moduleId: lessons.moduleId, n: sql<number>`count(*)::int` })
    .from(lessons)
    .where(
      and(
        eq(lessons.tenantId, tenantId),
        inArray(lessons.moduleId, [...moduleIds]),
        eq(lessons.status, "published"),
      ),
    )
    .groupBy(lessons.moduleId);
  return new Map(rows.map((r) => [r.moduleId, r.n]));
}

/** A course's modules in position order (the outline, and the answer to a reorder). */
export async function modulesOfCourse(
  db: Executor,
  tenantId: string,
  courseId: string,
): Promise<ModuleRecord[]> {
  const rows = await db
    .select(columns)
    .from(courseModules)
    .where(and(eq(courseModules.tenantId, tenantId), eq(courseModules.courseId, courseId)))
    .orderBy(asc(courseModules.position), asc(courseModules.id));
  return rows as ModuleRecord[];
}

export interface ModuleLink {
  id: string;
  position: number;
  prerequisiteModuleIds: string[];
}

/** What prerequisite checks need of every module of a course. */
export async function structureOf(db: Executor, tenantId: string, courseId: string): Promise<ModuleLink[]> {
  return db
    .select({
      id: courseModules.id,
      position: courseModules.position,
      prerequisiteModuleIds: courseModules.prerequisiteModuleIds,
    })
    .from(courseModules)
    .where(and(eq(courseModules.tenantId, tenantId), eq(courseModules.courseId, courseId)));
}

const siblings = orderedSiblings({
  table: courseModules,
  tenantId: courseModules.tenantId,
  parentId: courseModules.courseId,
  id: courseModules.id,
  position: courseModules.position,
});

export const countInCourse = siblings.count;
export const shiftPositions = siblings.shift;
export const applyOrder = siblings.applyOrder;

export interface ModuleValues {
  title: string;
  description: string | null;
  position: number;
  status: string;
  unlockAt: string | null;
  prerequisiteModuleIds: string[];
  completionRequirement: string;
  sequential: boolean;
}

export async function insertModule(
  db: Executor,
  tenantId: string,
  courseId: string,
  values: ModuleValues,
): Promise<string> {
  const rows = await db
    .insert(courseModules)
    .values({ tenantId, courseId, ...values })
    .returning({ id: courseModules.id });
  return (rows[0] as { id: string }).id;
}

export async function updateModule(
  db: Executor,
  tenantId: string,
  id: string,
  changes: Partial<ModuleValues>,
): Promise<void> {
  await db
    .update(courseModules)
    .set({ ...changes, updatedAt: sql`now()` })
    .where(and(eq(courseModules.tenantId, tenantId), eq(courseModules.id, id)));
}

/** Deletes a module (its lessons and their completions cascade) and drops it from the others' prerequisites. */
export async function deleteModule(
  db: Executor,
  tenantId: string,
  courseId: string,
  id: string,
): Promise<void> {
  await db.delete(courseModules).where(and(eq(courseModules.tenantId, tenantId), eq(courseModules.id, id)));
  await db
    .update(courseModules)
    .set({
      prerequisiteModuleIds: sql`array_remove(${courseModules.prerequisiteModuleIds}, ${id}::uuid)`,
      updatedAt: sql`now()`,
    })
    .where(
      and(
        eq(courseModules.tenantId, tenantId),
        eq(courseModules.courseId, courseId),
        sql`${id}::uuid = ANY(${courseModules.prerequisiteModuleIds})`,
      ),
    );
}

/**
 * Copies a course's modules into another course in one statement, prerequisites pointing at the copies. Returns
 * the map old module id → new, which the lesson copy needs.
 */
export async function copyModules(
  db: Executor,
  tenantId: string,
  fromCourseId: string,
  toCourseId: string,
): Promise<Map<string, string>> {
  const old = await db
    .select({ id: courseModules.id })
    .from(courseModules)
    .where(and(eq(courseModules.tenantId, tenantId), eq(courseModules.courseId, fromCourseId)));
  const map = new Map(old.map((r) => [r.id, randomUUID()]));
  if (map.size === 0) return map;
  const pairs = JSON.stringify([...map].map(([oldId, newId]) => ({ old_id: oldId, new_id: newId })));
  await db.execute(sql`
    WITH map AS (SELECT * FROM jsonb_to_recordset(${pairs}::jsonb) AS x(old_id uuid, new_id uuid))
    INSERT INTO ${courseModules} (tenant_id, id, course_id, title, description, position, status, unlock_at,
      prerequisite_module_ids, completion_requirement, sequential)
    SELECT m.tenant_id, mm.new_id, ${toCourseId}, m.title, m.description, m.position, m.status, m.unlock_at,
      ARRAY(SELECT p.new_id FROM unnest(m.prerequisite_module_ids) WITH ORDINALITY AS u(id, ord)
            JOIN map p ON p.old_id = u.id ORDER BY u.ord),
      m.completion_requirement, m.sequential
    FROM ${courseModules} m JOIN map mm ON mm.old_id = m.id
    WHERE m.tenant_id = ${tenantId} AND m.course_id = ${fromCourseId}`);
  return map;
}
