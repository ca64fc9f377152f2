/** The message log, POST /email/messages and bounce reports. */
import { type Static, Type } from "typebox";
import { IsoDateTime, StringEnum, Uuid } from "../../platform/http/schemas.js";
import { CappedPageOf } from "../../platform/pagination/capped.js";
import { PageQuery } from "../../platform/pagination/pagination.js";
import { BodyHtml, BodyText, Locale, MAX_RECIPIENTS, Subject, VariableValues } from "./schemas.js";

export const MESSAGE_STATUSES = ["queued", "sent", "failed", "bounced", "complained", "suppressed"] as const;

const MessageFields = {
  id: Uuid,
  messageId: Type.Union([Type.String(), Type.Null()], {
    description:
      "The Message-ID header sent; a bounce report names the message by it. Null until the first attempt for " +
      "mail composed when it is sent (a certificate's).",
  }),
  templateKey: Type.Union([Type.String(), Type.Null()]),
  locale: Locale,
  toUserId: Type.Union([Uuid, Type.Null()]),
  toEmail: Type.String(),
  subject: Type.String(),
  status: StringEnum(MESSAGE_STATUSES, {
    description:
      "`suppressed`: not sent because what it carried was withdrawn before it went (a certificate revoked).",
  }),
  triggeredBy: StringEnum(["system", "api"] as const),
  attempts: Type.Integer({ minimum: 0 }),
  nextAttemptAt: Type.Union([IsoDateTime, Type.Null()], {
    description: "When a queued message is tried next.",
  }),
  lastError: Type.Union([Type.String(), Type.Null()]),
  sentAt: Type.Union([IsoDateTime, Type.Null()]),
  bouncedAt: Type.Union([IsoDateTime, Type.Null()]),
  createdAt: IsoDateTime,
  updatedAt: IsoDateTime,
};

const SAMPLE_MESSAGE = {
  id: "3f1e2d4c-5b6a-4789-8c0d-1e2f3a4b5c6d",
  messageId: "<3f1e2d4c-5b6a-4789-8c0d-1e2f3a4b5c6d@colegioaurora.com.br>",
  templateKey: "invite",
  locale: "pt-BR",
  toUserId: "9b2f6c1e-3d4a-4f5b-8c7d-1e2f3a4b5c6d",
  toEmail: "a***@colegioaurora.com.br",
  subject: "Convite para Colégio Aurora",
  status: "sent",
  triggeredBy: "system",
  attempts: 1,
  nextAttemptAt: null,
  lastError: null,
  sentAt: "2026-11-23T12:00:05.000Z",
  bouncedAt: null,
  createdAt: "2026-11-23T12:00:00.000Z",
  updatedAt: "2026-11-23T12:00:05.000Z",
};

export const Message = Type.Object(MessageFields, {
  additionalProperties: false,
  description: "A mail and its delivery status. The body is not returned: it may carry a token.",
  examples: [{ ...SAMPLE_MESSAGE, toEmail: "ana.souza@colegioaurora.com.br" }],
});
export type MessageRecord = Static<typeof Message>;

export const MessageListItem = Type.Object(MessageFields, {
  additionalProperties: false,
  description: "`toEmail` is masked in lists (`a***@example.com`); GET /email/messages/:id shows it whole.",
  examples: [SAMPLE_MESSAGE],
});
export const MessagePage = CappedPageOf(MessageListItem);

export const ListMessagesQuery = Type.Object(
  {
    ...PageQuery,
    status: Type.Optional(StringEnum(MESSAGE_STATUSES)),
    userId: Type.Optional(Uuid),
    templateKey: Type.Optional(Type.String({ maxLength: 100 })),
    since: Type.Optional(IsoDateTime),
    sort: Type.Optional(StringEnum(["createdAt", "-createdAt"] as const, { default: "-createdAt" })),
  },
  { additionalProperties: false },
);
export type ListMessagesQueryType = Static<typeof ListMessagesQuery>;

export const SendMessagesBody = Type.Object(
  {
    templateKey: Type.Optional(Type.String({ maxLength: 100 })),
    subject: Type.Optional(Subject),
    bodyHtml: Type.Optional(BodyHtml),
    bodyText: Type.Optional(BodyText),
    userIds: Type.Optional(
      Type.Array(Uuid, {
        minItems: 1,
        maxItems: MAX_RECIPIENTS,
        description: `Up to ${MAX_RECIPIENTS} users.`,
      }),
    ),
    classGroupId: Type.Optional(Uuid),
    locale: Type.Optional(Locale),
    variables: Type.Optional(VariableValues),
  },
  {
    additionalProperties: false,
    minProperties: 2,
    description:
      "Either `templateKey`, or `subject` + `bodyHtml` + `bodyText`; either `userIds` or `classGroupId`. Without " +
      "`locale`, the institution's default language.",
    examples: [
      {
        templateKey: "report_ready",
        userIds: ["9b2f6c1e-3d4a-4f5b-8c7d-1e2f3a4b5c6d"],
        variables: { reportName: "Notas", reportUrl: "https://colegioaurora.com.br/r/1" },
      },
    ],
  },
);
export type SendMessagesInput = Static<typeof SendMessagesBody>;

export const Queued = Type.Object(
  {
    queued: Type.Integer({ minimum: 0 }),
    messageIds: Type.Array(Uuid),
  },
  {
    additionalProperties: false,
    examples: [{ queued: 1, messageIds: ["3f1e2d4c-5b6a-4789-8c0d-1e2f3a4b5c6d"] }],
  },
);

export const BounceBody = Type.Object(
  {
    messageId: Type.String({
      minLength: 1,
      maxLength: 300,
      description: "The Message-ID, with or without `<>`.",
    }),
    kind: StringEnum(["bounce", "complaint"] as const),
    reason: Type.Optional(Type.String({ maxLength: 1000 })),
  },
  {
    additionalProperties: false,
    examples: [
      {
        messageId: "<3f1e2d4c-5b6a-4789-8c0d-1e2f3a4b5c6d@colegioaurora.com.br>",
        kind: "bounce",
        reason: "550 5.1.1 user unknown",
      },
    ],
  },
);
export type BounceInput = Static<typeof BounceBody>;

export const BounceResult = Type.Object(
  { id: Uuid, status: StringEnum(MESSAGE_STATUSES) },
  {
    additionalProperties: false,
    examples: [{ id: "3f1e2d4c-5b6a-4789-8c0d-1e2f3a4b5c6d", status: "bounced" }],
  },
);
