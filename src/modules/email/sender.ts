/**
 * Who an institution's mail is from: the display name is `notifications.senderName`, else the institution's name
 * (as the settings schema documents), on MAIL_FROM's address (the deployment's, which its SPF/DKIM cover); and the
 * Reply-To is `notifications.replyTo` when set. Read when the mail is sent, so a change applies to mail still
 * queued.
 */
import type { Executor } from "../../db/client.js";
import { displayName, getSettings } from "../settings/service.js";
import { institutionInfo } from "./repo.js";

export interface Sender {
  fromName: string;
  replyTo?: string;
}

export async function senderOf(db: Executor, tenantId: string): Promise<Sender | undefined> {
  const [settings, institution] = await Promise.all([
    getSettings(db, tenantId).catch(() => undefined),
    institutionInfo(db, tenantId),
  ]);
  // One line that cannot read as an address, whatever is stored: the settings refuse such a sender name today,
  // but one stored before, or the institution's name, is cleaned the same way. nodemailer then quotes and
  // encodes it as a display name of its own (an address object, never a string put together here).
  const name = displayName(settings?.notifications.senderName ?? institution.name);
  if (name === "") return undefined;
  const replyTo = settings?.notifications.replyTo ?? undefined;
  return { fromName: name, ...(replyTo === undefined || replyTo === null ? {} : { replyTo }) };
}
