/** The documented examples of the gamification schemas (the OpenAPI document shows one per body and answer). */
const ID = "3f6c2a1e-8b4d-4c7e-9a10-2b3c4d5e6f70";
const USER = "9b2e7c1a-4f3d-4e8b-a6c5-1d2f3e4a5b6c";
const BADGE = "0d1f2e3c-4b5a-4678-9abc-def012345678";
const AT = "2026-03-10T15:00:00.000Z";

export const SETTINGS_EXAMPLE = {
  enabled: true,
  pointRules: [
    { event: "lesson_completed", points: 10, multiplyByScore: false, cooldownSeconds: 20, dailyCap: 200 },
    { event: "quiz_submitted", points: 50, multiplyByScore: true, cooldownSeconds: 0, dailyCap: null },
  ],
  levels: [
    { level: 1, name: "Novice", minPoints: 0 },
    { level: 2, name: "Explorer", minPoints: 100 },
  ],
  leaderboard: { enabled: true, scope: "course" as const, period: "month" as const, anonymize: true },
  updatedAt: AT,
};

export const SETTINGS_PATCH_EXAMPLE = {
  enabled: true,
  pointRules: [{ event: "lesson_completed", points: 10, cooldownSeconds: 20, dailyCap: 200 }],
};

export const BADGE_EXAMPLE = {
  id: BADGE,
  name: "Primeiros passos",
  description: "Completed the first course.",
  imageMediaId: "6a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d",
  criteriaNarrative: "Complete the onboarding course.",
  criteriaUrl: "https://escola.example.com/criteria/primeiros-passos",
  alignment: [{ name: "BNCC EF01", url: "https://example.org/bncc/ef01" }],
  tags: ["onboarding"],
  awardRule: { type: "course_completion" as const, courseId: "5d0c2f4e-3b7a-4c11-9e52-0a7f6c1d2e31" },
  expiresAfterDays: null,
  status: "active" as const,
  awardedCount: 12,
  createdAt: AT,
  updatedAt: AT,
};

export const CREATE_BADGE_EXAMPLE = {
  name: BADGE_EXAMPLE.name,
  description: BADGE_EXAMPLE.description,
  imageMediaId: BADGE_EXAMPLE.imageMediaId,
  criteriaNarrative: BADGE_EXAMPLE.criteriaNarrative,
  awardRule: BADGE_EXAMPLE.awardRule,
};

export const AWARD_EXAMPLE = {
  id: ID,
  badgeId: BADGE,
  userId: USER,
  issuedAt: AT,
  expiresAt: null,
  evidence: [{ narrative: "Finished every lesson in the first week." }],
  awardedBy: "user" as const,
  revoked: false,
  revocationReason: null,
  credentialUrl: `https://escola.example.com/api/gamification/credentials/${ID}`,
  assertionUrl: `https://escola.example.com/api/gamification/assertions/${ID}`,
};

export const LEDGER_EXAMPLE = {
  id: ID,
  userId: USER,
  points: 10,
  reason: "rule" as const,
  ruleEvent: "lesson_completed",
  eventId: "2c4e6a8b-0d1f-4a3b-9c5d-7e9f1a3b5c7d",
  courseId: "5d0c2f4e-3b7a-4c11-9e52-0a7f6c1d2e31",
  note: null,
  balanceAfter: 120,
  createdAt: AT,
};

export const STANDING_EXAMPLE = { rank: 1, userId: USER, name: "Ana Souza", points: 120, me: false };

export const SUMMARY_EXAMPLE = {
  userId: USER,
  points: 120,
  level: 2,
  levelName: "Explorer",
  rank: 4,
  badges: [AWARD_EXAMPLE],
};

const ISSUER = "did:key:z6MkvHsxdvsq1fvVfA25CkgxZVUPkmSW5S5hMWtwEUZ27BTA";
const PROOF = {
  type: "DataIntegrityProof",
  created: "2026-03-10T15:00:00Z",
  verificationMethod: `${ISSUER}#z6MkvHsxdvsq1fvVfA25CkgxZVUPkmSW5S5hMWtwEUZ27BTA`,
  cryptosuite: "eddsa-rdfc-2022",
  proofPurpose: "assertionMethod",
  proofValue: "z3YKkFKnNpLmgX3sX4s3gKCmtFNaPgwd4N5s3gYTvqp4TZhuQgCXoVc477KU6TZaytoV2Zdcj53ZpK5iXF4MZhi8v",
};

export const CREDENTIAL_EXAMPLE = {
  "@context": [
    "https://www.w3.org/ns/credentials/v2",
    "https://purl.imsglobal.org/spec/ob/v3p0/context-3.0.3.json",
  ],
  id: AWARD_EXAMPLE.credentialUrl,
  type: ["VerifiableCredential", "OpenBadgeCredential"],
  issuer: { id: ISSUER, type: ["Profile"], name: "Escola Exemplo", url: "https://escola.example.com" },
  validFrom: "2026-03-10T15:00:00Z",
  name: BADGE_EXAMPLE.name,
  credentialSubject: {
    type: ["AchievementSubject"],
    identifier: [
      {
        type: "IdentityObject",
        identityHash: "sha256$4b1d3c0b2f0e5a8d6c7e9f1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e",
        identityType: "emailAddress",
        hashed: true,
        salt: "6f1e2d3c4b5a69788796a5b4c3d2e1f0",
      },
    ],
    achievement: {
      id: `urn:uuid:${BADGE}`,
      type: ["Achievement"],
      name: BADGE_EXAMPLE.name,
      description: BADGE_EXAMPLE.description,
      criteria: { narrative: BADGE_EXAMPLE.criteriaNarrative },
    },
  },
  credentialStatus: {
    id: "https://escola.example.com/api/gamification/status-lists/0#1234",
    type: "BitstringStatusListEntry",
    statusPurpose: "revocation",
    statusListIndex: "1234",
    statusListCredential: "https://escola.example.com/api/gamification/status-lists/0",
  },
  proof: PROOF,
};

export const STATUS_LIST_EXAMPLE = {
  "@context": ["https://www.w3.org/ns/credentials/v2"],
  id: "https://escola.example.com/api/gamification/status-lists/0",
  type: ["VerifiableCredential", "BitstringStatusListCredential"],
  issuer: { id: ISSUER, name: "Escola Exemplo" },
  validFrom: "2026-03-10T15:00:00Z",
  credentialSubject: {
    id: "https://escola.example.com/api/gamification/status-lists/0#list",
    type: "BitstringStatusList",
    statusPurpose: "revocation",
    encodedList: "uH4sIAAAAAAAAA-3BMQEAAADCoPVPbQwfoAAAAAAAAAAAAAAAAAAAAIC3AYbSVKsAQAAA",
  },
  proof: PROOF,
};

export const ASSERTION_EXAMPLE = {
  "@context": "https://w3id.org/openbadges/v2",
  type: "Assertion",
  id: AWARD_EXAMPLE.assertionUrl,
  recipient: { type: "email", hashed: true, salt: "6f1e2d3c", identity: "sha256$4b1d3c0b" },
  badge: { type: "BadgeClass", id: `urn:uuid:${BADGE}`, name: BADGE_EXAMPLE.name },
  verification: { type: "hosted" },
  issuedOn: AT,
};
