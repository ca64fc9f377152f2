import { type SQL, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import { queryRows } from "../../db/rows.js";
import type { EventActor, EventSubject } from "../events/catalogue.js";
import { type BadgeRef, grantBadge } from "./awards.js";
import { GAMIFICATION_EVENTS } from "./events.js";
import { addPoints, type FollowUp } from "./ledger.js";
import type { SettingsRecord } from "./schemas.js";

export type { FollowUp } from "./ledger.js";

/** An event just recorded, as emit.ts hands it over. */
export interface RecordedEvent {
  id: string;
  type: string;
  data: unknown;
  actor: EventActor;
  subject: EventSubject | null;
}

/**
 * What one source earns once, whatever how often its event fires: completing the same lesson again after a reset,
 * or submitting the same quiz again, is the same source. Events not listed are their own source (a sign-in), and
 * only the rule's cooldown and daily cap bound them.
 */
const SOURCE_FIELD: Record<string, string> = {
  lesson_completed: "lessonId",
  module_completed: "moduleId",
  enrollment_completed: "courseId",
  quiz_submitted: "quizId",
  quiz_graded: "quizId",
  assignment_submitted: "lessonId",
  assignment_graded: "lessonId",
  certificate_issued: "certificateId",
  live_class_attended: "occurrenceId",
};

function field(data: unknown, name: string): unknown {
  return typeof data === "object" && data !== null ? (data as Record<string, unknown>)[name] : undefined;
}

function sourceKey(event: RecordedEvent): string {
  const name = SOURCE_FIELD[event.type];
  const value = name === undefined ? undefined : field(event.data, name);
  return typeof value === "string" ? value : event.id;
}

/** The event's score in percent: `percent` (quizzes, grades, assignments) or `scorePercent` (lessons). */
function percentOf(data: unknown): number | null {
  for (const name of ["percent", "scorePercent"]) {
    const value = field(data, name);
    if (typeof value === "number" && Number.isFinite(value)) return Math.max(0, Math.min(100, value));
  }
  return null;
}

/** What the settings say about the events at hand, when gamification cares about any of them. */
export interface Gate {
  point_rules: SettingsRecord["pointRules"];
  levels: SettingsRecord["levels"];
}

/** The event types a gate may open for: every type but gamification's own (points and badges earn nothing). */
function rewardable(types: Iterable<string>): string[] {
  return [...new Set(types)].filter((t) => !(GAMIFICATION_EVENTS as readonly string[]).includes(t));
}

const typeList = (types: readonly string[]) =>
  sql.join(
    types.map((t) => sql`${t}`),
    sql`, `,
  );

/**
 * The gate as one scalar jsonb expression, which emit.ts evaluates in the statement that records the events: the
 * settings' rules when gamification is on and a rule or badge listens to one of `types`, else NULL. One indexed
 * probe of the settings row, in a statement that runs anyway, so an institution without gamification pays no
 * round trip for it.
 */
export function gamificationGate(tenantId: string, types: Iterable<string>): SQL {
  const relevant = rewardable(types);
  if (relevant.length === 0) return sql`NULL::jsonb`;
  return sql`(SELECT jsonb_build_object('point_rules', point_rules, 'levels', levels)
    FROM gamification_settings
    WHERE tenant_id = ${tenantId} AND enabled AND trigger_events && ARRAY[${typeList(relevant)}]::text[])`;
}

/**
 * Point rules and badge rules, applied in the transaction of the events that earn them (emit.ts calls this right
 * after recording them, with the gate its statement read), so an award exists exactly when its event does. Rules
 * reward the students an event is about (`subject`); staff earn points and badges by hand only.
 */
export async function gamifyEvents(
  tx: Executor,
  tenantId: string,
  events: readonly RecordedEvent[],
  gate: Gate | null,
): Promise<FollowUp[]> {
  if (gate === null) return [];
  const types = rewardable(events.map((e) => e.type));
  if (types.length === 0) return [];
  const badges = await queryRows<BadgeRef & { trigger_event: string; course_id: string | null }>(
    tx,
    sql`SELECT id, name, expires_after_days, trigger_event, award_rule->>'courseId' AS course_id
      FROM gamification_badges WHERE tenant_id = ${tenantId} AND status = 'active'
        AND trigger_event IN (${typeList(types)})`,
  );
  const followUps: FollowUp[] = [];
  for (const event of events) {
    const subject = event.subject;
    if (subject === null || subject.role !== "student") continue;
    const rule = gate.point_rules.find((r) => r.event === event.type);
    if (rule !== undefined) {
      // Rules are stored whole (settings.ts writes every key), so the row's rule is the rule.
      const full = rule;
      const percent = percentOf(event.data);
      const points = full.multiplyByScore
        ? percent === null
          ? 0
          : Math.round((full.points * percent) / 100)
        : full.points;
      const courseId = field(event.data, "courseId");
      if (points !== 0) {
        const added = await addPoints(
          tx,
          tenantId,
          {
            userId: subject.id,
            subject,
            points,
            reason: "rule",
            ruleEvent: event.type,
            sourceKey: sourceKey(event),
            eventId: event.id,
            courseId: typeof courseId === "string" ? courseId : null,
            note: null,
            actor: { type: "system" },
          },
          gate,
          full,
        );
        if (added !== undefined) followUps.push(...added.followUps);
      }
    }
    for (const badge of badges) {
      if (badge.trigger_event !== event.type) continue;
      if (badge.course_id !== null && field(event.data, "courseId") !== badge.course_id) continue;
      const granted = await grantBadge(tx, tenantId, badge, subject, {
        awardedBy: "rule",
        actor: { type: "system" },
        eventId: event.id,
      });
      if (granted !== undefined) followUps.push(granted.event);
    }
  }
  return followUps;
}
