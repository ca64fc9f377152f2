import type { Executor } from "../../db/client.js";
import type { Role } from "../../platform/auth/types.js";
import { AppError, type DetailKey, notFound } from "../../platform/errors/app-error.js";
import { canonicalIds } from "../../platform/http/schemas.js";
import { cappedPageEnvelope } from "../../platform/pagination/capped.js";
import { pageWindow } from "../../platform/pagination/pagination.js";
import type { MailDeps } from "../email/service.js";
import { type Actor, eventActorOf } from "../events/actor.js";
import { emitEvent } from "../events/emit.js";
import { assertEmailAllowed } from "../settings/service.js";
import { adminRequired, mayAssignRole } from "../users/service.js";
import { acceptUrl, issueInvitation, mailInvitation, newToken } from "./issue.js";
import { inviteConflict, invitedRoleDiffers, lifecycleOf } from "./lifecycle.js";
import * as repo from "./repo.js";
import {
  type CreateInviteInput,
  DEFAULT_TTL_DAYS,
  type InviteRecord,
  type IssuedInviteRecord,
  type ListInvitesQueryType,
  MAX_TTL_DAYS,
} from "./schemas.js";
import { countInvites } from "./totals.js";

export { acceptInvite, acceptInviteLimited } from "./accept.js";

const DAY_MS = 24 * 3600 * 1000;

export { acceptUrl } from "./issue.js";

/** The expiry asked for, or the default; in the future and at most 90 days ahead. */
function expiryOf(requested: string | undefined, now = Date.now()): string {
  if (requested === undefined) return new Date(now + DEFAULT_TTL_DAYS * DAY_MS).toISOString();
  const at = Date.parse(requested);
  if (at <= now)
    throw new AppError("validation_failed", {
      details: [{ field: "expiresAt", key: "field.future_required" }],
    });
  if (at > now + MAX_TTL_DAYS * DAY_MS) {
    throw new AppError("validation_failed", {
      details: [{ field: "expiresAt", key: "field.max_days_ahead", params: { days: MAX_TTL_DAYS } }],
    });
  }
  return new Date(at).toISOString();
}

async function assertReferencesExist(
  tx: Executor,
  tenantId: string,
  courseIds: string[],
  classGroupIds: string[],
): Promise<void> {
  const [courses, groups] = await Promise.all([
    repo.missingCourses(tx, tenantId, courseIds),
    repo.missingClassGroups(tx, tenantId, classGroupIds),
  ]);
  const details: DetailKey[] = [
    ...courses.map((id) => ({
      field: `courseIds[${courseIds.indexOf(id)}]`,
      key: "field.unknown_course",
      params: { id },
    })),
    ...groups.map((id) => ({
      field: `classGroupIds[${classGroupIds.indexOf(id)}]`,
      key: "field.unknown_class_group",
      params: { id },
    })),
  ];
  if (details.length > 0) throw new AppError("validation_failed", { details });
}

/**
 * No second live invitation, and no invitation for an address whose account is in use. An `invited` account
 * (created with `sendInvite`) is what an invitation is for: accepting it activates that account, so the
 * invitation must carry that account's role. Otherwise an invitation anyone may send (a student's) would
 * activate an administrator's account.
 */
async function assertAddressFree(
  tx: Executor,
  tenantId: string,
  email: string,
  role: string,
  exceptId?: string,
): Promise<void> {
  await repo.lockAddress(tx, tenantId, email);
  const account = await repo.accountOf(tx, tenantId, email);
  if (account !== undefined && account.status !== "invited") {
    throw new AppError("conflict", { messageKey: "conflict.email_taken" });
  }
  if (account !== undefined && account.role !== role) throw invitedRoleDiffers();
  if (await repo.hasLivePendingInvite(tx, tenantId, email, exceptId)) throw inviteConflict("pending");
}

export async function listInvites(db: Executor, tenantId: string, query: ListInvitesQueryType) {
  const window = pageWindow(query);
  const filter = { status: query.status, email: query.email };
  const [data, total] = await Promise.all([
    repo.listInvites(db, tenantId, filter, query.sort ?? "-createdAt", window),
    countInvites(db, tenantId, filter),
  ]);
  return cappedPageEnvelope(data, total, window);
}

