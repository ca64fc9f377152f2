import type { PlanConfig } from "../../config/plans.js";
import type { Executor } from "../../db/client.js";
import { notFound } from "../../platform/errors/app-error.js";
import { canonicalIds } from "../../platform/http/schemas.js";
import { cappedPageEnvelope } from "../../platform/pagination/capped.js";
import { pageWindow } from "../../platform/pagination/pagination.js";
import * as classes from "../classes/service.js";
import type { MailDeps } from "../email/service.js";
import { type Actor, eventActorOf, subjectOf } from "../events/actor.js";
import { type EventInput, emitEvent, emitEvents } from "../events/emit.js";
import { issueInvitation } from "../invites/issue.js";
import * as invitations from "../invites/repo.js";
import { DEFAULT_TTL_DAYS } from "../invites/schemas.js";
import { applyProfileValues, profileFilters } from "../profile-fields/service.js";
import { assertEmailAllowed } from "../settings/service.js";
import * as repo from "./repo.js";
import { assertMayAssignRole } from "./roles.js";
import type { CreateUserInput, ListUsersQueryType, UpdateUserInput, UserRecord } from "./schemas.js";
import { admitStudent, reserveStudentSeats } from "./student-limit.js";
import { assertAnotherAdminRemains, assertJoinable, emailTaken } from "./write-guards.js";

export { type BulkUserOutcome, bulkCreateUsers } from "./bulk-create.js";
export { adminRequired, mayAssignRole } from "./roles.js";
export {
  admitStudent,
  admitStudents,
  type PlanLimit,
  studentLimitReached,
  studentSeatsUsed,
} from "./student-limit.js";
export type { Actor };

export async function listUsers(db: Executor, tenantId: string, query: ListUsersQueryType) {
  const window = pageWindow(query);
  const filter = {
    search: query.search,
    role: query.role,
    status: query.status,
    classGroupId: query.classGroupId?.toLowerCase(),
    tag: query.tag?.toLowerCase(),
    email: query.email,
    createdSince: query.createdSince,
    profile: await profileFilters(db, tenantId, query),
  };
  const [data, total] = await Promise.all([
    repo.listUsers(db, tenantId, filter, query.sort ?? "-createdAt", window),
    repo.countUsers(db, tenantId, filter),
  ]);
  return cappedPageEnvelope(data, total, window);
}

export async function getUser(db: Executor, tenantId: string, id: string): Promise<UserRecord> {
  const user = await repo.findUser(db, tenantId, id);
  if (user === undefined) throw notFound();
  return user;
}

/**
 * Creates a user and its class memberships in one transaction. A student first reserves a seat under the plan's
 * limit; if anything fails, nothing is written. Emits `user_created`, then `class_member_added` per class.
 */
export async function createUser(
  db: Executor,
  plans: PlanConfig,
  tenantId: string,
  actor: Actor,
  input: CreateUserInput,
  options: {
    /** Whether the institution's required profile fields must be given (not when the caller cannot carry them). */
    profileRequired?: boolean;
    /** Where `sendInvite`'s mail links point, and the keyring sealing it; required with `sendInvite`. */
    mail?: MailDeps;
  } = {},
): Promise<UserRecord> {
  assertMayAssignRole(actor, input.role);
  const { mail } = options;
  if (input.sendInvite === true && mail === undefined) throw new Error("sendInvite needs mail deps");
  const groupIds = canonicalIds(input.classGroupIds);
  return db.transaction(async (tx) => {
    await assertEmailAllowed(tx, tenantId, input.email);
    if (input.role === "student") await reserveStudentSeats(tx, plans, tenantId);
    await assertJoinable(tx, tenantId, groupIds, groupIds);
    const id = await repo
      .insertUser(tx, tenantId, {
        name: input.name,
        email: input.email,
        role: input.role,
        status: input.sendInvite === true ? "invited" : "active",
      })
      .catch(emailTaken);
    await applyProfileValues(tx, tenantId, id, input.profileFields, {
      creating: options.profileRequired ?? true,
    });
    const inserted = (await repo.findUser(tx, tenantId, id)) as UserRecord;
    const subject = subjectOf(inserted);
    const role = classes.memberRoleFor(inserted.role);
    await classes.addMemberships(
      tx,
      tenantId,
      actor,
      groupIds.map((classGroupId) => ({ classGroupId, role, user: subject })),
    );
    // Read again once in its class groups: user_created carries the user as GET /users/:id answers it.
    const created =
      groupIds.length === 0 ? inserted : ((await repo.findUser(tx, tenantId, id)) as UserRecord);
    await emitEvent(tx, {
      tenantId,
      type: "user_created",
      data: { userId: created.id, role: created.role, status: created.status, user: created },
      actor: eventActorOf(actor),
      subject,
    });
    if (input.sendInvite === true) {
      await inviteToActivate(tx, tenantId, actor, created, groupIds, mail as MailDeps);
    }
    return created;
  });
}

const DAY_MS = 24 * 3600 * 1000;

/**
 * `sendInvite`: the `invited` account waits for an invitation, issued here in the same transaction (unless one is
 * already pending for the address). Its token is not in this response, whose shape the contract fixes: it goes
 * to the address in the invitation mail, written to the outbox in this transaction (an administrator can also
 * get a fresh one from `POST /invites/:id/resend`). Accepting activates this account with a password.
 */
async function inviteToActivate(
  tx: Executor,
  tenantId: string,
  actor: Actor,
  user: UserRecord,
  classGroupIds: string[],
  mail: MailDeps,
): Promise<void> {
  await invitations.lockAddress(tx, tenantId, user.email);
  if (await invitations.hasLivePendingInvite(tx, tenantId, user.email)) return;
  await issueInvitation(
    tx,
    tenantId,
    actor,
    {
      email: user.email,
      name: user.name,
      role: user.role,
      courseIds: [],
      classGroupIds,
      message: null,
      locale: null,
      expiresAt: new Date(Date.now() + DEFAULT_TTL_DAYS * DAY_MS).toISOString(),
    },
    mail,
  );
}

