import { Type } from "typebox";
import { StringEnum, Uuid } from "../../platform/http/schemas.js";
import { defineEvent, SAMPLE_ID } from "../events/define.js";

const Masked = Type.String({ description: "The recipient, masked (`a***@example.com`)." });

export const emailEvents = {
  email_failed: defineEvent({
    schemaVersion: 1,
    description: "A mail could not be sent (refused by the SMTP server, or every retry used).",
    payload: Type.Object({
      messageId: Uuid,
      email: Masked,
      templateKey: Type.Union([Type.String(), Type.Null()]),
      attempts: Type.Integer({ minimum: 1 }),
      error: Type.String(),
    }),
    sample: {
      messageId: SAMPLE_ID,
      email: "m***@example.com",
      templateKey: "invite",
      attempts: 6,
      error: "550 mailbox unavailable",
    },
  }),
  email_bounced: defineEvent({
    schemaVersion: 1,
    description: "A sent mail bounced or drew a complaint, as the mail provider reported it.",
    payload: Type.Object({
      messageId: Uuid,
      email: Masked,
      templateKey: Type.Union([Type.String(), Type.Null()]),
      kind: StringEnum(["bounce", "complaint"] as const),
      reason: Type.Union([Type.String(), Type.Null()]),
    }),
    sample: {
      messageId: SAMPLE_ID,
      email: "m***@example.com",
      templateKey: "invite",
      kind: "bounce",
      reason: "550 5.1.1 user unknown",
    },
  }),
};
