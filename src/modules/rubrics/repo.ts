import { and, asc, desc, eq, type SQL, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import { readCounter } from "../../db/counters.js";
import { type Bindable, likeContains, runPageQuery } from "../../db/page-query.js";
import { qualified } from "../../db/qualified.js";
import { rubrics, rubricVersions } from "../../db/schema/index.js";
import { type CappedTotal, countCapped, exactTotal } from "../../platform/pagination/capped.js";
import type { PageWindow } from "../../platform/pagination/pagination.js";
import type { CriterionRecord, RubricRecord, RubricScope, RubricSort, RubricStatus } from "./schemas.js";

/** The counter of a rubric's assessments (with any version), and of those with one version. */
export const assessmentCounter = (rubricId: string) =>
  `rubric_assessments:rubric_id:${rubricId.toLowerCase()}`;
export const versionCounter = (rubricId: string, version: number) =>
  `rubric_assessments:rubric_id+rubric_version:${rubricId.toLowerCase()}:${version}`;

const assessments = sql<number>`coalesce((SELECT c.value FROM tenant_counters c
  WHERE c.tenant_id = ${qualified(rubrics.tenantId)}
  AND c.counter = 'rubric_assessments:rubric_id:' || ${qualified(rubrics.id)}::text), 0)::int`;

/** The current version's criteria and points: one primary-key lookup per row. */
const current = (column: "criteria" | "points_possible") =>
  sql.raw(`(SELECT v.${column} FROM rubric_versions v WHERE v.tenant_id = "rubrics"."tenant_id"
    AND v.rubric_id = "rubrics"."id" AND v.version = "rubrics"."version")`);

const columns = {
  id: rubrics.id,
  title: rubrics.title,
  description: rubrics.description,
  scope: rubrics.scope,
  courseId: rubrics.courseId,
  freeFormComments: rubrics.freeFormComments,
  hideScoreTotal: rubrics.hideScoreTotal,
  criteria: sql<CriterionRecord[]>`${current("criteria")}`.as("criteria"),
  pointsPossible: sql<number>`${current("points_possible")}::float8`.as("points_possible"),
  status: rubrics.status,
  inUse: sql<boolean>`${assessments} > 0`.as("in_use"),
  version: rubrics.version,
  assessmentCount: assessments.as("assessment_count"),
  createdAt: rubrics.createdAt,
  updatedAt: rubrics.updatedAt,
};

export interface RubricFilter {
  scope?: RubricScope;
  courseId?: string;
  status?: RubricStatus;
  search?: string;
}

type Bound = { scope?: Bindable; course?: Bindable; status?: Bindable; pattern?: Bindable };

function where(tenantId: Bindable, f: Bound): SQL {
  return and(
    eq(rubrics.tenantId, tenantId),
    f.scope === undefined ? undefined : eq(rubrics.scope, f.scope),
    f.course === undefined ? undefined : eq(rubrics.courseId, f.course),
    f.status === undefined ? undefined : eq(rubrics.status, f.status),
    f.pattern === undefined ? undefined : sql`aula_fold(${rubrics.title}) LIKE aula_fold(${f.pattern})`,
  ) as SQL;
}

function bindings(filter: RubricFilter) {
  return {
    scope: filter.scope,
    course: filter.courseId,
    status: filter.status,
    pattern: filter.search === undefined ? undefined : likeContains(filter.search),
  };
}

/** Every order ends on the id, so equal values page stably. Titles sort ignoring case and accents. */
const ORDER: Record<RubricSort, SQL[]> = {
  createdAt: [asc(rubrics.createdAt), asc(rubrics.id)],
  "-createdAt": [desc(rubrics.createdAt), desc(rubrics.id)],
  title: [sql`aula_fold(${rubrics.title})`, asc(rubrics.title), asc(rubrics.id)],
  "-title": [sql`aula_fold(${rubrics.title}) DESC`, desc(rubrics.title), desc(rubrics.id)],
};

export async function listRubrics(
  db: Executor,
  tenantId: string,
  filter: RubricFilter,
  sort: RubricSort,
  window: PageWindow,
): Promise<RubricRecord[]> {
  const rows = await runPageQuery(
    db,
    `rubrics_${sort.replace("-", "d_")}`,
    tenantId,
    bindings(filter),
    window,
    (p, name) =>
      db
        .select(columns)
        .from(rubrics)
        .where(where(p.tenantId, p))
        .orderBy(...ORDER[sort])
        .limit(p.limit)
        .offset(p.offset)
        .prepare(name),
    // A search is planned for its own term: the trigram index's few matches, or the order for a common one.
    { customPlan: ["pattern"] },
  );
  return rows as RubricRecord[];
}

/**
 * No filter, or `status` or `scope` alone: the counters the triggers keep (exact). A course, a search or a
 * combination counts its matches up to the platform's cap, newest first.
 */
export async function countRubrics(
  db: Executor,
  tenantId: string,
  filter: RubricFilter,
): Promise<CappedTotal> {
  const { status, scope, courseId, search } = filter;
  if (courseId === undefined && search === undefined && (status === undefined || scope === undefined)) {
    const name =
      status !== undefined
        ? `rubrics:status:${status}`
        : scope !== undefined
          ? `rubrics:scope:${scope}`
          : "rubrics";
    return exactTotal(await readCounter(db, tenantId, name));
  }
  return countCapped(db, rubrics, where(tenantId, bindings(filter)), ORDER["-createdAt"]);
}

export async function findRubric(
  db: Executor,
  tenantId: string,
  id: string,
  lock?: "update" | "share",
): Promise<RubricRecord | undefined> {
  const query = db
    .select(columns)
    .from(rubrics)
    .where(and(eq(rubrics.tenantId, tenantId), eq(rubrics.id, id)));
  const rows = lock === undefined ? await query : await query.for(lock, { of: rubrics });
  return rows[0] as RubricRecord | undefined;
}

export interface RubricRow {
  title: string;
  description: string | null;
  scope: RubricScope;
  courseId: string | null;
  freeFormComments: boolean;
  hideScoreTotal: boolean;
  status: RubricStatus;
}

export async function insertRubric(db: Executor, tenantId: string, row: RubricRow): Promise<string> {
  const rows = await db
    .insert(rubrics)
    .values({ tenantId, ...row })
    .returning({ id: rubrics.id });
  return (rows[0] as { id: string }).id;
}

export async function updateRubric(
  db: Executor,
  tenantId: string,
  id: string,
  changes: Partial<RubricRow> & { version?: number },
): Promise<void> {
  await db
    .update(rubrics)
    .set({ ...changes, updatedAt: sql`now()` })
    .where(and(eq(rubrics.tenantId, tenantId), eq(rubrics.id, id)));
}

/** Writes a version's criteria: a new version, or the current one again while it has no assessment. */
export async function saveVersion(
  db: Executor,
  tenantId: string,
  rubricId: string,
  version: number,
  criteria: CriterionRecord[],
  pointsPossible: number,
): Promise<void> {
  await db
    .insert(rubricVersions)
    .values({ tenantId, rubricId, version, criteria, pointsPossible })
    .onConflictDoUpdate({
      target: [rubricVersions.tenantId, rubricVersions.rubricId, rubricVersions.version],
      set: { criteria, pointsPossible, createdAt: sql`now()` },
    });
}

export async function findVersion(db: Executor, tenantId: string, rubricId: string, version: number) {
  const rows = await db
    .select({ criteria: rubricVersions.criteria, pointsPossible: rubricVersions.pointsPossible })
    .from(rubricVersions)
    .where(
      and(
        eq(rubricVersions.tenantId, tenantId),
        eq(rubricVersions.rubricId, rubricId),
        eq(rubricVersions.version, version),
      ),
    );
  return rows[0] as { criteria: CriterionRecord[]; pointsPossible: number } | undefined;
}

export async function deleteRubric(db: Executor, tenantId: string, id: string): Promise<void> {
  await db.delete(rubrics).where(and(eq(rubrics.tenantId, tenantId), eq(rubrics.id, id)));
}

export const versionInUse = async (db: Executor, tenantId: string, id: string, version: number) =>
  (await readCounter(db, tenantId, versionCounter(id, version))) > 0;
