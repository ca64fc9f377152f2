import { type SQL, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import { queryRows } from "../../db/rows.js";
import { AppError, type DetailKey, validationError } from "../../platform/errors/app-error.js";
import { isEventType } from "../events/catalogue.js";
import { GAMIFICATION_EVENTS } from "./events.js";
import type { SettingsPatchInput, SettingsRecord } from "./schemas.js";

type Rule = SettingsRecord["pointRules"][number];
type Level = SettingsRecord["levels"][number];

export const DEFAULT_SETTINGS: SettingsRecord = {
  enabled: false,
  pointRules: [],
  levels: [{ level: 1, name: "Level 1", minPoints: 0 }],
  leaderboard: { enabled: false, scope: "institution", period: "all_time", anonymize: false },
  updatedAt: null,
};

interface Row {
  enabled: boolean;
  point_rules: Rule[];
  levels: Level[];
  leaderboard: SettingsRecord["leaderboard"];
  updated_at: string | null;
}

/** A rule as stored: older rows may lack the keys added since (dailyCap), which read as their defaults. */
function normalise(rule: Partial<Rule> & Pick<Rule, "event" | "points">): Rule {
  return {
    event: rule.event,
    points: rule.points,
    multiplyByScore: rule.multiplyByScore ?? false,
    cooldownSeconds: rule.cooldownSeconds ?? 0,
    dailyCap: rule.dailyCap ?? null,
  };
}

/** The institution's gamification settings; defaults when it never saved any. */
export async function readSettings(db: Executor, tenantId: string): Promise<SettingsRecord> {
  const [row] = await queryRows<Row>(
    db,
    sql`SELECT enabled, point_rules, levels, leaderboard, to_char(updated_at AT TIME ZONE 'UTC',
      'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS updated_at FROM gamification_settings WHERE tenant_id = ${tenantId}`,
  );
  if (row === undefined) return DEFAULT_SETTINGS;
  return {
    enabled: row.enabled,
    pointRules: row.point_rules.map(normalise),
    levels: row.levels,
    leaderboard: row.leaderboard,
    updatedAt: row.updated_at,
  };
}

/** The level a balance reaches under these levels (the highest whose minPoints it meets; the first otherwise). */
export function levelOf(levels: readonly Level[], points: number): Level {
  let found = levels[0] ?? { level: 1, name: "Level 1", minPoints: 0 };
  for (const level of levels) if (points >= level.minPoints) found = level;
  return found;
}

function checkRules(rules: readonly Rule[]): DetailKey[] {
  const details: DetailKey[] = [];
  const seen = new Set<string>();
  rules.forEach((rule, i) => {
    const field = `pointRules.${i}.event`;
    if (!isEventType(rule.event) || (GAMIFICATION_EVENTS as readonly string[]).includes(rule.event)) {
      details.push({ field, key: "field.invalid" });
    } else if (seen.has(rule.event)) {
      details.push({ field, key: "field.duplicate", params: { value: rule.event } });
    }
    seen.add(rule.event);
  });
  return details;
}

function checkLevels(levels: readonly Level[]): DetailKey[] {
  const details: DetailKey[] = [];
  if (levels[0] !== undefined && levels[0].minPoints !== 0) {
    details.push({ field: "levels.0.minPoints", key: "field.invalid" });
  }
  for (let i = 1; i < levels.length; i++) {
    const [prev, cur] = [levels[i - 1] as Level, levels[i] as Level];
    if (cur.level <= prev.level) details.push({ field: `levels.${i}.level`, key: "field.invalid" });
    if (cur.minPoints <= prev.minPoints)
      details.push({ field: `levels.${i}.minPoints`, key: "field.invalid" });
  }
  return details;
}

/**
 * The event types anything reacts to: the rules' events and the active badges' triggers. Kept on the settings
 * row so that emitting an event asks one indexed question (emit.ts → hook.ts) and usually hears "nothing".
 */
export async function refreshTriggers(tx: Executor, tenantId: string): Promise<void> {
  await tx.execute(sql`
    INSERT INTO gamification_settings (tenant_id) VALUES (${tenantId}) ON CONFLICT (tenant_id) DO NOTHING`);
  await tx.execute(sql`
    UPDATE gamification_settings s SET trigger_events = ARRAY(
      SELECT r->>'event' FROM jsonb_array_elements(s.point_rules) r
      UNION SELECT b.trigger_event FROM gamification_badges b
        WHERE b.tenant_id = s.tenant_id AND b.status = 'active' AND b.trigger_event IS NOT NULL)
    WHERE s.tenant_id = ${tenantId}`);
}

/**
 * Saves the given keys. The ledger is untouched: awards already made keep their points whatever the new rules
 * say, and a level is a reading of the balance under the levels of the moment.
 */
export async function updateSettings(
  db: Executor,
  tenantId: string,
  patch: SettingsPatchInput,
): Promise<SettingsRecord> {
  const rules = patch.pointRules?.map(normalise);
  const details = [...checkRules(rules ?? []), ...checkLevels(patch.levels ?? [])];
  if (details.length > 0) throw new AppError("validation_failed", { details });
  return db.transaction(async (tx) => {
    await tx.execute(sql`
      INSERT INTO gamification_settings (tenant_id) VALUES (${tenantId}) ON CONFLICT (tenant_id) DO NOTHING`);
    const current = await readSettingsForUpdate(tx, tenantId);
    const next = {
      enabled: patch.enabled ?? current.enabled,
      pointRules: rules ?? current.pointRules,
      levels: patch.levels ?? current.levels,
      leaderboard: { ...current.leaderboard, ...patch.leaderboard },
    };
    await tx.execute(sql`
      UPDATE gamification_settings SET enabled = ${next.enabled},
        point_rules = ${JSON.stringify(next.pointRules)}::jsonb, levels = ${JSON.stringify(next.levels)}::jsonb,
        leaderboard = ${JSON.stringify(next.leaderboard)}::jsonb, updated_at = now()
      WHERE tenant_id = ${tenantId}`);
    await refreshTriggers(tx, tenantId);
    return readSettings(tx, tenantId);
  });
}

async function readSettingsForUpdate(tx: Executor, tenantId: string): Promise<SettingsRecord> {
  await tx.execute(sql`SELECT 1 FROM gamification_settings WHERE tenant_id = ${tenantId} FOR UPDATE`);
  return readSettings(tx, tenantId);
}

/** For a badge rule's `event`: a platform event that is not gamification's own. */
export function assertRuleEvent(event: string, field: string): void {
  if (!isEventType(event) || (GAMIFICATION_EVENTS as readonly string[]).includes(event)) {
    throw validationError(field, "field.invalid");
  }
}
