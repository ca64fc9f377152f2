import { randomUUID } from "node:crypto";
import { type Static, Type } from "typebox";
import { openSecret } from "../../platform/crypto/secret-box.js";
import { AppError, notFound } from "../../platform/errors/app-error.js";
import { EVENT_SAMPLES, type EventType, isEventType, SAMPLE_SUBJECT } from "../events/catalogue.js";
import { type Condition, evaluateCondition } from "../outbox/condition.js";
import { renderRequest } from "../outbox/fanout.js";
import { sendDelivery } from "../outbox/send.js";
import * as repo from "./repo.js";
import type { SendWebhookAction } from "./schemas.js";
import { type AutomationDeps, keyringOf, secretContext } from "./service.js";

export const TestRunBody = Type.Object(
  {
    event: Type.Optional(
      Type.Object(
        {},
        { additionalProperties: true, description: "The event's `data`; a sample of its type if omitted." },
      ),
    ),
    user: Type.Optional(
      Type.Union([Type.Object({}, { additionalProperties: true }), Type.Null()], {
        description: "The user the event is about; a sample user if omitted.",
      }),
    ),
    send: Type.Optional(
      Type.Boolean({ default: false, description: "Also send it, signed, to the automation's URL." }),
    ),
  },
  {
    additionalProperties: false,
    examples: [
      {
        event: {
          enrollmentId: "8a9b0c1d-2e3f-4a4b-9c5d-6e7f8a9b0c1d",
          courseId: "1d2e3f4a-5b6c-4d7e-8f9a-0b1c2d3e4f5a",
          completedAt: "2026-11-23T12:00:00.000Z",
          progressPercent: 100,
          finalScore: 87.5,
        },
        user: {
          id: "9b2f6c1e-3d4a-4f5b-8c7d-1e2f3a4b5c6d",
          name: "João Pereira",
          email: "joao.pereira@colegioaurora.com.br",
          role: "student",
        },
        send: true,
      },
    ],
  },
);

export const TestRunResult = Type.Object(
  {
    conditionMatched: Type.Boolean(),
    request: Type.Object(
      {
        url: Type.String(),
        headers: Type.Record(Type.String(), Type.String()),
        body: Type.String(),
      },
      { additionalProperties: false },
    ),
    renderError: Type.Optional(Type.String()),
    response: Type.Optional(
      Type.Object(
        {
          status: Type.Integer(),
          durationMs: Type.Integer(),
          body: Type.String({ description: "The start of the response body." }),
          truncated: Type.Boolean(),
        },
        { additionalProperties: false },
      ),
    ),
    sendError: Type.Optional(
      Type.Object({ kind: Type.String(), message: Type.String() }, { additionalProperties: false }),
    ),
  },
  {
    additionalProperties: false,
    examples: [
      {
        conditionMatched: true,
        request: {
          url: "https://crm.colegioaurora.com.br/hooks/aula",
          headers: { "X-Origem": "aula" },
          body:
            '{"aluno": "João Pereira", "email": "joao.pereira@colegioaurora.com.br", ' +
            '"curso": "1d2e3f4a-5b6c-4d7e-8f9a-0b1c2d3e4f5a", "nota": 87.5}',
        },
        response: { status: 200, durationMs: 238, body: '{"ok":true}', truncated: false },
      },
    ],
  },
);

type Result = Static<typeof TestRunResult>;

/**
 * Evaluates an automation against an event (given, or a sample of its trigger) and renders its request, without
 * writing anything. With `send: true` it also signs and sends that request once, through the same SSRF-checked
 * client as real deliveries; the caller enforces the per-institution quota first.
 */
export async function testAutomation(
  deps: AutomationDeps,
  tenantId: string,
  id: string,
  input: { event?: object; user?: object | null; send?: boolean },
): Promise<Result> {
  const row = await repo.findAutomation(deps.db, tenantId, id);
  if (row === undefined) throw notFound();
  const type = row.triggerEvent;
  const data = input.event ?? (isEventType(type) ? EVENT_SAMPLES[type as EventType] : {});
  const user = input.user === undefined ? SAMPLE_SUBJECT : input.user;
  const condition = row.condition as Condition | null;
  const conditionMatched = condition === null || evaluateCondition(condition, { event: data, user });
  const occurredAt = new Date().toISOString();
  // A test run records no event: its id is a fresh one, so a receiver can tell test calls apart.
  const eventId = randomUUID();
  const action = row.action as SendWebhookAction;
  const rendered = renderRequest(
    action,
    { event: data, user, timestamp: occurredAt, eventId, automation: { id: row.id, name: row.name } },
    { id: eventId, type, occurredAt, data },
  );
  const result: Result = {
    conditionMatched,
    request: { url: action.url, headers: rendered.headers, body: rendered.body },
    ...(rendered.error === undefined ? {} : { renderError: rendered.error }),
  };
  if (input.send !== true || rendered.error !== undefined) return result;
  let secret: string;
  try {
    secret = openSecret(row.signingSecret, keyringOf(deps.config), secretContext(row.id));
  } catch (err) {
    throw new AppError("internal_error", { cause: err });
  }
  // Loaded here rather than at start-up: the HTTP client (undici) is otherwise the worker's alone, and a server
  // that leaves deliveries to a separate worker process need not hold it in memory for this rare request.
  const { createOutboundClient } = await import("../../platform/outbound/client.js");
  const client = createOutboundClient(deps.config.outbound, { resolve: deps.resolve });
  try {
    const outcome = await sendDelivery(
      client,
      {
        tenantId,
        id: `msg_test_${randomUUID()}`,
        automationId: row.id,
        eventId: randomUUID(),
        eventType: type,
        url: action.url,
        headers: rendered.headers,
        body: rendered.body,
        attempt: 1,
        signingSecret: row.signingSecret,
      },
      secret,
      { timeoutMs: deps.config.outbound.timeoutMs },
    );
    return outcome.ok
      ? {
          ...result,
          response: {
            status: outcome.status,
            durationMs: Math.round(outcome.durationMs),
            body: outcome.body.slice(0, 1024),
            truncated: outcome.truncated || outcome.body.length > 1024,
          },
        }
      : { ...result, sendError: { kind: outcome.kind, message: outcome.message } };
  } finally {
    await client.close();
  }
}
