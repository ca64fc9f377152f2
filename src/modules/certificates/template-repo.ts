import { and, desc, eq, inArray, type SQL, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import { readCounter } from "../../db/counters.js";
import { type Bindable, runPageQuery } from "../../db/page-query.js";
import { qualified } from "../../db/qualified.js";
import {
  certificateTemplateCourses,
  certificateTemplatePaths,
  certificateTemplates,
  learningPaths,
} from "../../db/schema/index.js";
import { type CappedTotal, exactTotal } from "../../platform/pagination/capped.js";
import type { PageWindow } from "../../platform/pagination/pagination.js";
import type { Layout } from "./layout.js";
import type { TemplateRecord, TemplateStatus } from "./template-schemas.js";

/** A template's courses, at most MAX_TEMPLATE_COURSES, through certificate_template_courses_template_idx. */
const courseIds = sql<string[]>`coalesce((SELECT jsonb_agg(l.course_id ORDER BY l.course_id)
  FROM ${certificateTemplateCourses} l WHERE l.tenant_id = ${qualified(certificateTemplates.tenantId)}
    AND l.template_id = ${qualified(certificateTemplates.id)}), '[]'::jsonb)`;

/** A template's learning paths, at most MAX_TEMPLATE_COURSES, through certificate_template_paths_template_idx. */
const learningPathIds = sql<
  string[]
>`coalesce((SELECT jsonb_agg(l.learning_path_id ORDER BY l.learning_path_id)
  FROM ${certificateTemplatePaths} l WHERE l.tenant_id = ${qualified(certificateTemplates.tenantId)}
    AND l.template_id = ${qualified(certificateTemplates.id)}), '[]'::jsonb)`;

const columns = {
  id: certificateTemplates.id,
  name: certificateTemplates.name,
  layout: certificateTemplates.layout,
  orientation: certificateTemplates.orientation,
  backgroundMediaId: certificateTemplates.backgroundMediaId,
  signatureMediaId: certificateTemplates.signatureMediaId,
  expiresAfterDays: certificateTemplates.expiresAfterDays,
  status: certificateTemplates.status,
  courseIds,
  learningPathIds,
  createdAt: certificateTemplates.createdAt,
  updatedAt: certificateTemplates.updatedAt,
};

function where(tenantId: Bindable, status: Bindable | undefined): SQL {
  return and(
    eq(certificateTemplates.tenantId, tenantId),
    status === undefined ? undefined : eq(certificateTemplates.status, status),
  ) as SQL;
}

/** Newest first, through certificate_templates_tenant_(status_)created_idx. */
export async function listTemplates(
  db: Executor,
  tenantId: string,
  status: TemplateStatus | undefined,
  window: PageWindow,
): Promise<TemplateRecord[]> {
  const rows = await runPageQuery(db, "certificate_templates", tenantId, { status }, window, (p, name) =>
    db
      .select(columns)
      .from(certificateTemplates)
      .where(where(p.tenantId, p.status))
      .orderBy(desc(certificateTemplates.createdAt), desc(certificateTemplates.id))
      .limit(p.limit)
      .offset(p.offset)
      .prepare(name),
  );
  return rows as TemplateRecord[];
}

/** Exact: the counters the triggers keep (migration 0051). */
export async function countTemplates(
  db: Executor,
  tenantId: string,
  status: TemplateStatus | undefined,
): Promise<CappedTotal> {
  const counter = status === undefined ? "certificate_templates" : `certificate_templates:status:${status}`;
  return exactTotal(await readCounter(db, tenantId, counter));
}

export async function findTemplate(
  db: Executor,
  tenantId: string,
  id: string,
  lock?: "no key update" | "share",
): Promise<TemplateRecord | undefined> {
  const query = db
    .select(columns)
    .from(certificateTemplates)
    .where(and(eq(certificateTemplates.tenantId, tenantId), eq(certificateTemplates.id, id)));
  const rows = lock === undefined ? await query : await query.for(lock);
  return rows[0] as TemplateRecord | undefined;
}

export interface TemplateRow {
  name: string;
  layout: Layout;
  orientation: string;
  backgroundMediaId: string | null;
  signatureMediaId: string | null;
  expiresAfterDays: number | null;
  status: string;
}

export async function insertTemplate(db: Executor, tenantId: string, row: TemplateRow): Promise<string> {
  const rows = await db
    .insert(certificateTemplates)
    .values({ tenantId, ...row })
    .returning({ id: certificateTemplates.id });
  return (rows[0] as { id: string }).id;
}

export async function updateTemplate(
  db: Executor,
  tenantId: string,
  id: string,
  changes: Partial<TemplateRow>,
): Promise<void> {
  await db
    .update(certificateTemplates)
    .set({ ...changes, updatedAt: sql`now()` })
    .where(and(eq(certificateTemplates.tenantId, tenantId), eq(certificateTemplates.id, id)));
}

/** Which of these course ids exist in the tenant. */
/**
 * Makes `courseIds` the template's courses. A course another template names keeps its link (the primary key on
 * the course refuses the insert): answers false, and the caller's transaction is rolled back with a 409.
 */
export async function replaceCourses(
  db: Executor,
  tenantId: string,
  templateId: string,
  ids: readonly string[],
): Promise<boolean> {
  await db
    .delete(certificateTemplateCourses)
    .where(
      and(
        eq(certificateTemplateCourses.tenantId, tenantId),
        eq(certificateTemplateCourses.templateId, templateId),
      ),
    );
  if (ids.length === 0) return true;
  const inserted = await db
    .insert(certificateTemplateCourses)
    .values(ids.map((courseId) => ({ tenantId, courseId, templateId })))
    .onConflictDoNothing()
    .returning({ courseId: certificateTemplateCourses.courseId });
  return inserted.length === ids.length;
}

/** Makes `ids` the template's learning paths; false when another template names one of them (as for courses). */
export async function replacePaths(
  db: Executor,
  tenantId: string,
  templateId: string,
  ids: readonly string[],
): Promise<boolean> {
  await db
    .delete(certificateTemplatePaths)
    .where(
      and(
        eq(certificateTemplatePaths.tenantId, tenantId),
        eq(certificateTemplatePaths.templateId, templateId),
      ),
    );
  if (ids.length === 0) return true;
  const inserted = await db
    .insert(certificateTemplatePaths)
    .values(ids.map((learningPathId) => ({ tenantId, learningPathId, templateId })))
    .onConflictDoNothing()
    .returning({ id: certificateTemplatePaths.learningPathId });
  return inserted.length === ids.length;
}

/** Which of these learning path ids exist in the tenant. */
export async function existingPaths(
  db: Executor,
  tenantId: string,
  ids: readonly string[],
): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .select({ id: learningPaths.id })
    .from(learningPaths)
    .where(and(eq(learningPaths.tenantId, tenantId), inArray(learningPaths.id, [...ids])))
    .for("share");
  return new Set(rows.map((r) => r.id));
}
