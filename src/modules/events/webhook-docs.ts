import { Type } from "typebox";
import { EVENT_DEFINITIONS, EVENT_TYPES, type EventType } from "./catalogue.js";
import { SAMPLE_ID, SAMPLE_TIME } from "./define.js";

type Json = Record<string, unknown>;

/**
 * The body an endpoint (and an automation without a `body` template) receives for an event of `type`: the
 * contract's `{type, timestamp, data}`, led by the event's `id`.
 */
export function webhookBodySchema(type: EventType) {
  const definition = EVENT_DEFINITIONS[type];
  return Type.Object(
    {
      id: Type.String({
        format: "uuid",
        description:
          "The event's id: the same in every delivery and retry of it, and readable at `GET /events/:id`. (The " +
          "`webhook-id` header names the delivery.)",
      }),
      type: Type.Literal(type),
      timestamp: Type.String({ format: "date-time", description: "When the event happened." }),
      data: definition.payload,
    },
    { description: definition.description },
  );
}

/** A plain JSON copy: the document holds data, not the schema builder's objects. */
const plain = (value: unknown): Json => JSON.parse(JSON.stringify(value)) as Json;

const SIGNATURE_HEADERS = [
  {
    name: "webhook-id",
    in: "header",
    required: true,
    description: "The delivery's id (Standard Webhooks): the same across retries of this delivery.",
    schema: { type: "string" },
  },
  {
    name: "webhook-timestamp",
    in: "header",
    required: true,
    description: "Unix seconds when this attempt was signed; refuse ones far from your clock.",
    schema: { type: "string" },
  },
  {
    name: "webhook-signature",
    in: "header",
    required: true,
    description:
      "`v1,<base64 HMAC-SHA256>` of `<webhook-id>.<webhook-timestamp>.<body>` with the endpoint's `whsec_` " +
      "secret (Standard Webhooks); during a rotation, one signature per secret, space-separated.",
    schema: { type: "string" },
  },
];

/** How a receiver authenticates a delivery: the Standard Webhooks signature with its endpoint's secret. */
export const WEBHOOK_SECURITY_SCHEMES = {
  webhookSignature: {
    type: "apiKey",
    in: "header",
    name: "webhook-signature",
    description:
      "Standard Webhooks: verify `webhook-signature` against `<webhook-id>.<webhook-timestamp>.<body>` with the " +
      "endpoint's (or automation's) `whsec_` signing secret before trusting the body.",
  },
};

/**
 * OpenAPI 3.1's top-level `webhooks`: one entry per event type, the request Aula sends to a subscribed URL.
 * Each payload's schema is the one its module declares; a test checks real deliveries against these.
 */
export function webhookDocuments(): Json {
  return Object.fromEntries(
    EVENT_TYPES.map((type) => {
      const definition = EVENT_DEFINITIONS[type];
      return [
        type,
        {
          post: {
            operationId: `webhook_${type}`,
            tags: ["webhooks"],
            summary: definition.description,
            description:
              `Sent to each webhook endpoint subscribed to \`${type}\`, and by each automation it triggers that ` +
              `has no \`body\` template. Payload version ${definition.schemaVersion}: fields are only ever added, ` +
              "so ignore the ones you do not know.",
            security: [{ webhookSignature: [] }],
            parameters: SIGNATURE_HEADERS,
            requestBody: {
              required: true,
              content: {
                "application/json": {
                  schema: plain(webhookBodySchema(type)),
                  example: { id: SAMPLE_ID, type, timestamp: SAMPLE_TIME, data: plain(definition.sample) },
                },
              },
            },
            responses: {
              "2XX": { description: "Received. Answer quickly; do the work after answering." },
              default: {
                description:
                  "Any other answer, a timeout or a network error: the delivery is retried with backoff " +
                  "(`WEBHOOK_RETRY_SCHEDULE`), and a `410 Gone` disables the endpoint.",
              },
            },
          },
        },
      ];
    }),
  );
}
