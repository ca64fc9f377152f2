import { randomBytes } from "node:crypto";
import type { Executor } from "../../db/client.js";
import { sha256Hex } from "../../platform/auth/secrets.js";
import {
  asLocale,
  enqueueTemplateMail,
  formatDate,
  institutionLocale,
  institutionTimeZone,
  type MailDeps,
} from "../email/service.js";
import { type Actor, eventActorOf } from "../events/actor.js";
import { emitEvent } from "../events/emit.js";
import { lifecycleOf } from "./lifecycle.js";
import * as repo from "./repo.js";
import type { InviteRecord } from "./schemas.js";

/** 256 bits from the CSPRNG as 64 hex characters; the database keeps only its SHA-256. */
export function newToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString("hex");
  return { token, hash: sha256Hex(token) };
}

/** Where the invitee accepts: a page of the tenant's own host, carrying the token. */
export function acceptUrl(origin: string, token: string): string {
  return `${origin}/invites/accept?token=${token}`;
}

export interface Invitation {
  email: string;
  name: string | null;
  locale: string | null;
  role: string;
  courseIds: string[];
  classGroupIds: string[];
  message: string | null;
  expiresAt: string;
}

/**
 * Writes a pending invitation and its `invite_sent` in the caller's transaction, and answers the token, which is
 * not stored. Callers check the address and the references first. Kept apart from the invites service so that
 * creating a user with `sendInvite` can issue one without the users and invites services importing each other.
 */
export async function issueInvitation(
  tx: Executor,
  tenantId: string,
  actor: Actor,
  invitation: Invitation,
  mail: MailDeps,
): Promise<{ invite: InviteRecord; token: string }> {
  const { token, hash } = newToken();
  const id = await repo.insertInvite(tx, tenantId, {
    ...invitation,
    tokenHash: hash,
    invitedBy: actor.kind === "system" ? null : (eventActorOf(actor) as { type: string; id: string }),
  });
  const invite = (await repo.findInvite(tx, tenantId, id)) as InviteRecord;
  await emitEvent(tx, {
    tenantId,
    type: "invite_sent",
    data: lifecycleOf(invite),
    actor: eventActorOf(actor),
  });
  await mailInvitation(tx, tenantId, mail, "invite", invite, token, invitation.locale);
  return { invite, token };
}

/**
 * Writes the invitation mail (`invite`, or `invite_reminder` when sent again) to the outbox in the caller's
 * transaction, in the invitation's language or the institution's, with the accept link carrying the token.
 */
export async function mailInvitation(
  tx: Executor,
  tenantId: string,
  mail: MailDeps,
  templateKey: "invite" | "invite_reminder",
  invite: InviteRecord,
  token: string,
  locale: string | null,
): Promise<void> {
  const language = asLocale(locale) ?? (await institutionLocale(tx, tenantId));
  const account = await repo.accountOf(tx, tenantId, invite.email);
  await enqueueTemplateMail(tx, mail, {
    tenantId,
    templateKey,
    locale: language,
    to: {
      userId: account?.id ?? null,
      email: invite.email,
      name: invite.name ?? invite.email.slice(0, invite.email.indexOf("@")),
    },
    variables: {
      acceptUrl: acceptUrl(mail.origin, token),
      expiresAt: formatDate(invite.expiresAt, language, await institutionTimeZone(tx, tenantId)),
      role: invite.role,
    },
  });
}
