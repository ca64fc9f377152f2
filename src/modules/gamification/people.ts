import { sql } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import { queryRows } from "../../db/rows.js";
import type { Principal } from "../../platform/auth/types.js";
import { AppError, notFound, validationError } from "../../platform/errors/app-error.js";
import { pageEnvelope, pageWindow } from "../../platform/pagination/pagination.js";
import { type Actor, eventActorOf, subjectOf } from "../events/actor.js";
import type { EventSubject } from "../events/catalogue.js";
import { emitEvents } from "../events/emit.js";
import { AWARD_COLUMNS, type AwardRow, awardRecord, credentialPath, grantBadge } from "./awards.js";
import { rankOf, type Viewer } from "./leaderboard.js";
import { addPoints } from "./ledger.js";
import type { AwardRecord, LedgerRecord } from "./schemas.js";
import { levelOf, readSettings } from "./settings.js";

/** A student's session reads its own points, ledger and badges; another user's are 404 to it. */
export function viewerOf(principal: Principal): Viewer {
  return principal.kind === "session" && principal.role === "student"
    ? { kind: "learner", userId: principal.userId }
    : { kind: "staff" };
}

function assertMayRead(viewer: Viewer, userId: string): void {
  if (viewer.kind === "learner" && viewer.userId !== userId) throw notFound();
}

async function userOf(db: Executor, tenantId: string, userId: string): Promise<EventSubject | undefined> {
  const [row] = await queryRows<EventSubject>(
    db,
    sql`SELECT id, name, email, role FROM users WHERE tenant_id = ${tenantId} AND id = ${userId}`,
  );
  return row === undefined ? undefined : subjectOf(row);
}

/** How an award made through the API is recorded: by a user (a session) or by an integration (a key). */
const awardedByOf = (actor: Actor) =>
  actor.kind === "key" ? "api" : actor.kind === "session" ? "user" : "automation";

export async function userSummary(
  db: Executor,
  tenantId: string,
  userId: string,
  viewer: Viewer,
  origin: string,
) {
  assertMayRead(viewer, userId);
  if ((await userOf(db, tenantId, userId)) === undefined) throw notFound();
  const settings = await readSettings(db, tenantId);
  const [balance] = await queryRows<{ points: number }>(
    db,
    sql`SELECT points::float8 AS points FROM gamification_balances WHERE tenant_id = ${tenantId}
      AND user_id = ${userId}`,
  );
  const points = balance?.points ?? 0;
  const level = levelOf(settings.levels, points);
  const badges = await queryRows<AwardRow>(
    db,
    sql`SELECT ${AWARD_COLUMNS} FROM gamification_awards a WHERE a.tenant_id = ${tenantId}
      AND a.user_id = ${userId} AND NOT a.revoked ORDER BY a.issued_at DESC, a.id DESC LIMIT 100`,
  );
  return {
    userId,
    points,
    level: level.level,
    levelName: level.name,
    rank: await rankOf(db, tenantId, userId, settings.leaderboard.period),
    badges: badges.map((row) => awardRecord(row, origin)),
  };
}

/** Newest first; the total is the balance row's entry counter (exact, no count). */
export async function ledgerPage(
  db: Executor,
  tenantId: string,
  userId: string,
  query: { page?: number; perPage?: number },
  viewer: Viewer,
) {
  assertMayRead(viewer, userId);
  if ((await userOf(db, tenantId, userId)) === undefined) throw notFound();
  const window = pageWindow(query);
  const rows = await queryRows<LedgerRecord>(
    db,
    sql`SELECT id, user_id AS "userId", points, reason, rule_event AS "ruleEvent", event_id AS "eventId",
        course_id AS "courseId", note, balance_after::float8 AS "balanceAfter",
        to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "createdAt"
      FROM gamification_ledger WHERE tenant_id = ${tenantId} AND user_id = ${userId}
      ORDER BY created_at DESC, id DESC LIMIT ${window.limit} OFFSET ${window.offset}`,
  );
  const [count] = await queryRows<{ n: number }>(
    db,
    sql`SELECT entries AS n FROM gamification_balances WHERE tenant_id = ${tenantId} AND user_id = ${userId}`,
  );
  return pageEnvelope(rows, count?.n ?? 0, window);
}

/**
 * Points by hand: positive as `manual`, negative as `adjustment`. One ledger entry, the balance and leaderboards,
 * and `points_awarded` (with `level_up` and threshold badges when reached) in one transaction.
 */
