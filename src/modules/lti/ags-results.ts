/**
 * AGS 2.0 result service: the line item's current results, read from its grade item's grades (the gradebook is
 * where scores land, so what a teacher changed there is what the tool reads back), a page at a time in the
 * order the grades were first written (the grades' (item, created) index).
 */
import { and, asc, eq, sql } from "drizzle-orm";
import { grades } from "../../db/schema/index.js";
import { validationError } from "../../platform/errors/app-error.js";
import { isUuid } from "../../platform/http/schemas.js";
import { findLineItem, lineItemUrl } from "./ags.js";
import type { ToolRow } from "./tool-repo.js";
import type { LtiDeps } from "./tools.js";

export async function listResults(
  deps: LtiDeps,
  tenantId: string,
  tool: ToolRow,
  courseId: string,
  lineItemId: string,
  query: { user_id?: string; limit: number; page: number },
) {
  const item = await findLineItem(deps, tenantId, tool, courseId, lineItemId);
  if (query.user_id !== undefined && !isUuid(query.user_id))
    throw validationError("user_id", "field.invalid");
  const rows = await deps.ctx.database.db
    .select({
      userId: grades.userId,
      score: sql<number | null>`coalesce(${grades.overrideScore}, ${grades.score})`.mapWith(
        (v: string | number | null) => (v === null ? null : Number(v)),
      ),
      feedback: grades.feedback,
    })
    .from(grades)
    .where(
      and(
        eq(grades.tenantId, tenantId),
        eq(grades.gradeItemId, item.gradeItemId),
        query.user_id === undefined ? undefined : eq(grades.userId, query.user_id.toLowerCase()),
      ),
    )
    .orderBy(asc(grades.createdAt), asc(grades.id))
    .limit(query.limit + 1)
    .offset((query.page - 1) * query.limit);
  const url = lineItemUrl(deps, courseId, item.id);
  const results = rows.slice(0, query.limit).map((r) => ({
    id: `${url}/results/${r.userId}`,
    scoreOf: url,
    userId: r.userId,
    ...(r.score === null ? {} : { resultScore: r.score, resultMaximum: Number(item.scoreMaximum) }),
    ...(r.feedback === null ? {} : { comment: r.feedback }),
  }));
  const user = query.user_id === undefined ? "" : `&user_id=${query.user_id}`;
  const next =
    rows.length > query.limit
      ? `${url}/results?limit=${query.limit}&page=${query.page + 1}${user}`
      : undefined;
  return { results, next };
}
