import type { Principal } from "./types.js";

/**
 * Whose own things a principal may change, for resources that teachers create and run themselves (live classes,
 * calendar events): a teacher's (or any non-administrator's) session acts as its user, and may change only what
 * that user owns; an administrator's session and an API key act for the institution, as they do for every read,
 * and may change anything in it. Answers the user id the owner check applies to, or undefined for a principal
 * that acts for the institution.
 */
export function actingUser(principal: Principal): string | undefined {
  if (principal.kind === "key" || principal.role === "institution_admin") return undefined;
  return principal.userId;
}

/** Whether the principal may change a thing owned by `ownerId` (null: owned by no user, e.g. created by a key). */
export function mayChangeOwned(principal: Principal, ownerId: string | null): boolean {
  const user = actingUser(principal);
  return user === undefined || user === ownerId;
}
