import { sql } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import { queryRows } from "../../db/rows.js";
import type { EventActor, EventSubject } from "../events/catalogue.js";
import type { AwardRecord } from "./schemas.js";

export type AwardedBy = AwardRecord["awardedBy"];

interface BadgeAbout {
  awardId: string;
  badgeId: string;
  badgeName: string;
  userId: string;
  awardedBy: AwardedBy;
  credentialPath: string;
}

export type BadgeFollowUp =
  | { type: "badge_awarded"; data: BadgeAbout; actor: EventActor; subject: EventSubject }
  | {
      type: "badge_revoked";
      data: BadgeAbout & { reason: string };
      actor: EventActor;
      subject: EventSubject;
    };

export const credentialPath = (awardId: string) => `/api/gamification/credentials/${awardId}`;

export interface BadgeRef {
  id: string;
  name: string;
  expires_after_days: number | null;
}

export interface AwardRow {
  id: string;
  badge_id: string;
  user_id: string;
  issued_at: string;
  expires_at: string | null;
  evidence: { url?: string; narrative?: string }[];
  awarded_by: AwardedBy;
  revoked: boolean;
  revocation_reason: string | null;
}

const ISO = (column: string) =>
  sql.raw(`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`);

export const AWARD_COLUMNS = sql`a.id, a.badge_id, a.user_id, ${ISO("a.issued_at")} AS issued_at,
  ${ISO("a.expires_at")} AS expires_at, a.evidence, a.awarded_by, a.revoked, a.revocation_reason`;

export function awardRecord(row: AwardRow, origin: string): AwardRecord {
  return {
    id: row.id,
    badgeId: row.badge_id,
    userId: row.user_id,
    issuedAt: row.issued_at,
    expiresAt: row.expires_at,
    evidence: row.evidence,
    awardedBy: row.awarded_by,
    revoked: row.revoked,
    revocationReason: row.revocation_reason,
    credentialUrl: `${origin}${credentialPath(row.id)}`,
    assertionUrl: `${origin}/api/gamification/assertions/${row.id}`,
  };
}

/**
 * Awards a badge to a user who does not hold it (a revoked award does not count), written once: the partial
 * unique index on held awards makes a concurrent second award of the same badge a no-op. The badge's counter
 * moves in the same statement's transaction. Returns the award and its event, or undefined when already held.
 */
export async function grantBadge(
  tx: Executor,
  tenantId: string,
  badge: BadgeRef,
  subject: EventSubject,
  how: { awardedBy: AwardedBy; actor: EventActor; evidence?: AwardRow["evidence"]; eventId?: string | null },
): Promise<{ row: AwardRow; event: BadgeFollowUp } | undefined> {
  // The badge and the recipient are copied as they are now: the credential shows them as they were awarded.
  const [row] = await queryRows<AwardRow>(
    tx,
    sql`WITH inserted AS (
        INSERT INTO gamification_awards AS a (tenant_id, badge_id, user_id, expires_at, evidence, awarded_by,
          event_id, achievement, recipient)
        SELECT b.tenant_id, b.id, u.id,
          CASE WHEN b.expires_after_days IS NULL THEN NULL ELSE now() + make_interval(days => b.expires_after_days) END,
          ${JSON.stringify(how.evidence ?? [])}::jsonb, ${how.awardedBy}, ${how.eventId ?? null},
          jsonb_build_object('name', b.name, 'description', b.description, 'criteriaNarrative',
            b.criteria_narrative, 'criteriaUrl', b.criteria_url, 'alignment', b.alignment, 'tags', to_jsonb(b.tags),
            'imageMediaId', b.image_media_id),
          jsonb_build_object('salt', s.salt, 'identityHash', 'sha256$' ||
            encode(sha256(convert_to(lower(u.email) || s.salt, 'UTF8')), 'hex'))
        FROM gamification_badges b
        JOIN users u ON u.tenant_id = b.tenant_id AND u.id = ${subject.id}
        CROSS JOIN (SELECT md5(gen_random_uuid()::text) AS salt) s
        WHERE b.tenant_id = ${tenantId} AND b.id = ${badge.id}
        ON CONFLICT (tenant_id, badge_id, user_id) WHERE NOT revoked DO NOTHING
        RETURNING a.*)
      SELECT ${AWARD_COLUMNS} FROM inserted a`,
  );
  if (row === undefined) return undefined;
  await tx.execute(sql`UPDATE gamification_badges SET awarded_count = awarded_count + 1
    WHERE tenant_id = ${tenantId} AND id = ${badge.id}`);
  const data = {
    awardId: row.id,
    badgeId: badge.id,
    badgeName: badge.name,
    userId: subject.id,
    awardedBy: how.awardedBy,
    credentialPath: credentialPath(row.id),
  };
  return { row, event: { type: "badge_awarded", data, actor: how.actor, subject } };
}

/** Points-threshold badges the new balance reaches and the user does not hold: awarded now, by rule. */
export async function awardThresholdBadges(
  tx: Executor,
  tenantId: string,
  who: { subject: EventSubject; actor: EventActor; eventId: string | null },
  balance: number,
): Promise<BadgeFollowUp[]> {
  const badges = await queryRows<BadgeRef>(
    tx,
    sql`SELECT b.id, b.name, b.expires_after_days FROM gamification_badges b
      WHERE b.tenant_id = ${tenantId} AND b.status = 'active' AND b.award_rule->>'type' = 'points_threshold'
        AND (b.award_rule->>'threshold')::bigint <= ${balance}
        AND NOT EXISTS (SELECT 1 FROM gamification_awards a WHERE a.tenant_id = b.tenant_id
          AND a.badge_id = b.id AND a.user_id = ${who.subject.id} AND NOT a.revoked)
      ORDER BY b.created_at, b.id LIMIT 100`,
  );
  const events: BadgeFollowUp[] = [];
  for (const badge of badges) {
    const granted = await grantBadge(tx, tenantId, badge, who.subject, {
      awardedBy: "rule",
      actor: who.actor,
      eventId: who.eventId,
    });
    if (granted !== undefined) events.push(granted.event);
  }
  return events;
}
