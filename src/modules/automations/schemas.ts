import { type Static, Type } from "typebox";
import { IsoDateTime, StringEnum, Uuid } from "../../platform/http/schemas.js";
import { PageOf, PageQuery } from "../../platform/pagination/pagination.js";
import { EVENT_TYPES } from "../events/catalogue.js";
import { CONDITION_OPS } from "./condition.js";

const Clause = Type.Object(
  {
    field: Type.String({ minLength: 1, maxLength: 200, description: "`event.<path>` or `user.<path>`." }),
    op: StringEnum(CONDITION_OPS),
    value: Type.Optional(Type.Unknown()),
  },
  { additionalProperties: false },
);

export const ConditionSchema = Type.Object(
  {
    all: Type.Optional(Type.Array(Clause, { maxItems: 20 })),
    any: Type.Optional(Type.Array(Clause, { maxItems: 20 })),
  },
  {
    additionalProperties: false,
    minProperties: 1,
    maxProperties: 1,
    description: "Either `all` (every clause holds) or `any` (at least one does).",
  },
);

export const SendWebhookActionSchema = Type.Object(
  {
    type: Type.Literal("send_webhook"),
    url: Type.String({
      minLength: 1,
      maxLength: 2048,
      description: "http(s) URL of a public host; no templates. Checked at save and at every attempt.",
    }),
    headers: Type.Optional(
      Type.Record(Type.String({ pattern: "^[A-Za-z0-9-]{1,64}$" }), Type.String({ maxLength: 2048 }), {
        maxProperties: 20,
        description: 'Header value templates, e.g. `{"X-Student": "{{user.email}}"}` (JSON-escaped).',
      }),
    ),
    body: Type.Optional(
      Type.String({
        maxLength: 65_536,
        description:
          'A JSON template, e.g. `{"name": "{{user.name}}", "score": {{event.score}}}`. Without it the body ' +
          "is `{type, timestamp, data}`.",
      }),
    ),
  },
  { additionalProperties: false },
);
export type SendWebhookAction = Static<typeof SendWebhookActionSchema>;

const Trigger = Type.Object(
  {
    event: StringEnum([...EVENT_TYPES], {
      description: "A platform event, or `webhook`: the automation's inbound URL.",
    }),
  },
  { additionalProperties: false },
);

export const CreateAutomationBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    enabled: Type.Optional(Type.Boolean({ default: true })),
    trigger: Trigger,
    condition: Type.Optional(Type.Union([ConditionSchema, Type.Null()])),
    action: SendWebhookActionSchema,
  },
  { additionalProperties: false },
);
export type CreateAutomationInput = Static<typeof CreateAutomationBody>;

export const UpdateAutomationBody = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    enabled: Type.Optional(Type.Boolean()),
    trigger: Type.Optional(Trigger),
    condition: Type.Optional(Type.Union([ConditionSchema, Type.Null()])),
    action: Type.Optional(SendWebhookActionSchema),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type UpdateAutomationInput = Static<typeof UpdateAutomationBody>;

export const Automation = Type.Object(
  {
    id: Uuid,
    name: Type.String(),
    enabled: Type.Boolean(),
    trigger: Type.Object({ event: Type.String() }, { additionalProperties: false }),
    condition: Type.Union([ConditionSchema, Type.Null()]),
    action: SendWebhookActionSchema,
    disabledReason: Type.Union([Type.String(), Type.Null()], {
      description: "Why the platform disabled it (for example deliveries failing for 5 days).",
    }),
    createdAt: IsoDateTime,
    updatedAt: IsoDateTime,
  },
  { additionalProperties: false },
);
export type AutomationRecord = Static<typeof Automation>;

const SigningSecret = Type.String({
  pattern: "^whsec_[A-Za-z0-9+/=]+$",
  description: "Standard Webhooks secret: verify each delivery's `webhook-signature` with it.",
});

export const CreatedAutomation = Type.Object(
  {
    ...Automation.properties,
    signingSecret: SigningSecret,
    inboundUrl: Type.Optional(
      Type.String({
        description: "For `webhook` triggers: POST JSON here. Shown once; rotate to get a new one.",
      }),
    ),
  },
  { additionalProperties: false },
);

export const SigningSecretResponse = Type.Object(
  { signingSecret: SigningSecret },
  { additionalProperties: false },
);
export const InboundUrlResponse = Type.Object({ inboundUrl: Type.String() }, { additionalProperties: false });

export const ListAutomationsQuery = Type.Object({ ...PageQuery }, { additionalProperties: false });
export const AutomationPage = PageOf(Automation);
