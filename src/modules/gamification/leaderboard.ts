import { type SQL, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import { queryRows } from "../../db/rows.js";
import { notFound, validationError } from "../../platform/errors/app-error.js";
import { cappedPageEnvelope, exactTotal, TOTAL_CAP } from "../../platform/pagination/capped.js";
import { pageWindow } from "../../platform/pagination/pagination.js";
import type { Period, SettingsRecord, StandingScope } from "./schemas.js";

const STANDINGS_WINDOW_COUNTER = "gamification_standings:scope+scope_id+period+window_start";

/** Who reads: staff see every name; a student sees what the leaderboard's privacy setting lets it see. */
export type Viewer = { kind: "staff" } | { kind: "learner"; userId: string };

/** The first day of the period's current window in the institution's time zone (ISO weeks start on Monday). */
export function windowStart(tenantId: string, period: Period): SQL {
  if (period === "all_time") return sql`DATE '1970-01-01'`;
  const unit = period === "month" ? "month" : "week";
  return sql`(SELECT (date_trunc(${unit}, now() AT TIME ZONE timezone))::date FROM tenants WHERE id = ${tenantId})`;
}

async function scopeIdOf(
  db: Executor,
  tenantId: string,
  scope: StandingScope,
  query: { courseId?: string; classGroupId?: string },
): Promise<string> {
  if (scope === "institution") return tenantId;
  if (scope === "course") {
    if (query.courseId === undefined) throw validationError("courseId", "field.required");
    const found = await queryRows(
      db,
      sql`SELECT 1 FROM courses WHERE tenant_id = ${tenantId} AND id = ${query.courseId}`,
    );
    if (found.length === 0) throw validationError("courseId", "field.unknown_course", { id: query.courseId });
    return query.courseId;
  }
  if (query.classGroupId === undefined) throw validationError("classGroupId", "field.required");
  const found = await queryRows(
    db,
    sql`SELECT 1 FROM class_groups WHERE tenant_id = ${tenantId} AND id = ${query.classGroupId}`,
  );
  if (found.length === 0) {
    throw validationError("classGroupId", "field.unknown_class_group", { id: query.classGroupId });
  }
  return query.classGroupId;
}

/**
 * One page of a leaderboard: a range of the window's rows in (points desc, user) order, read through the
 * standings' own index, so page 1 costs the same at 100 learners or 100,000. Equal points are ordered by user id;
 * `rank` is the position in that order. The total is the window's counter, exact at any size.
 */
export async function leaderboard(
  db: Executor,
  tenantId: string,
  settings: SettingsRecord,
  query: {
    page?: number;
    perPage?: number;
    scope?: StandingScope;
    period?: Period;
    courseId?: string;
    classGroupId?: string;
  },
  viewer: Viewer,
) {
  // For students there is no leaderboard while it is disabled (staff read it to prepare one).
  if (viewer.kind === "learner" && !settings.leaderboard.enabled) throw notFound();
  const scope = query.scope ?? settings.leaderboard.scope;
  const period = query.period ?? settings.leaderboard.period;
  const scopeId = await scopeIdOf(db, tenantId, scope, query);
  const window = pageWindow(query);
  const where = sql`s.tenant_id = ${tenantId} AND s.scope = ${scope} AND s.scope_id = ${scopeId}
    AND s.period = ${period} AND s.window_start = ${windowStart(tenantId, period)}`;
  const rows = await queryRows<{ user_id: string; points: number; name: string }>(
    db,
    sql`SELECT s.user_id, s.points::float8 AS points, u.name FROM gamification_standings s
      JOIN users u ON u.tenant_id = s.tenant_id AND u.id = s.user_id
      WHERE ${where} ORDER BY s.points DESC, s.user_id LIMIT ${window.limit} OFFSET ${window.offset}`,
  );
  // The window's counter (migration 0067), named as aula_count_rows_at_commit names its bucket.
  const [count] = await queryRows<{ n: number }>(
    db,
    sql`SELECT value::int AS n FROM tenant_counters WHERE tenant_id = ${tenantId}
      AND counter = ${`${STANDINGS_WINDOW_COUNTER}:${scope}:${scopeId.toLowerCase()}:${period}:`}
        || (to_jsonb(${windowStart(tenantId, period)}) #>> '{}')`,
  );
  const hide = viewer.kind === "learner" && settings.leaderboard.anonymize;
  const data = rows.map((row, i) => {
    const rank = window.offset + i + 1;
    const me = viewer.kind === "learner" && viewer.userId === row.user_id;
    return {
      rank,
      userId: hide && !me ? null : row.user_id,
      name: hide && !me ? `Learner #${rank}` : row.name,
      points: row.points,
      me,
    };
  });
  return cappedPageEnvelope(data, exactTotal(count?.n ?? 0), window);
}

/**
 * A user's rank in the institution's leaderboard of `period`: the rows ahead of theirs counted through the index,
 * stopping at the cap (null beyond it, and for a user with no points in the window).
 */
export async function rankOf(db: Executor, tenantId: string, userId: string, period: Period) {
  const start = windowStart(tenantId, period);
  const base = sql`tenant_id = ${tenantId} AND scope = 'institution' AND scope_id = ${tenantId}
    AND period = ${period} AND window_start = ${start}`;
  const [mine] = await queryRows<{ points: number }>(
    db,
    sql`SELECT points::float8 AS points FROM gamification_standings WHERE ${base} AND user_id = ${userId}`,
  );
  if (mine === undefined) return null;
  const [ahead] = await queryRows<{ n: number }>(
    db,
    sql`SELECT count(*)::int AS n FROM (SELECT 1 FROM gamification_standings WHERE ${base}
      AND (points > ${mine.points} OR (points = ${mine.points} AND user_id < ${userId}))
      ORDER BY points DESC, user_id LIMIT ${TOTAL_CAP}) c`,
  );
  const n = ahead?.n ?? 0;
  return n >= TOTAL_CAP ? null : n + 1;
}
