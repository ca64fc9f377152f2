import { gzipSync } from "node:zlib";
import { sql } from "drizzle-orm";
import type { Config } from "../../config/index.js";
import type { Executor } from "../../db/client.js";
import { queryRows } from "../../db/rows.js";
import { notFound } from "../../platform/errors/app-error.js";
import { type Issuer, issuerOf, OB_V3, sign, VC_V2 } from "./issuer.js";

/** Bits per status list: the W3C Bitstring Status List's minimum of 16 KiB, which hides which award is which. */
export const LIST_BITS = 131_072;

interface Snapshot {
  name: string;
  description: string;
  criteriaNarrative: string;
  criteriaUrl: string | null;
  alignment: { name: string; url: string; description?: string }[];
  tags: string[];
}

interface CredentialRow {
  id: string;
  badge_id: string;
  issued_at: string;
  expires_at: string | null;
  evidence: { url?: string; narrative?: string }[];
  achievement: Snapshot;
  recipient: { salt: string; identityHash: string };
  status_index: string;
  revoked: boolean;
  revocation_reason: string | null;
  tenant_name: string;
}

const ISO = (column: string) =>
  sql.raw(
    `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS ${column.replace("a.", "")}`,
  );

async function awardRow(db: Executor, tenantId: string, awardId: string): Promise<CredentialRow> {
  const [row] = await queryRows<CredentialRow>(
    db,
    sql`SELECT a.id, a.badge_id, ${ISO("a.issued_at")}, ${ISO("a.expires_at")}, a.evidence, a.achievement,
        a.recipient, a.status_index::text AS status_index, a.revoked, a.revocation_reason, t.name AS tenant_name
      FROM gamification_awards a JOIN tenants t ON t.id = a.tenant_id
      WHERE a.tenant_id = ${tenantId} AND a.id = ${awardId}`,
  );
  if (row === undefined) throw notFound();
  return row;
}

export const credentialUrl = (origin: string, id: string) => `${origin}/api/gamification/credentials/${id}`;
const statusListUrl = (origin: string, list: number) => `${origin}/api/gamification/status-lists/${list}`;
/** The badge's own id in every credential of it (OB 3.0 asks for a URI, not for a resolvable one). */
const achievementId = (badgeId: string) => `urn:uuid:${badgeId}`;

function profile(issuer: Issuer, name: string, origin: string) {
  return { id: issuer.did, type: ["Profile"], name, url: origin };
}

function achievement(row: CredentialRow) {
  const a = row.achievement;
  return {
    id: achievementId(row.badge_id),
    type: ["Achievement"],
    name: a.name,
    description: a.description,
    criteria: { narrative: a.criteriaNarrative, ...(a.criteriaUrl === null ? {} : { id: a.criteriaUrl }) },
    ...(a.alignment.length === 0
      ? {}
      : {
          alignment: a.alignment.map((x) => ({
            type: ["Alignment"],
            targetName: x.name,
            targetUrl: x.url,
            ...(x.description === undefined ? {} : { targetDescription: x.description }),
          })),
        }),
    ...(a.tags.length === 0 ? {} : { tag: a.tags }),
  };
}

/**
 * The award as an Open Badges 3.0 `OpenBadgeCredential` (a W3C Verifiable Credential 2.0), signed by the
 * institution's key, with the badge and recipient as awarded. The recipient is a salted SHA-256 of the e-mail
 * (an OB 3.0 IdentityObject), never the address. Its `credentialStatus` points at the institution's Bitstring
 * Status List, where revocation shows: the credential itself does not change when it is revoked.
 */
