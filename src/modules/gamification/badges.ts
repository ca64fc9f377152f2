import { type SQL, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import { readCounter } from "../../db/counters.js";
import { queryRows } from "../../db/rows.js";
import { notFound, validationError } from "../../platform/errors/app-error.js";
import { pageEnvelope, pageWindow } from "../../platform/pagination/pagination.js";
import { assertUsableMedia } from "../media/service.js";
import type { AwardRuleInput, BadgeRecord, CreateBadgeInput, PatchBadgeInput } from "./schemas.js";
import { assertRuleEvent, refreshTriggers } from "./settings.js";

interface BadgeRow {
  id: string;
  name: string;
  description: string;
  image_media_id: string;
  criteria_narrative: string;
  criteria_url: string | null;
  alignment: BadgeRecord["alignment"];
  tags: string[];
  award_rule: AwardRuleInput;
  expires_after_days: number | null;
  status: BadgeRecord["status"];
  awarded_count: number;
  created_at: string;
  updated_at: string;
}

const ISO = (column: string) =>
  sql.raw(`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS ${column}`);
const COLUMNS = sql`id, name, description, image_media_id, criteria_narrative, criteria_url, alignment, tags,
  award_rule, expires_after_days, status, awarded_count, ${ISO("created_at")}, ${ISO("updated_at")}`;

function record(row: BadgeRow): BadgeRecord {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    imageMediaId: row.image_media_id,
    criteriaNarrative: row.criteria_narrative,
    criteriaUrl: row.criteria_url,
    alignment: row.alignment,
    tags: row.tags,
    awardRule: row.award_rule,
    expiresAfterDays: row.expires_after_days,
    status: row.status,
    awardedCount: row.awarded_count,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** The event a rule reacts to (what `trigger_events` and the hook index), after checking what it needs. */
async function triggerOf(tx: Executor, tenantId: string, rule: AwardRuleInput): Promise<string | null> {
  switch (rule.type) {
    case "manual":
      return null;
    case "event":
      if (rule.event === undefined) throw validationError("awardRule.event", "field.required");
      assertRuleEvent(rule.event, "awardRule.event");
      return rule.event;
    case "course_completion": {
      if (rule.courseId === undefined) throw validationError("awardRule.courseId", "field.required");
      const found = await queryRows(
        tx,
        sql`SELECT 1 FROM courses WHERE tenant_id = ${tenantId} AND id = ${rule.courseId}`,
      );
      if (found.length === 0) {
        throw validationError("awardRule.courseId", "field.unknown_course", { id: rule.courseId });
      }
      return "enrollment_completed";
    }
    case "points_threshold":
      if (rule.threshold === undefined) throw validationError("awardRule.threshold", "field.required");
      return null;
  }
}

export async function getBadge(db: Executor, tenantId: string, id: string): Promise<BadgeRecord> {
  const [row] = await queryRows<BadgeRow>(
    db,
    sql`SELECT ${COLUMNS} FROM gamification_badges WHERE tenant_id = ${tenantId} AND id = ${id}`,
  );
  if (row === undefined) throw notFound();
  return record(row);
}

/** Oldest first, through (tenant, created_at, id); the total is counted up to the cap. */
export async function listBadges(
  db: Executor,
  tenantId: string,
  query: { page?: number; perPage?: number; status?: BadgeRecord["status"] },
) {
  const window = pageWindow(query);
  const status = query.status === undefined ? sql`` : sql`AND status = ${query.status}`;
  // Ordered by the table's columns: COLUMNS names its ISO text `created_at`, which would sort every row.
  const rows = await queryRows<BadgeRow>(
    db,
    sql`SELECT ${COLUMNS} FROM gamification_badges WHERE tenant_id = ${tenantId} ${status}
      ORDER BY gamification_badges.created_at, gamification_badges.id
      LIMIT ${window.limit} OFFSET ${window.offset}`,
  );
  // Totals from the counters the triggers of migration 0064 keep: all badges, or those of one status.
  const total = await readCounter(
    db,
    tenantId,
    query.status === undefined ? "gamification_badges" : `gamification_badges:status:${query.status}`,
  );
  return pageEnvelope(rows.map(record), total, window);
}

export async function createBadge(
  db: Executor,
  tenantId: string,
  input: CreateBadgeInput,
): Promise<BadgeRecord> {
  return db.transaction(async (tx) => {
    await assertUsableMedia(tx, tenantId, input.imageMediaId, "imageMediaId", "image");
    const rule = input.awardRule ?? { type: "manual" };
    const trigger = await triggerOf(tx, tenantId, rule);
    const [row] = await queryRows<{ id: string }>(
      tx,
      sql`INSERT INTO gamification_badges (tenant_id, name, description, image_media_id, criteria_narrative,
          criteria_url, alignment, tags, award_rule, trigger_event, expires_after_days, status)
        VALUES (${tenantId}, ${input.name}, ${input.description}, ${input.imageMediaId},
          ${input.criteriaNarrative}, ${input.criteriaUrl ?? null}, ${JSON.stringify(input.alignment ?? [])}::jsonb,
          ${textArray(input.tags ?? [])}, ${JSON.stringify(rule)}::jsonb, ${trigger},
          ${input.expiresAfterDays ?? null}, ${input.status ?? "active"})
        RETURNING id`,
    );
    await refreshTriggers(tx, tenantId);
    return getBadge(tx, tenantId, (row as { id: string }).id);
  });
}

/** Changes apply to awards made from now on; credentials already issued keep what they were issued with. */
export async function updateBadge(
  db: Executor,
  tenantId: string,
  id: string,
  patch: PatchBadgeInput,
): Promise<BadgeRecord> {
  return db.transaction(async (tx) => {
    const locked = await queryRows(
      tx,
      sql`SELECT 1 FROM gamification_badges WHERE tenant_id = ${tenantId} AND id = ${id} FOR UPDATE`,
    );
    if (locked.length === 0) throw notFound();
    if (patch.imageMediaId !== undefined) {
      await assertUsableMedia(tx, tenantId, patch.imageMediaId, "imageMediaId", "image");
    }
    const sets = [sql`updated_at = now()`];
    const put = (column: string, value: unknown, cast = "") =>
      sets.push(sql`${sql.raw(column)} = ${value}${sql.raw(cast)}`);
    const putSql = (column: string, value: SQL) => sets.push(sql`${sql.raw(column)} = ${value}`);
    if (patch.name !== undefined) put("name", patch.name);
    if (patch.description !== undefined) put("description", patch.description);
    if (patch.imageMediaId !== undefined) put("image_media_id", patch.imageMediaId);
    if (patch.criteriaNarrative !== undefined) put("criteria_narrative", patch.criteriaNarrative);
    if (patch.criteriaUrl !== undefined) put("criteria_url", patch.criteriaUrl);
    if (patch.alignment !== undefined) put("alignment", JSON.stringify(patch.alignment), "::jsonb");
    if (patch.tags !== undefined) putSql("tags", textArray(patch.tags));
    if (patch.expiresAfterDays !== undefined) put("expires_after_days", patch.expiresAfterDays);
    if (patch.status !== undefined) put("status", patch.status);
    if (patch.awardRule !== undefined) {
      put("trigger_event", await triggerOf(tx, tenantId, patch.awardRule));
      put("award_rule", JSON.stringify(patch.awardRule), "::jsonb");
    }
    await tx.execute(sql`UPDATE gamification_badges SET ${sql.join(sets, sql`, `)}
      WHERE tenant_id = ${tenantId} AND id = ${id}`);
    await refreshTriggers(tx, tenantId);
    return getBadge(tx, tenantId, id);
  });
}

/** Strings as one text[] built by the database from a JSON parameter: nothing in them is parsed as array syntax. */
function textArray(values: readonly string[]): SQL {
  return sql`ARRAY(SELECT jsonb_array_elements_text(${JSON.stringify(values)}::jsonb))`;
}
