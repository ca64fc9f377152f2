import { sql } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import { readCounter } from "../../db/counters.js";
import { isUniqueViolation } from "../../db/errors.js";
import { queryRows } from "../../db/rows.js";
import { AppError } from "../../platform/errors/app-error.js";
import { exactTotal } from "../../platform/pagination/capped.js";
import type { PageWindow } from "../../platform/pagination/pagination.js";
import type { ListPromptsQueryType, ModelParamsType, PromptRecord } from "./schemas.js";
import type { VariableDecl } from "./template.js";

const iso = (column: string) =>
  sql.raw(`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`);

/** A prompt with its current version's content: one primary-key join per row. */
const SELECT = sql`SELECT p.id, p.key, p.name, p.feature, v.template, v.variables, v.model_params AS "modelParams",
  p.status, p.scope, p.course_id AS "courseId", p.version, ${iso("p.created_at")} AS "createdAt",
  ${iso("p.updated_at")} AS "updatedAt"
  FROM prompts p JOIN prompt_versions v
    ON v.tenant_id = p.tenant_id AND v.prompt_id = p.id AND v.version = p.version`;

export interface Content {
  template: string;
  variables: Required<VariableDecl>[];
  modelParams: ModelParamsType;
}

/** A race for the same key, or for the one active prompt of a feature and scope, is a 409 naming which. */
export async function mapConflicts<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (isUniqueViolation(err, "prompts_key_key"))
      throw new AppError("conflict", { messageKey: "conflict.prompt_key_taken" });
    if (isUniqueViolation(err, "prompts_active_key"))
      throw new AppError("conflict", { messageKey: "conflict.prompt_active_taken" });
    throw err;
  }
}

export async function findPrompt(db: Executor, tenantId: string, id: string, lock = false) {
  const [row] = await queryRows<PromptRecord>(
    db,
    sql`${SELECT} WHERE p.tenant_id = ${tenantId} AND p.id = ${id} ${lock ? sql`FOR UPDATE OF p` : sql``}`,
  );
  return row;
}

export async function insertPrompt(
  db: Executor,
  tenantId: string,
  row: { id: string; key: string; name: string; feature: string; status: string; courseId: string | null },
  content: Content,
) {
  await db.execute(sql`INSERT INTO prompts (tenant_id, id, key, name, feature, scope, course_id, status)
    VALUES (${tenantId}, ${row.id}, ${row.key}, ${row.name}, ${row.feature},
      ${row.courseId === null ? "institution" : "course"}, ${row.courseId}, ${row.status})`);
  await insertVersion(db, tenantId, row.id, 1, content);
}

export async function insertVersion(db: Executor, tenantId: string, id: string, version: number, c: Content) {
  await db.execute(sql`INSERT INTO prompt_versions (tenant_id, prompt_id, version, template, variables, model_params)
    VALUES (${tenantId}, ${id}, ${version}, ${c.template}, ${JSON.stringify(c.variables)}::jsonb,
      ${JSON.stringify(c.modelParams)}::jsonb)`);
}

export async function updatePrompt(
  db: Executor,
  tenantId: string,
  id: string,
  changes: { name?: string; status?: string; version?: number },
) {
  await db.execute(sql`UPDATE prompts SET name = coalesce(${changes.name ?? null}, name),
    status = coalesce(${changes.status ?? null}, status), version = coalesce(${changes.version ?? null}::int, version),
    updated_at = now() WHERE tenant_id = ${tenantId} AND id = ${id}`);
}

export async function findVersion(db: Executor, tenantId: string, id: string, version: number) {
  const [row] = await queryRows<Content>(
    db,
    sql`SELECT template, variables, model_params AS "modelParams" FROM prompt_versions
      WHERE tenant_id = ${tenantId} AND prompt_id = ${id} AND version = ${version}`,
  );
  return row;
}

/**
 * The prompts' total from the counters migration 0066's triggers keep: all, per feature, per status, or per both
 * (`prompts:feature+status:<feature>:<status>`).
 */
function promptsCounter(q: ListPromptsQueryType): string {
  if (q.feature !== undefined && q.status !== undefined)
    return `prompts:feature+status:${q.feature}:${q.status}`;
  if (q.feature !== undefined) return `prompts:feature:${q.feature}`;
  if (q.status !== undefined) return `prompts:status:${q.status}`;
  return "prompts";
}

export async function listPrompts(db: Executor, tenantId: string, q: ListPromptsQueryType, w: PageWindow) {
  const where = sql`p.tenant_id = ${tenantId}
    ${q.feature === undefined ? sql`` : sql`AND p.feature = ${q.feature}`}
    ${q.status === undefined ? sql`` : sql`AND p.status = ${q.status}`}`;
  const [rows, total] = await Promise.all([
    queryRows<PromptRecord>(
      db,
      sql`${SELECT} WHERE ${where} ORDER BY p.created_at DESC, p.id DESC LIMIT ${w.limit} OFFSET ${w.offset}`,
    ),
    readCounter(db, tenantId, promptsCounter(q)).then(exactTotal),
  ]);
  return { rows, total };
}

export async function listVersions(db: Executor, tenantId: string, id: string, w: PageWindow) {
  const [rows, total] = await Promise.all([
    queryRows<Content & { version: number; createdAt: string }>(
      db,
      sql`SELECT version, template, variables, model_params AS "modelParams", ${iso("created_at")} AS "createdAt"
        FROM prompt_versions WHERE tenant_id = ${tenantId} AND prompt_id = ${id}
        ORDER BY version DESC LIMIT ${w.limit} OFFSET ${w.offset}`,
    ),
    readCounter(db, tenantId, `prompt_versions:prompt_id:${id.toLowerCase()}`).then(exactTotal),
  ]);
  return { rows, total };
}

export async function courseExists(db: Executor, tenantId: string, courseId: string): Promise<boolean> {
  const rows = await queryRows(
    db,
    sql`SELECT 1 FROM courses WHERE tenant_id = ${tenantId} AND id = ${courseId}`,
  );
  return rows.length > 0;
}