/** The fields of a PATCH whose value really differs from the stored one (class groups compared as sets). */
function changedFields(before: UserRecord, input: UpdateUserInput, groupIds: string[] | undefined): string[] {
  const changed: string[] = [];
  for (const field of ["name", "email", "role", "status"] as const) {
    if (input[field] !== undefined && input[field] !== before[field]) changed.push(field);
  }
  if (groupIds !== undefined) {
    const same =
      groupIds.length === before.classGroupIds.length &&
      groupIds.every((g) => before.classGroupIds.includes(g));
    if (!same) changed.push("classGroupIds");
  }
  return changed;
}

/** Whether a PATCH changes who the account is: its e-mail (the sign-in and invitation address) or its name. */
function changesIdentity(before: UserRecord, input: UpdateUserInput): boolean {
  return (
    (input.email !== undefined && input.email !== before.email) ||
    (input.name !== undefined && input.name !== before.name)
  );
}

/**
 * Changes a user in one transaction. `classGroupIds` replaces the memberships: classes left emit
 * `class_member_removed`, classes joined are checked like on creation and emit `class_member_added`. When
 * anything really changed, `user_updated` names the fields; a PATCH that changes nothing emits nothing.
 */
export async function updateUser(
  db: Executor,
  plans: PlanConfig,
  tenantId: string,
  actor: Actor,
  id: string,
  input: UpdateUserInput,
): Promise<UserRecord> {
  if (input.role !== undefined) assertMayAssignRole(actor, input.role);
  return db.transaction(async (tx) => {
    const current = await repo.lockUser(tx, tenantId, id);
    if (current === undefined) throw notFound();
    const before = (await repo.findUser(tx, tenantId, id)) as UserRecord;
    if (current.role === "institution_admin") {
      // Demoting, suspending or reinstating an administrator is as sensitive as promoting one: a key that could
      // set an administrator's status could restore a suspended administrator's rights. So is their identity:
      // whoever sets an administrator's e-mail can have an invitation to that address activate the account, or
      // lock every administrator out.
      if (input.role !== undefined || input.status !== undefined || changesIdentity(before, input))
        assertMayAssignRole(actor, "institution_admin");
      const demoted = input.role !== undefined && input.role !== "institution_admin";
      if (demoted || input.status === "suspended") await assertAnotherAdminRemains(tx, tenantId, id);
    }
    if (input.email !== undefined && input.email.toLowerCase() !== before.email.toLowerCase()) {
      await assertEmailAllowed(tx, tenantId, input.email);
    }
    // A seat, unless a student enrollment already has the user counted.
    if (input.role === "student" && current.role !== "student") await admitStudent(tx, plans, tenantId, id);
    const { classGroupIds, profileFields, ...fields } = input;
    const groupIds = classGroupIds === undefined ? undefined : canonicalIds(classGroupIds);
    const changed = changedFields(before, input, groupIds);
    if (profileFields !== undefined) {
      const profileChanged = await applyProfileValues(tx, tenantId, id, profileFields, {
        creating: false,
        before: before.profileFields,
      });
      if (profileChanged) changed.push("profileFields");
    }
    if (changed.length === 0) return before;
    if (Object.keys(fields).length > 0) await repo.updateUser(tx, tenantId, id, fields).catch(emailTaken);
    let after = (await repo.findUser(tx, tenantId, id)) as UserRecord;
    if (groupIds !== undefined && changed.includes("classGroupIds")) {
      const joining = groupIds.filter((g) => !before.classGroupIds.includes(g));
      const leaving = before.classGroupIds.filter((g) => !groupIds.includes(g));
      await assertJoinable(tx, tenantId, groupIds, joining);
      const subject = subjectOf(after);
      await classes.removeMemberships(tx, tenantId, actor, subject, leaving);
      const role = classes.memberRoleFor(after.role);
      await classes.addMemberships(
        tx,
        tenantId,
        actor,
        joining.map((classGroupId) => ({ classGroupId, role, user: subject })),
      );
      after = (await repo.findUser(tx, tenantId, id)) as UserRecord;
    }
    const events: EventInput[] = [
      {
        type: "user_updated",
        data: { userId: id, changedFields: changed, user: after },
        actor: eventActorOf(actor),
        subject: subjectOf(after),
      },
    ];
    if (changed.includes("status") && after.status === "suspended") {
      events.push({
        type: "user_deactivated",
        data: { userId: id, reason: "suspended", user: after },
        actor: eventActorOf(actor),
        subject: subjectOf(after),
      });
    }
    await emitEvents(tx, tenantId, events);
    return after;
  });
}

export async function deleteUser(db: Executor, tenantId: string, actor: Actor, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    const current = await repo.lockUser(tx, tenantId, id, "update");
    if (current === undefined) throw notFound();
    if (current.role === "institution_admin") {
      assertMayAssignRole(actor, "institution_admin");
      await assertAnotherAdminRemains(tx, tenantId, id);
    }
    // The memberships go with the user: each says so, as a removal through the classes API would.
    const user = (await repo.findUser(tx, tenantId, id)) as UserRecord;
    await classes.removeMemberships(tx, tenantId, actor, subjectOf(user), user.classGroupIds);
    await emitEvent(tx, {
      tenantId,
      type: "user_deactivated",
      data: { userId: id, reason: "deleted", user },
      actor: eventActorOf(actor),
      subject: subjectOf(user),
    });
    await repo.deleteUser(tx, tenantId, id);
  });
}
