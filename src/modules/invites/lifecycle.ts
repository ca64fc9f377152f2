import { AppError } from "../../platform/errors/app-error.js";
import type { EventPayloads } from "../events/catalogue.js";
import type { InviteRecord } from "./schemas.js";

/** 409 with a message per state, so the invitee learns whether to ask for a new invitation. */
export const inviteConflict = (state: "pending" | "accepted" | "revoked" | "expired") =>
  new AppError("conflict", { messageKey: `conflict.invite_${state}` });

/**
 * The address belongs to an account created with `sendInvite` whose role is not the invitation's: an invitation
 * only ever activates an account with the role it grants, so to it the address is taken (409).
 */
export const invitedRoleDiffers = () => new AppError("conflict", { messageKey: "conflict.email_taken" });

/** The payload of `invite_sent`, `invite_revoked` and (with `userId`) `invite_accepted`. */
export function lifecycleOf(invite: InviteRecord): EventPayloads["invite_sent"] {
  return {
    inviteId: invite.id,
    email: invite.email,
    role: invite.role,
    courseIds: invite.courseIds,
    classGroupIds: invite.classGroupIds,
    expiresAt: invite.expiresAt,
    invite,
  };
}
