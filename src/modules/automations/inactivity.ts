import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { toIso } from "../../db/schema/columns.js";
import { automations, inactivityNotices } from "../../db/schema/index.js";
import { emitEvent } from "../events/emit.js";
import type { Condition } from "../outbox/condition.js";

/** The threshold of a `user_inactive` automation whose condition does not name `event.inactiveDays`. */
export const DEFAULT_INACTIVE_DAYS = 30;
const BATCH = 500;
const DAY_MS = 86_400_000;

/**
 * The number of days an automation's condition asks for: the bound of its `event.inactiveDays` clause (`gte n`,
 * `eq n`, or `gt n` meaning n + 1), the smallest if there are several, else the default.
 */
export function inactivityThreshold(condition: Condition | null): number {
  const clauses = condition === null ? [] : "all" in condition ? condition.all : condition.any;
  const bounds: number[] = [];
  for (const clause of clauses) {
    if (clause.field !== "event.inactiveDays" || typeof clause.value !== "number" || clause.value < 1)
      continue;
    if (clause.op === "gte" || clause.op === "eq") bounds.push(Math.ceil(clause.value));
    else if (clause.op === "gt") bounds.push(Math.floor(clause.value) + 1);
  }
  return bounds.length === 0 ? DEFAULT_INACTIVE_DAYS : Math.min(...bounds);
}

interface Candidate {
  id: string;
  name: string;
  email: string;
  role: string;
  lastLoginAt: string | null;
  activityAt: string;
}

/**
 * The daily scan: for each enabled `user_inactive` automation, the active users whose last activity (sign-in, or
 * creation if they never signed in) is at least its threshold old get one `user_inactive` event per inactivity
 * period, sent to the automations of that threshold only. Returns the number of events emitted.
 */
export async function emitInactivity(db: Db, now: Date = new Date()): Promise<number> {
  const rows = await db
    .select({ tenantId: automations.tenantId, id: automations.id, condition: automations.condition })
    .from(automations)
    .where(
      and(
        eq(automations.kind, "automation"),
        eq(automations.triggerEvent, "user_inactive"),
        eq(automations.enabled, true),
      ),
    );
  const groups = new Map<string, { tenantId: string; days: number; automationIds: string[] }>();
  for (const row of rows) {
    const days = inactivityThreshold(row.condition as Condition | null);
    const key = `${row.tenantId}:${days}`;
    const group = groups.get(key) ?? { tenantId: row.tenantId, days, automationIds: [] };
    group.automationIds.push(row.id);
    groups.set(key, group);
  }
  let emitted = 0;
  for (const group of groups.values()) {
    for (;;) {
      const batch = await candidates(db, group.tenantId, group.days, now);
      for (const user of batch) {
        await db.transaction(async (tx) => {
          await tx
            .insert(inactivityNotices)
            .values({
              tenantId: group.tenantId,
              userId: user.id,
              thresholdDays: group.days,
              activityAt: user.activityAt,
            })
            .onConflictDoUpdate({
              target: [inactivityNotices.tenantId, inactivityNotices.userId, inactivityNotices.thresholdDays],
              set: { activityAt: user.activityAt, emittedAt: sql`now()` },
            });
          await emitEvent(tx, {
            tenantId: group.tenantId,
            type: "user_inactive",
            data: {
              userId: user.id,
              lastActivityAt: user.lastLoginAt,
              inactiveDays: Math.floor((now.getTime() - Date.parse(user.activityAt)) / DAY_MS),
              thresholdDays: group.days,
            },
            actor: { type: "system" },
            subject: { id: user.id, name: user.name, email: user.email, role: user.role },
            automationIds: group.automationIds,
          });
        });
        emitted++;
      }
      if (batch.length < BATCH) break;
    }
  }
  return emitted;
}

async function candidates(db: Db, tenantId: string, days: number, now: Date): Promise<Candidate[]> {
  const cutoff = new Date(now.getTime() - days * DAY_MS).toISOString();
  const result = await db.execute(sql`
    SELECT u.id, u.name, u.email, u.role, u.last_login_at AS "lastLoginAt",
           coalesce(u.last_login_at, u.created_at) AS "activityAt"
    FROM users u
    WHERE u.tenant_id = ${tenantId}
      AND u.status = 'active'
      AND coalesce(u.last_login_at, u.created_at) <= ${cutoff}
      AND NOT EXISTS (
        SELECT 1 FROM inactivity_notices n
        WHERE n.tenant_id = u.tenant_id AND n.user_id = u.id AND n.threshold_days = ${days}
          AND n.activity_at >= coalesce(u.last_login_at, u.created_at)
      )
    ORDER BY u.id
    LIMIT ${BATCH}`);
  const rows = (result as unknown as { rows: Record<string, unknown>[] }).rows;
  return rows.map((r) => ({
    id: r.id as string,
    name: r.name as string,
    email: r.email as string,
    role: r.role as string,
    lastLoginAt: r.lastLoginAt === null ? null : toIso(r.lastLoginAt as string | Date),
    activityAt: toIso(r.activityAt as string | Date),
  }));
}
