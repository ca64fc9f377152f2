/**
 * What creating, changing or removing a user must not break, checked inside the write's transaction: the class
 * groups joined exist and have room, an administrator remains, and an e-mail stays unique in the institution.
 */
import type { Executor } from "../../db/client.js";
import { isUniqueViolation } from "../../db/errors.js";
import { AppError } from "../../platform/errors/app-error.js";
import * as classes from "../classes/service.js";
import * as repo from "./repo.js";

/**
 * Locks the class groups a user is joining and checks they exist (400 naming each unknown id) and have room
 * (409 when one is full). The locks are held until the caller's transaction ends.
 */
export async function assertJoinable(
  tx: Executor,
  tenantId: string,
  all: readonly string[],
  joining: readonly string[],
): Promise<void> {
  const groups = await classes.lockClassGroups(tx, tenantId, joining);
  const missing = joining.filter((id) => !groups.has(id));
  if (missing.length > 0) throw classes.unknownClassGroups(all, missing);
  const full = classes.takeSeats(groups, joining);
  if (full !== undefined) throw classes.classFull(full);
}

/**
 * Removing, demoting or suspending the last active administrator would leave nobody able to manage keys or
 * billing. The tenant row is locked first, so two requests cannot each remove "the other" administrator.
 */
export async function assertAnotherAdminRemains(
  tx: Executor,
  tenantId: string,
  userId: string,
): Promise<void> {
  await repo.lockTenantPlan(tx, tenantId);
  if ((await repo.countOtherActiveAdmins(tx, tenantId, userId)) === 0) {
    throw new AppError("conflict", { messageKey: "conflict.last_admin" });
  }
}

/** A unique violation on the tenant's e-mail index is 409 `conflict.email_taken`; anything else is rethrown. */
export function emailTaken(err: unknown): never {
  if (isUniqueViolation(err, "users_tenant_email_key")) {
    throw new AppError("conflict", { messageKey: "conflict.email_taken" });
  }
  throw err;
}
