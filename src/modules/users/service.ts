import type { PlanConfig } from "../../config/plans.js";
import type { Executor } from "../../db/client.js";
import { isUniqueViolation } from "../../db/errors.js";
import type { Role } from "../../platform/auth/types.js";
import { AppError, notFound } from "../../platform/errors/app-error.js";
import { pageEnvelope, pageWindow } from "../../platform/pagination/pagination.js";
import { type Actor, eventActorOf, subjectOf } from "../events/actor.js";
import { emitEvent } from "../events/emit.js";
import * as repo from "./repo.js";
import type { CreateUserInput, ListUsersQueryType, UpdateUserInput, UserRecord } from "./schemas.js";
import { reserveStudentSeats } from "./student-limit.js";

export type { Actor };

/** Keys may create students and teachers; only an administrator's session may create or promote administrators. */
function assertMayAssignRole(actor: Actor, role: Role): void {
  if (role !== "institution_admin" || actor.kind === "system") return;
  if (actor.kind === "session" && actor.role === "institution_admin") return;
  throw new AppError("forbidden", { messageKey: "forbidden.admin_required" });
}

async function assertClassGroupsExist(tx: Executor, tenantId: string, ids: readonly string[]): Promise<void> {
  const missing = await repo.missingClassGroups(tx, tenantId, ids);
  if (missing.length > 0) {
    throw new AppError("validation_failed", {
      details: missing.map((id) => ({
        field: `classGroupIds[${ids.indexOf(id)}]`,
        key: "field.unknown_class_group",
        params: { id },
      })),
    });
  }
}

/**
 * Removing, demoting or suspending the last active administrator would leave nobody able to manage keys or
 * billing. The tenant row is locked first, so two requests cannot each remove "the other" administrator.
 */
async function assertAnotherAdminRemains(tx: Executor, tenantId: string, userId: string): Promise<void> {
  await repo.lockTenantPlan(tx, tenantId);
  if ((await repo.countOtherActiveAdmins(tx, tenantId, userId)) === 0) {
    throw new AppError("conflict", { messageKey: "conflict.last_admin" });
  }
}

function emailTaken(err: unknown): never {
  if (isUniqueViolation(err, "users_tenant_email_key")) {
    throw new AppError("conflict", { messageKey: "conflict.email_taken" });
  }
  throw err;
}

export async function listUsers(db: Executor, tenantId: string, query: ListUsersQueryType) {
  const window = pageWindow(query);
  const filter = { search: query.search, role: query.role };
  const [data, total] = await Promise.all([
    repo.listUsers(db, tenantId, filter, window),
    repo.countUsers(db, tenantId, filter),
  ]);
  return pageEnvelope(data, total, window);
}

export async function getUser(db: Executor, tenantId: string, id: string): Promise<UserRecord> {
  const user = await repo.findUser(db, tenantId, id);
  if (user === undefined) throw notFound();
  return user;
}

/**
 * Creates a user and its class memberships in one transaction. A student first reserves a seat under the plan's
 * limit; if anything fails, nothing is written.
 */
export async function createUser(
  db: Executor,
  plans: PlanConfig,
  tenantId: string,
  actor: Actor,
  input: CreateUserInput,
): Promise<UserRecord> {
  assertMayAssignRole(actor, input.role);
  const groupIds = input.classGroupIds ?? [];
  return db.transaction(async (tx) => {
    if (input.role === "student") await reserveStudentSeats(tx, plans, tenantId);
    await assertClassGroupsExist(tx, tenantId, groupIds);
    const id = await repo
      .insertUser(tx, tenantId, {
        name: input.name,
        email: input.email,
        role: input.role,
        status: input.sendInvite === true ? "invited" : "active",
      })
      .catch(emailTaken);
    await repo.replaceMemberships(tx, tenantId, id, groupIds);
    const user = (await repo.findUser(tx, tenantId, id)) as UserRecord;
    await emitEvent(tx, {
      tenantId,
      type: "user_created",
      data: { userId: user.id, role: user.role, status: user.status },
      actor: eventActorOf(actor),
      subject: subjectOf(user),
    });
    return user;
  });
}

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
    if (current.role === "institution_admin") {
      // Demoting an administrator is as sensitive as promoting one.
      if (input.role !== undefined) assertMayAssignRole(actor, "institution_admin");
      const demoted = input.role !== undefined && input.role !== "institution_admin";
      if (demoted || input.status === "suspended") await assertAnotherAdminRemains(tx, tenantId, id);
    }
    if (input.role === "student" && current.role !== "student") {
      await reserveStudentSeats(tx, plans, tenantId);
    }
    const { classGroupIds, ...fields } = input;
    if (Object.keys(fields).length > 0) await repo.updateUser(tx, tenantId, id, fields).catch(emailTaken);
    if (classGroupIds !== undefined) {
      await assertClassGroupsExist(tx, tenantId, classGroupIds);
      await repo.replaceMemberships(tx, tenantId, id, classGroupIds);
    }
    return (await repo.findUser(tx, tenantId, id)) as UserRecord;
  });
}

export async function deleteUser(db: Executor, tenantId: string, actor: Actor, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    const current = await repo.lockUser(tx, tenantId, id);
    if (current === undefined) throw notFound();
    if (current.role === "institution_admin") {
      assertMayAssignRole(actor, "institution_admin");
      await assertAnotherAdminRemains(tx, tenantId, id);
    }
    await repo.deleteUser(tx, tenantId, id);
  });
}
