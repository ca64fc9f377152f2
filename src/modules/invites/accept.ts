import type { PlanConfig } from "../../config/plans.js";
import type { Db, Executor } from "../../db/client.js";
import { hashPassword, sha256Hex } from "../../platform/auth/secrets.js";
import { AppError, notFound } from "../../platform/errors/app-error.js";
import { type LimiterFactory, rateLimited, secondsUntil } from "../../platform/rate-limit/limiter.js";
import { bulkEnroll } from "../enrollments/bulk-enroll.js";
import { emitEvent } from "../events/emit.js";
import type { UserRecord } from "../users/schemas.js";
import { createUser, updateUser } from "../users/service.js";
import { inviteConflict, invitedRoleDiffers, lifecycleOf } from "./lifecycle.js";
import * as repo from "./repo.js";
import type { AcceptInviteInput, InviteRecord } from "./schemas.js";

export interface AcceptDeps {
  db: Db;
  plans: PlanConfig;
}

function assertAcceptable(invite: InviteRecord | undefined): asserts invite is InviteRecord {
  if (invite === undefined) throw notFound();
  if (invite.status !== "pending") throw inviteConflict(invite.status);
}

/**
 * Turns an invitation into an active user with a password, in one transaction: the user (counted against the
 * plan's student limit: 422 or 503, nothing created), the class memberships still possible (classes deleted since
 * are left out), the enrollments in the invitation's courses (likewise), the invitation marked accepted,
 * `user_created`, `invite_accepted` and `enrollment_created`. The invitation row is
 * locked first, so two concurrent acceptances of one token create exactly one user; the second gets 409.
 */
export async function acceptInvite(
  deps: AcceptDeps,
  tenantId: string,
  input: AcceptInviteInput,
): Promise<UserRecord> {
  const tokenHash = sha256Hex(input.token);
  // A cheap look first, so unknown or used tokens cost no password hashing; the transaction checks again.
  const glance = await repo.findByTokenHash(deps.db, tenantId, tokenHash);
  assertAcceptable(glance);
  const name = input.name ?? glance.name;
  if (name === null) {
    throw new AppError("validation_failed", { details: [{ field: "name", key: "field.required" }] });
  }
  // scrypt takes a while on purpose: never while holding the locks below.
  const passwordHash = await hashPassword(input.password);
  return deps.db.transaction(async (tx) => {
    const invite = await repo.findByTokenHash(tx, tenantId, tokenHash, true);
    assertAcceptable(invite);
    const account = await repo.accountOf(tx, tenantId, invite.email);
    // An account created with `sendInvite` is the one this invitation activates (its seat and classes are
    // already its own); anything else gets a new account, and an address in use is 409 from createUser. The
    // invitation grants its own role and no other: it never activates an account holding a different one.
    if (account?.status === "invited" && account.role !== invite.role) throw invitedRoleDiffers();
    const user =
      account?.status === "invited"
        ? await updateUser(tx, deps.plans, tenantId, SYSTEM, account.id, {
            status: "active",
            ...(input.name === undefined ? {} : { name: input.name }),
          })
        : // The invitee has no way to give the institution's required profile fields (the invitation carries
          // none): staff complete them later, and every later edit of them is checked.
          await createUser(
            tx,
            deps.plans,
            tenantId,
            SYSTEM,
            {
              name,
              email: invite.email,
              role: invite.role,
              classGroupIds: await existingOf(tx, tenantId, invite.classGroupIds),
            },
            { profileRequired: false },
          );
    await repo.insertPasswordHash(tx, tenantId, user.id, passwordHash);
    await repo.setStatus(tx, tenantId, invite.id, "accepted", user.id);
    const accepted = (await repo.findInvite(tx, tenantId, invite.id)) as InviteRecord;
    await emitEvent(tx, {
      tenantId,
      type: "invite_accepted",
      data: { ...lifecycleOf(accepted), userId: user.id },
      actor: { type: "user", id: user.id },
      subject: { id: user.id, name: user.name, email: user.email, role: user.role },
    });
    await enrollInInvitedCourses(tx, deps.plans, tenantId, invite, user);
    return user;
  });
}

const SYSTEM = { kind: "system" } as const;

/** The invitation's class groups that still exist (deleted ones are left out rather than refused). */
async function existingOf(tx: Executor, tenantId: string, ids: readonly string[]): Promise<string[]> {
  const gone = new Set(await repo.missingClassGroups(tx, tenantId, [...ids]));
  return ids.filter((id) => !gone.has(id));
}

/**
 * Enrolls the new user in the invitation's courses (source `invite`); courses deleted since are left out. A
 * student is enrolled as a student; a teacher or administrator as the course's teacher, so an invitation never
 * puts staff on the plan's student count.
 */
async function enrollInInvitedCourses(
  tx: Executor,
  plans: PlanConfig,
  tenantId: string,
  invite: InviteRecord,
  user: UserRecord,
): Promise<void> {
  if (invite.courseIds.length === 0) return;
  const role = user.role === "student" ? "student" : "teacher";
  const items = invite.courseIds.map((courseId) => ({ userId: user.id, courseId, role }) as const);
  await bulkEnroll(tx, plans, tenantId, { kind: "system" }, items, { source: "invite" });
}

export interface AcceptLimit {
  limiters: LimiterFactory;
  /** Failed acceptances allowed per IP within the window (the login budget). */
  maxPerIp: number;
  windowSeconds: number;
}

const PREFIX = "invite-accept:ip";

/**
 * `acceptInvite` behind a per-IP budget of failures, like sign-in: each attempt takes a point before the token is
 * looked up (an atomic count, so a burst of guesses cannot all pass) and gives it back when it succeeds.
 */
export async function acceptInviteLimited(
  deps: AcceptDeps & AcceptLimit,
  tenantId: string,
  ip: string,
  input: AcceptInviteInput,
): Promise<UserRecord> {
  const window = await deps.limiters.consume(PREFIX, ip, deps.maxPerIp, deps.windowSeconds);
  if (!window.allowed) throw rateLimited(secondsUntil(window.msBeforeNext));
  const user = await acceptInvite(deps, tenantId, input);
  await deps.limiters.refund(PREFIX, ip, deps.maxPerIp, deps.windowSeconds);
  return user;
}
