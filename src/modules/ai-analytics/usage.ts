/**
 * AI usage by period or by subject, read from the rollups every call adds itself to (ledger.ts): the whole months
 * of the window from the monthly rollup, its other days from the daily one (all of them when grouped by day or
 * week, which months do not divide), each through an index on the period (or on the user or course filtered);
 * at most MAX_SPAN_DAYS days, and never the ledger.
 */
import { type SQL, sql } from "drizzle-orm";
import { DateTime } from "luxon";
import type { Executor } from "../../db/client.js";
import { queryRows } from "../../db/rows.js";
import { validationError } from "../../platform/errors/app-error.js";
import { NONE } from "./ledger.js";
import {
  type GroupBy,
  MAX_BUCKETS,
  MAX_SPAN_DAYS,
  type UsageBucketRecord,
  type UsageQueryInput,
  type UsageReportRecord,
} from "./schemas.js";

const DEFAULT_SPAN_DAYS = 30;

function day(value: string, field: string): DateTime {
  const parsed = DateTime.fromISO(value, { zone: "UTC" });
  if (!parsed.isValid) throw validationError(field, "field.format", { format: "date" });
  return parsed;
}

/** The window asked for, or the last 30 days ending today in the institution's time zone; both ends included. */
export function usageWindow(query: Pick<UsageQueryInput, "from" | "to">, today: string) {
  const to = query.to !== undefined ? day(query.to, "to") : day(today, "to");
  const from = query.from !== undefined ? day(query.from, "from") : to.minus({ days: DEFAULT_SPAN_DAYS - 1 });
  if (to < from) throw validationError("to", "field.ends_before_starts");
  if (to.diff(from, "days").days + 1 > MAX_SPAN_DAYS) {
    throw validationError("to", "field.window_too_long", { days: MAX_SPAN_DAYS });
  }
  return { from: from.toISODate() as string, to: to.toISODate() as string };
}

/** What a bucket is keyed by (as text), per grouping. */
const KEYS: Record<GroupBy, SQL> = {
  day: sql`d.day::text`,
  week: sql`date_trunc('week', d.day::timestamp)::date::text`,
  month: sql`date_trunc('month', d.day::timestamp)::date::text`,
  feature: sql`d.feature`,
  model: sql`d.model`,
  course: sql`d.course_id::text`,
  user: sql`d.user_id::text`,
};
const BY_PERIOD = new Set<GroupBy>(["day", "week", "month"]);
/** The groupings whole months add up to (a week may straddle two months; a day is a day). */
const BY_MONTHS = new Set<GroupBy>(["month", "feature", "model", "course", "user"]);

type Span = { from: string; to: string };

/**
 * The window as the whole months it holds (their first days, `months`) and the days outside them (`days`: before
 * the first whole month and after the last); a window holding no whole month is all days.
 */
export function splitByMonths(window: Span): { days: Span[]; months: Span | undefined } {
  const from = DateTime.fromISO(window.from, { zone: "UTC" });
  const to = DateTime.fromISO(window.to, { zone: "UTC" });
  const first = from.day === 1 ? from : from.plus({ months: 1 }).startOf("month");
  const lastEnd = to.plus({ days: 1 }).day === 1 ? to : to.startOf("month").minus({ days: 1 });
  if (lastEnd < first) return { days: [window], months: undefined };
  const iso = (d: DateTime) => d.toISODate() as string;
  const days: Span[] = [];
  if (from < first) days.push({ from: window.from, to: iso(first.minus({ days: 1 })) });
  if (lastEnd < to) days.push({ from: iso(lastEnd.plus({ days: 1 })), to: window.to });
  return { days, months: { from: iso(first), to: iso(lastEnd.startOf("month")) } };
}

interface Row {
  key: string;
  requests: number;
  input_tokens: number;
  output_tokens: number;
  credits: number;
  active_users: number;
}

