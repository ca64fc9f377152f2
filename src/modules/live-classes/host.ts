import { actingUser, mayChangeOwned } from "../../platform/auth/owner.js";
import type { Principal } from "../../platform/auth/types.js";
import { AppError } from "../../platform/errors/app-error.js";

/**
 * Who may change a live class. The routes let any teacher in; a teacher's session then acts only on its own classes:
 * - `manage` (edit, cancel the class or one occurrence, and naming the host when scheduling): the host;
 * - `run` (start and end an occurrence, record or sync attendance): the host or a co-host, whom the host named to
 *   run the class with them (they already join as moderators).
 * Administrators' sessions and API keys (which act for the institution, as they do for every read and the join
 * links of this module) may do both on any class.
 */
export type HostRight = "manage" | "run";

export function requireHostRight(
  principal: Principal,
  c: { hostUserId: string; coHostIds: string[] },
  right: HostRight,
): void {
  if (mayChangeOwned(principal, c.hostUserId)) return;
  const teacher = actingUser(principal);
  if (right === "run" && teacher !== undefined && c.coHostIds.includes(teacher)) return;
  throw new AppError("forbidden", {
    messageKey: right === "run" ? "forbidden.live_class_cohost" : "forbidden.live_class_host",
  });
}

/** A teacher schedules classes they host: naming another host is an administrator's or a key's to do. */
export function requireOwnHost(principal: Principal, hostUserId: string): void {
  if (!mayChangeOwned(principal, hostUserId))
    throw new AppError("forbidden", { messageKey: "forbidden.live_class_own" });
}
