import { sql } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import { queryRows } from "../../db/rows.js";
import type { EventActor, EventSubject } from "../events/catalogue.js";
import { awardThresholdBadges, type BadgeFollowUp } from "./awards.js";
import type { SettingsRecord } from "./schemas.js";
import { levelOf } from "./settings.js";

type Rule = SettingsRecord["pointRules"][number];

/** The events a change of points leads to, for the caller to emit in its own transaction. */
export type FollowUp =
  | BadgeFollowUp
  | {
      type: "points_awarded";
      data: {
        userId: string;
        entryId: string;
        points: number;
        balance: number;
        reason: "rule" | "manual" | "adjustment";
        ruleEvent: string | null;
        sourceEventId: string | null;
        courseId: string | null;
      };
      actor: EventActor;
      subject: EventSubject;
    }
  | {
      type: "level_up";
      data: { userId: string; level: number; levelName: string; previousLevel: number; balance: number };
      actor: EventActor;
      subject: EventSubject;
    };

interface Locked {
  points: number;
  timezone: string;
}

/**
 * Locks the user's balance row (creating it at 0 first), so that every award of one user, from any number of
 * concurrent transactions, reads the ledger and writes its entry one at a time: the cooldown and the daily cap
 * are checked against entries that cannot change under the check.
 */
async function lockBalance(tx: Executor, tenantId: string, userId: string): Promise<Locked> {
  await tx.execute(sql`
    INSERT INTO gamification_balances (tenant_id, user_id) VALUES (${tenantId}, ${userId})
    ON CONFLICT (tenant_id, user_id) DO NOTHING`);
  const [row] = await queryRows<{ points: number; timezone: string }>(
    tx,
    sql`SELECT b.points::float8 AS points, t.timezone FROM gamification_balances b
      JOIN tenants t ON t.id = b.tenant_id
      WHERE b.tenant_id = ${tenantId} AND b.user_id = ${userId} FOR UPDATE OF b`,
  );
  return row as Locked;
}

export interface PointsInput {
  userId: string;
  subject: EventSubject;
  points: number;
  reason: "rule" | "manual" | "adjustment";
  ruleEvent: string | null;
  sourceKey: string | null;
  eventId: string | null;
  courseId: string | null;
  note: string | null;
  actor: EventActor;
}

/**
 * How many points a rule may still give under its cooldown, its daily cap and the once-per-source key, read
 * under the balance lock: 0 when the source earned already, the cooldown runs, or the day's cap is reached.
 */
async function allowance(tx: Executor, tenantId: string, input: PointsInput, rule: Rule, tz: string) {
  const [row] = await queryRows<{ done: boolean; since: number | null; today: number }>(
    tx,
    sql`SELECT
      EXISTS (SELECT 1 FROM gamification_ledger WHERE tenant_id = ${tenantId} AND user_id = ${input.userId}
        AND reason = 'rule' AND rule_event = ${rule.event} AND source_key = ${input.sourceKey}) AS done,
      (SELECT EXTRACT(EPOCH FROM clock_timestamp() - max(created_at))::float8 FROM gamification_ledger
        WHERE tenant_id = ${tenantId} AND user_id = ${input.userId} AND reason = 'rule'
          AND rule_event = ${rule.event}) AS since,
      (SELECT COALESCE(sum(points), 0)::float8 FROM gamification_ledger
        WHERE tenant_id = ${tenantId} AND user_id = ${input.userId} AND reason = 'rule'
          AND rule_event = ${rule.event}
          AND created_at >= date_trunc('day', clock_timestamp() AT TIME ZONE ${tz}) AT TIME ZONE ${tz}) AS today`,
  );
  if (row === undefined || row.done) return 0;
  if (rule.cooldownSeconds > 0 && row.since !== null && row.since < rule.cooldownSeconds) return 0;
  if (rule.dailyCap === null || input.points <= 0) return input.points;
  return Math.max(0, Math.min(input.points, rule.dailyCap - row.today));
}

