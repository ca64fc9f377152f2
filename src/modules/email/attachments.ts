/**
 * What a message may carry besides its text: references the worker renders when it sends (`{kind, id}` in the
 * outbox row, never bytes). Each kind is a module's source (attachment-kinds.ts lists them): given the reference
 * it answers the file and the template variables it adds, or nothing when what it names was withdrawn since the
 * mail was queued (a certificate revoked): the message is then suppressed, not sent.
 */
import type { Config } from "../../config/index.js";
import type { Executor } from "../../db/client.js";
import type { Tenant } from "../../platform/auth/types.js";
import type { Variables } from "./render.js";

export interface AttachmentRef {
  kind: string;
  id: string;
}

export interface MailFile {
  filename: string;
  contentType: string;
  content: Buffer;
}

export interface AttachmentContext {
  db: Executor;
  config: Config;
  tenant: Tenant;
  /** The institution's own host, `http(s)://…`, for links in the mail and in the file. */
  origin: string;
}

export interface RenderedAttachment {
  file: MailFile;
  /** Variables the message's template is rendered with (`certificateUrl`, `courseTitle`, …). */
  variables: Variables;
}

export type AttachmentSource = (
  ctx: AttachmentContext,
  id: string,
) => Promise<RenderedAttachment | undefined>;