export async function getInvite(db: Executor, tenantId: string, id: string): Promise<InviteRecord> {
  const invite = await repo.findInvite(db, tenantId, id);
  if (invite === undefined) throw notFound();
  return invite;
}

/**
 * Creates an invitation and answers its token once. Inviting an administrator needs an administrator's session:
 * whoever holds the token can become one.
 */
export async function createInvite(
  db: Executor,
  tenantId: string,
  actor: Actor,
  input: CreateInviteInput,
  mail: MailDeps,
): Promise<IssuedInviteRecord> {
  const role: Role = input.role ?? "student";
  if (!mayAssignRole(actor, role)) throw adminRequired();
  const expiresAt = expiryOf(input.expiresAt);
  const courseIds = canonicalIds(input.courseIds);
  const classGroupIds = canonicalIds(input.classGroupIds);
  return db.transaction(async (tx) => {
    await assertEmailAllowed(tx, tenantId, input.email);
    await assertReferencesExist(tx, tenantId, courseIds, classGroupIds);
    await assertAddressFree(tx, tenantId, input.email, role);
    const { invite, token } = await issueInvitation(
      tx,
      tenantId,
      actor,
      {
        email: input.email,
        name: input.name ?? null,
        role,
        courseIds,
        classGroupIds,
        message: input.message ?? null,
        locale: input.locale ?? null,
        expiresAt,
      },
      mail,
    );
    return { ...invite, token, acceptUrl: acceptUrl(mail.origin, token) };
  });
}

/**
 * Sends a pending (or lapsed) invitation again: a new token replaces the old one, which stops working, and the
 * expiry moves to 14 days from now. Accepted and revoked invitations are final (409).
 */
export async function resendInvite(
  db: Executor,
  tenantId: string,
  actor: Actor,
  id: string,
  mail: MailDeps,
): Promise<IssuedInviteRecord> {
  const { token, hash } = newToken();
  return db.transaction(async (tx) => {
    const current = await repo.findInvite(tx, tenantId, id, true);
    if (current === undefined) throw notFound();
    if (current.status === "accepted" || current.status === "revoked") throw inviteConflict(current.status);
    // A fresh token for an administrator's invitation is as powerful as a new one.
    if (!mayAssignRole(actor, current.role)) throw adminRequired();
    await assertAddressFree(tx, tenantId, current.email, current.role, current.id);
    await repo.reissue(tx, tenantId, id, hash, expiryOf(undefined));
    const invite = (await repo.findInvite(tx, tenantId, id)) as InviteRecord;
    await emitEvent(tx, {
      tenantId,
      type: "invite_sent",
      data: lifecycleOf(invite),
      actor: eventActorOf(actor),
    });
    const locale = await repo.localeOf(tx, tenantId, id);
    await mailInvitation(tx, tenantId, mail, "invite_reminder", invite, token, locale);
    return { ...invite, token, acceptUrl: acceptUrl(mail.origin, token) };
  });
}

/**
 * Revokes an invitation: its token stops working. Revoking twice changes nothing; an accepted one is 409. An
 * administrator's invitation is revoked only by an administrator's session, as it is issued and resent.
 */
export async function revokeInvite(db: Executor, tenantId: string, actor: Actor, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    const current = await repo.findInvite(tx, tenantId, id, true);
    if (current === undefined) throw notFound();
    if (current.status === "accepted") throw inviteConflict("accepted");
    // Whoever may not invite an administrator may not withdraw an administrator's invitation either: it would
    // let a narrower key block an administrator's onboarding.
    if (!mayAssignRole(actor, current.role)) throw adminRequired();
    if (current.status === "revoked") return;
    await repo.setStatus(tx, tenantId, id, "revoked");
    await emitEvent(tx, {
      tenantId,
      type: "invite_revoked",
      data: lifecycleOf((await repo.findInvite(tx, tenantId, id)) as InviteRecord),
      actor: eventActorOf(actor),
    });
  });
}