/**
 * Adds one ledger entry (never changed afterwards) with the balance after it, moves the balance and the
 * leaderboards' windows, and says which events follow: `points_awarded`, `level_up` when the balance reaches a
 * higher level, and `badge_awarded` for points-threshold badges reached. A rule's award passes `rule`: it may be
 * cut by the daily cap or come to nothing (then nothing is written and no event follows).
 */
export async function addPoints(
  tx: Executor,
  tenantId: string,
  input: PointsInput,
  settings: Pick<SettingsRecord, "levels">,
  rule?: Rule,
): Promise<{ entryId: string; balance: number; followUps: FollowUp[] } | undefined> {
  const locked = await lockBalance(tx, tenantId, input.userId);
  const points =
    rule === undefined ? input.points : await allowance(tx, tenantId, input, rule, locked.timezone);
  if (points === 0) return undefined;
  const balance = locked.points + points;
  const [entry] = await queryRows<{ id: string }>(
    tx,
    sql`INSERT INTO gamification_ledger (tenant_id, user_id, points, reason, rule_event, source_key, event_id,
        course_id, note, balance_after, actor, created_at)
      VALUES (${tenantId}, ${input.userId}, ${points}, ${input.reason}, ${input.ruleEvent}, ${input.sourceKey},
        ${input.eventId}, ${input.courseId}, ${input.note}, ${balance}, ${JSON.stringify(input.actor)}::jsonb,
        clock_timestamp())
      RETURNING id`,
  );
  const entryId = (entry as { id: string }).id;
  await tx.execute(sql`UPDATE gamification_balances SET points = ${balance}, level = ${levelOf(settings.levels, balance).level},
      entries = entries + 1, updated_at = now() WHERE tenant_id = ${tenantId} AND user_id = ${input.userId}`);
  await addToStandings(tx, tenantId, input.userId, input.courseId, points, locked.timezone);
  const followUps: FollowUp[] = [
    {
      type: "points_awarded",
      data: {
        userId: input.userId,
        entryId,
        points,
        balance,
        reason: input.reason,
        ruleEvent: input.ruleEvent,
        sourceEventId: input.eventId,
        courseId: input.courseId,
      },
      actor: input.actor,
      subject: input.subject,
    },
  ];
  const before = levelOf(settings.levels, locked.points);
  const after = levelOf(settings.levels, balance);
  if (after.level > before.level) {
    followUps.push({
      type: "level_up",
      data: {
        userId: input.userId,
        level: after.level,
        levelName: after.name,
        previousLevel: before.level,
        balance,
      },
      actor: input.actor,
      subject: input.subject,
    });
  }
  if (points > 0) followUps.push(...(await awardThresholdBadges(tx, tenantId, input, balance)));
  return { entryId, balance, followUps };
}

/**
 * The leaderboards' rollups: the user's row of every window the points fall in (all time, this month and this
 * ISO week in the institution's time zone) of the institution, the course the points were earned in, and each
 * class group the user belongs to now. One statement; the leaderboard then reads a window in index order.
 */
async function addToStandings(
  tx: Executor,
  tenantId: string,
  userId: string,
  courseId: string | null,
  points: number,
  tz: string,
): Promise<void> {
  await tx.execute(sql`
    INSERT INTO gamification_standings (tenant_id, scope, scope_id, period, window_start, user_id, points)
    SELECT ${tenantId}, s.scope, s.scope_id, w.period, w.start, ${userId}, ${points}
    FROM (
      SELECT 'institution' AS scope, ${tenantId}::uuid AS scope_id
      UNION ALL SELECT 'course', ${courseId}::uuid WHERE ${courseId}::uuid IS NOT NULL
      UNION ALL SELECT 'class_group', class_group_id FROM class_group_members
        WHERE tenant_id = ${tenantId} AND user_id = ${userId}
    ) s CROSS JOIN (VALUES
      ('all_time', DATE '1970-01-01'),
      ('month', (date_trunc('month', clock_timestamp() AT TIME ZONE ${tz}))::date),
      ('week', (date_trunc('week', clock_timestamp() AT TIME ZONE ${tz}))::date)
    ) w(period, start)
    ON CONFLICT (tenant_id, scope, scope_id, period, window_start, user_id)
    DO UPDATE SET points = gamification_standings.points + EXCLUDED.points`);
}
