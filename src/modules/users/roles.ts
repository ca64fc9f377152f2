import type { Role } from "../../platform/auth/types.js";
import { AppError } from "../../platform/errors/app-error.js";
import type { Actor } from "../events/actor.js";

/** Keys may create students and teachers; only an administrator's session may create or promote administrators. */
export function mayAssignRole(actor: Actor, role: Role): boolean {
  if (role !== "institution_admin" || actor.kind === "system") return true;
  return actor.kind === "session" && actor.role === "institution_admin";
}

export const adminRequired = () => new AppError("forbidden", { messageKey: "forbidden.admin_required" });

export function assertMayAssignRole(actor: Actor, role: Role): void {
  if (!mayAssignRole(actor, role)) throw adminRequired();
}