export async function badgeCredential(
  db: Executor,
  config: Config,
  tenantId: string,
  awardId: string,
  origin: string,
): Promise<Record<string, unknown>> {
  const row = await awardRow(db, tenantId, awardId);
  const issuer = await issuerOf(db, config, tenantId);
  const index = Number(row.status_index);
  const list = Math.floor(index / LIST_BITS);
  const credential = {
    "@context": [VC_V2, OB_V3],
    id: credentialUrl(origin, row.id),
    type: ["VerifiableCredential", "OpenBadgeCredential"],
    issuer: profile(issuer, row.tenant_name, origin),
    validFrom: row.issued_at,
    ...(row.expires_at === null ? {} : { validUntil: row.expires_at }),
    name: row.achievement.name,
    credentialSubject: {
      type: ["AchievementSubject"],
      identifier: [
        {
          type: "IdentityObject",
          identityHash: row.recipient.identityHash,
          identityType: "emailAddress",
          hashed: true,
          salt: row.recipient.salt,
        },
      ],
      achievement: achievement(row),
    },
    ...(row.evidence.length === 0
      ? {}
      : {
          evidence: row.evidence.map((e) => ({
            type: ["Evidence"],
            ...(e.url === undefined ? {} : { id: e.url }),
            ...(e.narrative === undefined ? {} : { narrative: e.narrative }),
          })),
        }),
    credentialStatus: {
      id: `${statusListUrl(origin, list)}#${index % LIST_BITS}`,
      type: "BitstringStatusListEntry",
      statusPurpose: "revocation",
      statusListIndex: String(index % LIST_BITS),
      statusListCredential: statusListUrl(origin, list),
    },
  };
  return sign(issuer, credential, row.issued_at);
}

/**
 * One of the institution's revocation lists as a signed `BitstringStatusListCredential`: bit i (from the most
 * significant bit of the first byte) is set when the award at index `list × 131,072 + i` is revoked. It reads the
 * revoked awards of this range only, through their partial index.
 */
export async function statusList(
  db: Executor,
  config: Config,
  tenantId: string,
  list: number,
  origin: string,
): Promise<Record<string, unknown>> {
  const first = list * LIST_BITS;
  const revoked = await queryRows<{ i: string }>(
    db,
    sql`SELECT status_index::text AS i FROM gamification_awards WHERE tenant_id = ${tenantId} AND revoked
      AND status_index >= ${first} AND status_index < ${first + LIST_BITS}`,
  );
  const bits = Buffer.alloc(LIST_BITS / 8);
  for (const { i } of revoked) {
    const bit = Number(i) - first;
    bits[bit >> 3] = (bits[bit >> 3] as number) | (0x80 >> (bit & 7));
  }
  const [tenant] = await queryRows<{ name: string }>(
    db,
    sql`SELECT name FROM tenants WHERE id = ${tenantId}`,
  );
  const issuer = await issuerOf(db, config, tenantId);
  const now = new Date().toISOString().replace(/\.\d{3}Z$/, "Z");
  const credential = {
    "@context": [VC_V2],
    id: statusListUrl(origin, list),
    type: ["VerifiableCredential", "BitstringStatusListCredential"],
    issuer: { id: issuer.did, name: tenant?.name ?? "" },
    validFrom: now,
    credentialSubject: {
      id: `${statusListUrl(origin, list)}#list`,
      type: "BitstringStatusList",
      statusPurpose: "revocation",
      encodedList: `u${gzipSync(bits).toString("base64url")}`,
    },
  };
  return sign(issuer, credential, now);
}

/**
 * The same award as an Open Badges 2.0 hosted assertion (unsigned; its `verification` is this URL): the badge
 * class and the issuer are hosted beside it. A revoked assertion says so (`revoked`, `revocationReason`).
 */
export async function hostedAssertion(db: Executor, tenantId: string, awardId: string, origin: string) {
  const row = await awardRow(db, tenantId, awardId);
  const id = `${origin}/api/gamification/assertions/${row.id}`;
  if (row.revoked) {
    return {
      "@context": "https://w3id.org/openbadges/v2",
      id,
      type: "Assertion",
      revoked: true,
      revocationReason: row.revocation_reason ?? "",
    };
  }
  return {
    "@context": "https://w3id.org/openbadges/v2",
    type: "Assertion",
    id,
    recipient: {
      type: "email",
      hashed: true,
      salt: row.recipient.salt,
      identity: row.recipient.identityHash,
    },
    badge: {
      type: "BadgeClass",
      id: achievementId(row.badge_id),
      name: row.achievement.name,
      description: row.achievement.description,
      criteria: {
        narrative: row.achievement.criteriaNarrative,
        ...(row.achievement.criteriaUrl === null ? {} : { id: row.achievement.criteriaUrl }),
      },
      issuer: { type: "Profile", id: origin, name: row.tenant_name, url: origin },
      tags: row.achievement.tags,
    },
    verification: { type: "hosted" },
    issuedOn: row.issued_at,
    ...(row.expires_at === null ? {} : { expires: row.expires_at }),
    ...(row.evidence.length === 0
      ? {}
      : { evidence: row.evidence.map((e) => ({ id: e.url, narrative: e.narrative })) }),
  };
}
