/**
 * The kinds of attachment the mail worker renders, each from the module that owns what it names (composed here
 * as the events catalogue composes the modules' events): `certificate`, a certificate's PDF.
 */
import { certificateAttachment } from "../certificates/service.js";
import type { AttachmentSource } from "./attachments.js";

export const ATTACHMENT_SOURCES: Readonly<Record<string, AttachmentSource>> = {
  certificate: certificateAttachment,
};
