import { sql } from "drizzle-orm";
import type { Db, Executor } from "../../db/client.js";
import { toIso } from "../../db/schema/columns.js";
import { subjectOf } from "../events/actor.js";
import { emitEvents } from "../events/emit.js";
import { getSettings } from "../settings/service.js";
import { enrollmentAbout } from "./events.js";
import { findUsers } from "./lookups.js";
import { findEnrollments } from "./repo.js";

const BATCH = 500;
const DAY_MS = 86_400_000;

/** Institutions where some enabled automation or webhook endpoint listens for `enrollment_inactive`. */
async function listeningTenants(db: Executor): Promise<string[]> {
  const result = (await db.execute(sql`
    SELECT DISTINCT tenant_id AS "tenantId" FROM automations
    WHERE enabled AND (trigger_event = 'enrollment_inactive' OR 'enrollment_inactive' = ANY(event_types))`)) as unknown as {
    rows: { tenantId: string }[];
  };
  return result.rows.map((r) => r.tenantId);
}

interface Candidate {
  id: string;
  activityAt: string;
  lastActivityAt: string | null;
}

/**
 * Active enrollments whose learning activity (the last completion, else the enrollment itself) is older than the
 * cutoff and that were not announced for this period yet.
 */
async function candidates(db: Executor, tenantId: string, cutoff: string): Promise<Candidate[]> {
  const result = (await db.execute(sql`
    SELECT e.id, e.last_activity_at AS "lastActivityAt", coalesce(e.last_activity_at, e.enrolled_at) AS "activityAt"
    FROM enrollments e
    WHERE e.tenant_id = ${tenantId} AND e.status = 'active'
      AND coalesce(e.last_activity_at, e.enrolled_at) <= ${cutoff}
      AND NOT EXISTS (
        SELECT 1 FROM enrollment_inactivity_notices n
        WHERE n.tenant_id = e.tenant_id AND n.enrollment_id = e.id
          AND n.activity_at >= coalesce(e.last_activity_at, e.enrolled_at)
      )
    ORDER BY e.id
    LIMIT ${BATCH}`)) as unknown as { rows: Record<string, string | Date | null>[] };
  return result.rows.map((r) => ({
    id: r.id as string,
    lastActivityAt: r.lastActivityAt === null ? null : toIso(r.lastActivityAt as string | Date),
    activityAt: toIso(r.activityAt as string | Date),
  }));
}

/**
 * Claims the period of each candidate in one statement: a notice row is written (or moved to the newer activity)
 * only where none covers this activity yet. Two workers scanning at once each get the enrollments they claimed,
 * never the same one, so every period is announced once.
 */
async function claim(tx: Executor, tenantId: string, batch: readonly Candidate[]): Promise<Set<string>> {
  const rows = JSON.stringify(batch.map((c) => ({ id: c.id, at: c.activityAt })));
  const result = (await tx.execute(sql`
    INSERT INTO enrollment_inactivity_notices AS n (tenant_id, enrollment_id, activity_at)
    SELECT ${tenantId}::uuid, (x->>'id')::uuid, (x->>'at')::timestamptz FROM jsonb_array_elements(${rows}::jsonb) x
    ON CONFLICT (tenant_id, enrollment_id) DO UPDATE SET activity_at = excluded.activity_at, emitted_at = now()
      WHERE n.activity_at < excluded.activity_at
    RETURNING enrollment_id AS id`)) as unknown as { rows: { id: string }[] };
  return new Set(result.rows.map((r) => r.id));
}

/**
 * The daily scan of `enrollment_inactive`: in each institution where something listens for it, every active
 * enrollment with no learning activity for the institution's `inactivity.enrollmentInactiveDays` gets one event
 * per inactivity period (new activity moves `lastActivityAt` past the notice and re-arms it). Each batch is one
 * transaction: the claims and their events commit together. Returns the number of events emitted.
 */
export async function emitEnrollmentInactivity(db: Db, at?: Date): Promise<number> {
  let emitted = 0;
  for (const tenantId of await listeningTenants(db)) {
    const days = (await getSettings(db, tenantId)).inactivity.enrollmentInactiveDays;
    for (;;) {
      // The clock is read per batch, as the user scan does: inactiveDays as of when the enrollment is found.
      const now = at ?? new Date();
      const cutoff = new Date(now.getTime() - days * DAY_MS).toISOString();
      const batch = await candidates(db, tenantId, cutoff);
      if (batch.length === 0) break;
      emitted += await db.transaction(async (tx) => {
        const claimed = await claim(tx, tenantId, batch);
        const mine = batch.filter((c) => claimed.has(c.id));
        const records = await findEnrollments(
          tx,
          tenantId,
          mine.map((c) => c.id),
        );
        const people = new Map(
          (
            await findUsers(
              tx,
              tenantId,
              records.map((r) => r.userId),
              [],
            )
          ).map((u) => [u.id, u]),
        );
        const byId = new Map(mine.map((c) => [c.id, c]));
        await emitEvents(
          tx,
          tenantId,
          records.map((e) => {
            const c = byId.get(e.id) as Candidate;
            const user = people.get(e.userId);
            return {
              type: "enrollment_inactive" as const,
              data: {
                ...enrollmentAbout(e),
                lastActivityAt: c.lastActivityAt,
                inactiveDays: Math.floor((now.getTime() - Date.parse(c.activityAt)) / DAY_MS),
                thresholdDays: days,
                progressPercent: e.progressPercent,
                basis: "activity" as const,
              },
              actor: { type: "system" as const },
              subject: user === undefined ? null : subjectOf(user),
            };
          }),
        );
        return records.length;
      });
      if (batch.length < BATCH) break;
    }
  }
  return emitted;
}