export async function grantPoints(
  db: Executor,
  tenantId: string,
  input: { userId: string; points: number; note: string; courseId?: string | null },
  actor: Actor,
): Promise<LedgerRecord> {
  if (input.points === 0) throw validationError("points", "field.invalid");
  return db.transaction(async (tx) => {
    const subject = await userOf(tx, tenantId, input.userId);
    if (subject === undefined) throw validationError("userId", "field.unknown_user", { id: input.userId });
    const courseId = input.courseId ?? null;
    if (courseId !== null) {
      const found = await queryRows(
        tx,
        sql`SELECT 1 FROM courses WHERE tenant_id = ${tenantId} AND id = ${courseId}`,
      );
      if (found.length === 0) throw validationError("courseId", "field.unknown_course", { id: courseId });
    }
    const settings = await readSettings(tx, tenantId);
    const added = await addPoints(
      tx,
      tenantId,
      {
        userId: subject.id,
        subject,
        points: input.points,
        reason: input.points > 0 ? "manual" : "adjustment",
        ruleEvent: null,
        sourceKey: null,
        eventId: null,
        courseId,
        note: input.note,
        actor: eventActorOf(actor),
      },
      settings,
    );
    if (added === undefined) throw new AppError("internal_error");
    await emitEvents(tx, tenantId, added.followUps);
    const [entry] = (await ledgerPage(tx, tenantId, subject.id, { perPage: 1 }, { kind: "staff" })).data;
    return entry as LedgerRecord;
  });
}

/** Awards a badge by hand to up to 500 users; users holding it already are listed, not awarded twice. */
export async function awardBadge(
  db: Executor,
  tenantId: string,
  badgeId: string,
  input: { userIds: string[]; evidence?: AwardRow["evidence"] },
  actor: Actor,
  origin: string,
): Promise<{ awarded: AwardRecord[]; alreadyHeld: string[] }> {
  return db.transaction(async (tx) => {
    const [badge] = await queryRows<{
      id: string;
      name: string;
      expires_after_days: number | null;
      status: string;
    }>(
      tx,
      sql`SELECT id, name, expires_after_days, status FROM gamification_badges
        WHERE tenant_id = ${tenantId} AND id = ${badgeId} FOR SHARE`,
    );
    if (badge === undefined) throw notFound();
    if (badge.status !== "active") throw new AppError("conflict");
    const users = await queryRows<EventSubject>(
      tx,
      sql`SELECT id, name, email, role FROM users WHERE tenant_id = ${tenantId}
        AND id IN (${sql.join(
          input.userIds.map((id) => sql`${id}`),
          sql`, `,
        )})`,
    );
    const known = new Set(users.map((u) => u.id));
    const unknown = input.userIds.findIndex((id) => !known.has(id));
    if (unknown >= 0) {
      throw validationError(`userIds.${unknown}`, "field.unknown_user", {
        id: input.userIds[unknown] as string,
      });
    }
    const awarded: AwardRecord[] = [];
    const alreadyHeld: string[] = [];
    const events = [];
    for (const user of users) {
      const granted = await grantBadge(tx, tenantId, badge, subjectOf(user), {
        awardedBy: awardedByOf(actor),
        actor: eventActorOf(actor),
        evidence: input.evidence,
      });
      if (granted === undefined) alreadyHeld.push(user.id);
      else {
        awarded.push(awardRecord(granted.row, origin));
        events.push(granted.event);
      }
    }
    await emitEvents(tx, tenantId, events);
    return { awarded, alreadyHeld };
  });
}

/** Revokes an award: its credential's status list shows it from then on; emits `badge_revoked`. 409 if revoked. */
export async function revokeAward(
  db: Executor,
  tenantId: string,
  awardId: string,
  reason: string,
  actor: Actor,
): Promise<void> {
  await db.transaction(async (tx) => {
    const [row] = await queryRows<{
      revoked: boolean;
      badge_id: string;
      user_id: string;
      awarded_by: string;
      name: string;
    }>(
      tx,
      sql`SELECT a.revoked, a.badge_id, a.user_id, a.awarded_by, b.name FROM gamification_awards a
        JOIN gamification_badges b ON b.tenant_id = a.tenant_id AND b.id = a.badge_id
        WHERE a.tenant_id = ${tenantId} AND a.id = ${awardId} FOR UPDATE OF a`,
    );
    if (row === undefined) throw notFound();
    if (row.revoked) throw new AppError("conflict");
    await tx.execute(sql`UPDATE gamification_awards SET revoked = true, revoked_at = now(),
      revocation_reason = ${reason} WHERE tenant_id = ${tenantId} AND id = ${awardId}`);
    await tx.execute(sql`UPDATE gamification_badges SET awarded_count = awarded_count - 1
      WHERE tenant_id = ${tenantId} AND id = ${row.badge_id}`);
    const subject = (await userOf(tx, tenantId, row.user_id)) as EventSubject;
    const data = {
      awardId,
      badgeId: row.badge_id,
      badgeName: row.name,
      userId: row.user_id,
      awardedBy: row.awarded_by as AwardRecord["awardedBy"],
      credentialPath: credentialPath(awardId),
      reason,
    };
    await emitEvents(tx, tenantId, [{ type: "badge_revoked", data, actor: eventActorOf(actor), subject }]);
  });
}