/** The last day of the period starting at `start`, clipped to the window (and its first day clipped too). */
function period(groupBy: GroupBy, start: string, window: { from: string; to: string }) {
  const first = DateTime.fromISO(start, { zone: "UTC" });
  const last =
    groupBy === "week" ? first.plus({ days: 6 }) : groupBy === "month" ? first.endOf("month") : first;
  const end = last.toISODate() as string;
  return {
    periodStart: start < window.from ? window.from : start,
    periodEnd: end > window.to ? window.to : end,
  };
}

function subject(groupBy: GroupBy, key: string): Partial<UsageBucketRecord> {
  const id = key === NONE ? null : key;
  if (groupBy === "feature") return { feature: key };
  if (groupBy === "model") return { model: key };
  if (groupBy === "course") return { courseId: id };
  if (groupBy === "user") return { userId: id };
  return {};
}

export async function usage(
  db: Executor,
  tenantId: string,
  query: UsageQueryInput,
): Promise<UsageReportRecord> {
  const [tenant] = await queryRows<{ timezone: string; today: string }>(
    db,
    sql`SELECT timezone, (now() AT TIME ZONE timezone)::date::text AS today FROM tenants WHERE id = ${tenantId}`,
  );
  if (tenant === undefined) throw new Error("tenant vanished during the request");
  const window = usageWindow(query, tenant.today);
  const groupBy = query.groupBy ?? "day";
  const key = KEYS[groupBy];
  const filters = (t: SQL): SQL[] => {
    const out: SQL[] = [];
    if (query.feature !== undefined) out.push(sql` AND ${t}.feature = ${query.feature}`);
    if (query.model !== undefined) out.push(sql` AND ${t}.model = ${query.model}`);
    if (query.courseId !== undefined) out.push(sql` AND ${t}.course_id = ${query.courseId}`);
    if (query.userId !== undefined) out.push(sql` AND ${t}.user_id = ${query.userId}`);
    return out;
  };
  const parts = BY_MONTHS.has(groupBy) ? splitByMonths(window) : { days: [window], months: undefined };
  const reads: SQL[] = parts.days.map(
    (
      days,
    ) => sql`SELECT day, feature, model, course_id, user_id, requests, input_tokens, output_tokens, credits
      FROM ai_usage_daily d WHERE d.tenant_id = ${tenantId} AND d.day BETWEEN ${days.from}::date AND ${days.to}::date
      ${sql.join(filters(sql`d`))}`,
  );
  if (parts.months !== undefined) {
    reads.push(sql`SELECT month AS day, feature, model, course_id, user_id, requests, input_tokens, output_tokens, credits
      FROM ai_usage_monthly m WHERE m.tenant_id = ${tenantId}
        AND m.month BETWEEN ${parts.months.from}::date AND ${parts.months.to}::date ${sql.join(filters(sql`m`))}`);
  }
  // Periods come in order (at most 366 of them); subjects, the largest first, so a cut keeps what matters.
  const order = BY_PERIOD.has(groupBy) ? sql`1` : sql`sum(d.credits) DESC, sum(d.requests) DESC, 1`;
  const rows = await queryRows<Row>(
    db,
    sql`SELECT ${key} AS key, sum(d.requests)::float8 AS requests, sum(d.input_tokens)::float8 AS input_tokens,
        sum(d.output_tokens)::float8 AS output_tokens, sum(d.credits)::float8 AS credits,
        (count(DISTINCT d.user_id) FILTER (WHERE d.user_id <> ${NONE}::uuid))::int AS active_users
      FROM (${sql.join(reads, sql` UNION ALL `)}) d
      GROUP BY 1 ORDER BY ${order} LIMIT ${MAX_BUCKETS + 1}`,
  );
  const buckets = rows.slice(0, MAX_BUCKETS).map((row) => ({
    ...(BY_PERIOD.has(groupBy)
      ? period(groupBy, row.key, window)
      : { periodStart: window.from, periodEnd: window.to }),
    ...subject(groupBy, row.key),
    requests: Number(row.requests),
    inputTokens: Number(row.input_tokens),
    outputTokens: Number(row.output_tokens),
    credits: Number(row.credits),
    activeUsers: Number(row.active_users),
  }));
  return { ...window, timezone: tenant.timezone, groupBy, buckets, truncated: rows.length > MAX_BUCKETS };
}
