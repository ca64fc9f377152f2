import { type Static, Type } from "typebox";
import { IsoDateTime, StringEnum, Uuid } from "../../platform/http/schemas.js";
import { PageOf, PageQuery } from "../../platform/pagination/pagination.js";
import { EVENT_TYPES } from "../events/catalogue.js";
import { CONDITION_OPS } from "../outbox/condition.js";

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
        // A name outside the pattern is refused, not stored to fail every delivery.
        additionalProperties: false,
        description:
          'Header value templates, e.g. `{"X-Student": "{{user.email}}"}` (JSON-escaped). Names are letters, ' +
          "digits and `-`; framing and hop-by-hop headers (`Host`, `Content-Length`, `Transfer-Encoding`, " +
          "`Connection`, `Keep-Alive`, `Upgrade`, `TE`, `Trailer`, `Expect`, `Proxy-*`) and the signature's " +
          "`Webhook-*` are refused in any case; `Content-Type` and `User-Agent` are replaced by the platform's.",
      }),
    ),
    body: Type.Optional(
      Type.String({
        maxLength: 65_536,
        description:
          'A JSON template, e.g. `{"name": "{{user.name}}", "score": {{event.score}}}`. Without it the body ' +
          "is `{id, type, timestamp, data}` (the event's id, then the contract's fields; each event's schema is in the " +
          "OpenAPI document's `webhooks`). Templates may use `{{eventId}}` too.",
      }),
    ),
  },
  { additionalProperties: false },
);
export type SendWebhookAction = Static<typeof SendWebhookActionSchema>;

/** The documented example: tell the school's CRM when a student completes a course with a good final score. */
const actionExample = {
  type: "send_webhook",
  url: "https://crm.colegioaurora.com.br/hooks/aula",
  headers: { "X-Origem": "aula" },
  body: '{"aluno": "{{user.name}}", "email": "{{user.email}}", "curso": "{{event.courseId}}", "nota": {{event.finalScore}}}',
};
const automationInputExample = {
  name: "Avisar o CRM sobre conclusões",
  enabled: true,
  trigger: { event: "enrollment_completed" },
  condition: { all: [{ field: "event.finalScore", op: "gte", value: 70 }] },
  action: actionExample,
};
const automationExample = {
  id: "5c1d7e2f-8a3b-4c6d-9e0f-1a2b3c4d5e6f",
  ...automationInputExample,
  disabledReason: null,
  createdAt: "2026-11-23T12:00:00.000Z",
  updatedAt: "2026-11-23T12:00:00.000Z",
};
const signingSecretExample = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
const inboundUrlExample =
  "https://colegioaurora.aula.app/api/automations/webhook/" +
  "3b9f1c2d4e5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b1c";

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
  { additionalProperties: false, examples: [automationInputExample] },
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
  {
    additionalProperties: false,
    minProperties: 1,
    examples: [{ condition: { all: [{ field: "event.finalScore", op: "gte", value: 80 }] }, enabled: true }],
  },
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
  { additionalProperties: false, examples: [automationExample] },
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
  { additionalProperties: false, examples: [{ ...automationExample, signingSecret: signingSecretExample }] },
);

/** The answer to an update: the automation, and `inboundUrl` once when the trigger became `webhook`. */
export const UpdatedAutomation = Type.Object(
  { ...Automation.properties, inboundUrl: Type.Optional(Type.String()) },
  {
    additionalProperties: false,
    examples: [
      {
        ...automationExample,
        condition: { all: [{ field: "event.finalScore", op: "gte", value: 80 }] },
        updatedAt: "2026-11-24T09:30:00.000Z",
      },
    ],
  },
);

export const SigningSecretResponse = Type.Object(
  { signingSecret: SigningSecret },
  { additionalProperties: false, examples: [{ signingSecret: signingSecretExample }] },
);
export const InboundUrlResponse = Type.Object(
  { inboundUrl: Type.String() },
  { additionalProperties: false, examples: [{ inboundUrl: inboundUrlExample }] },
);

/** What an inbound webhook URL takes: any JSON object, which the automation sees as `event.*`. */
export const InboundBody = Type.Object(
  {},
  {
    additionalProperties: true,
    description: "Any JSON object.",
    examples: [{ pedido: "PED-2026-0042", email: "joao.pereira@colegioaurora.com.br", valor: 497.9 }],
  },
);
export const InboundAccepted = Type.Object(
  { accepted: Type.Literal(true), eventId: Type.String({ format: "uuid" }) },
  {
    additionalProperties: false,
    examples: [{ accepted: true, eventId: "c4d5e6f7-a8b9-4c0d-8e1f-2a3b4c5d6e7f" }],
  },
);

export const ListAutomationsQuery = Type.Object({ ...PageQuery }, { additionalProperties: false });
export const AutomationPage = PageOf(Automation);
