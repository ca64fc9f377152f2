import { and, eq, or, sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { toIso } from "../../db/schema/columns.js";
import { automations, inactivityNotices } from "../../db/schema/index.js";
import { emitEvent } from "../events/emit.js";
import type { Condition } from "../outbox/condition.js";
import { getSettings } from "../settings/service.js";

/**
 * The threshold of a `user_inactive` automation whose condition does not name `event.inactiveDays`, when no
 * institution setting says otherwise (the scan reads `inactivity.userInactiveDays`, whose default this is).
 */
export const DEFAULT_INACTIVE_DAYS = 30;
const BATCH = 500;
const DAY_MS = 86_400_000;

/**
 * The number of days an automation's condition asks for: the bound of its `event.inactiveDays` clause (`gte n`,
 * `eq n`, or `gt n` meaning n + 1), the smallest if there are several, else the institution's default.
 */
export function inactivityThreshold(condition: Condition | null, fallback = DEFAULT_INACTIVE_DAYS): number {
  const clauses = condition === null ? [] : "all" in condition ? condition.all : condition.any;
  const bounds: number[] = [];
  for (const clause of clauses) {
    if (clause.field !== "event.inactiveDays" || typeof clause.value !== "number" || clause.value < 1)
      continue;
    if (clause.op === "gte" || clause.op === "eq") bounds.push(Math.ceil(clause.value));
    else if (clause.op === "gt") bounds.push(Math.floor(clause.value) + 1);
  }
  return bounds.length === 0 ? fallback : Math.min(...bounds);
}

interface Candidate {
  id: string;
  name: string;
  email: string;
  role: string;
  lastActivityAt: string | null;
  activityAt: string;
}

type Basis = "access" | "activity";

/**
 * The daily scan: for each enabled `user_inactive` automation, the active users whose last activity is at least
 * its threshold old get one `user_inactive` event per inactivity period, sent to the automations of that threshold
 * only. The threshold is the automation's condition's, else the institution's `inactivity.userInactiveDays`, which
 * is also the threshold of the webhook endpoints subscribed to `user_inactive` (an endpoint has no condition);
 * activity is what the institution's `inactivity.basis` says: signing in (`access`) or learning in any enrollment
 * (`activity`), and the sign-up date for users with none. Returns the number of events emitted.
 */
export async function emitInactivity(db: Db, at?: Date): Promise<number> {
  const rows = await db
    .select({ tenantId: automations.tenantId, id: automations.id, condition: automations.condition })
    .from(automations)
    .where(
      and(
        eq(automations.enabled, true),
        or(
          and(eq(automations.kind, "automation"), eq(automations.triggerEvent, "user_inactive")),
          and(eq(automations.kind, "endpoint"), sql`'user_inactive' = ANY (${automations.eventTypes})`),
        ),
      ),
    );
  const groups = new Map<string, { tenantId: string; days: number; basis: Basis; automationIds: string[] }>();
  const settings = new Map<string, { days: number; basis: Basis }>();
  for (const row of rows) {
    let policy = settings.get(row.tenantId);
    if (policy === undefined) {
      const { inactivity } = await getSettings(db, row.tenantId);
      policy = { days: inactivity.userInactiveDays, basis: inactivity.basis };
      settings.set(row.tenantId, policy);
    }
    const days = inactivityThreshold(row.condition as Condition | null, policy.days);
    const key = `${row.tenantId}:${days}`;
    const group = groups.get(key) ?? { tenantId: row.tenantId, days, basis: policy.basis, automationIds: [] };
    group.automationIds.push(row.id);
    groups.set(key, group);
  }
  let emitted = 0;
  for (const group of groups.values()) {
    for (;;) {
      // The clock is read per batch: a scan over many institutions takes a while, and a user's inactiveDays is
      // counted when the user is found, not when the scan began (tests pass `at` to stand at a given moment).
      const now = at ?? new Date();
      const batch = await candidates(db, group.tenantId, group.days, group.basis, now);
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
              lastActivityAt: user.lastActivityAt,
              inactiveDays: Math.floor((now.getTime() - Date.parse(user.activityAt)) / DAY_MS),
              thresholdDays: group.days,
              basis: group.basis,
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

async function candidates(
  db: Db,
  tenantId: string,
  days: number,
  basis: Basis,
  now: Date,
): Promise<Candidate[]> {
  const cutoff = new Date(now.getTime() - days * DAY_MS).toISOString();
  // `activity`: the latest learning activity of any of the user's enrollments (through enrollments_user_created_idx).
  const last =
    basis === "access"
      ? sql`u.last_login_at`
      : sql`(SELECT max(e.last_activity_at) FROM enrollments e WHERE e.tenant_id = u.tenant_id AND e.user_id = u.id)`;
  const result = await db.execute(sql`
    SELECT id, name, email, role, "lastActivityAt", coalesce("lastActivityAt", created_at) AS "activityAt"
    FROM (
      SELECT u.tenant_id, u.id, u.name, u.email, u.role, u.created_at, ${last} AS "lastActivityAt"
      FROM users u
      WHERE u.tenant_id = ${tenantId} AND u.status = 'active'
    ) u
    WHERE coalesce("lastActivityAt", created_at) <= ${cutoff}
      AND NOT EXISTS (
        SELECT 1 FROM inactivity_notices n
        WHERE n.tenant_id = u.tenant_id AND n.user_id = u.id AND n.threshold_days = ${days}
          AND n.activity_at >= coalesce("lastActivityAt", u.created_at)
      )
    ORDER BY id
    LIMIT ${BATCH}`);
  const rows = (result as unknown as { rows: Record<string, unknown>[] }).rows;
  return rows.map((r) => ({
    id: r.id as string,
    name: r.name as string,
    email: r.email as string,
    role: r.role as string,
    lastActivityAt: r.lastActivityAt === null ? null : toIso(r.lastActivityAt as string | Date),
    activityAt: toIso(r.activityAt as string | Date),
  }));
}
