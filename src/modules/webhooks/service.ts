import { randomUUID } from "node:crypto";
import { sealSecret } from "../../platform/crypto/secret-box.js";
import { AppError, notFound } from "../../platform/errors/app-error.js";
import { pageEnvelope, pageWindow } from "../../platform/pagination/pagination.js";
import * as repo from "../automations/repo.js";
import type { SendWebhookAction } from "../automations/schemas.js";
import {
  type AutomationDeps,
  automationLimitReached,
  keyringOf,
  newSigningSecret,
  refuseTargetUrl,
  secretContext,
} from "../automations/service.js";
import { EVENT_CATALOGUE, EVENT_TYPES } from "../events/catalogue.js";
import type { CreateEndpointInput, EndpointRecord, UpdateEndpointInput } from "./schemas.js";

/**
 * Webhook endpoints are subscriptions of a URL to event types (Svix-style). They are stored as automations of kind
 * `endpoint`, so they share signing secrets, the outbox, the worker and the delivery log; they always send the
 * default payload `{id, type, timestamp, data}`.
 */
const KIND = "endpoint";

function toRecord(row: repo.PublicAutomationRow): EndpointRecord {
  return {
    id: row.id,
    url: (row.action as SendWebhookAction).url,
    eventTypes: row.eventTypes ?? [],
    description: row.description,
    enabled: row.enabled,
    disabledReason: row.disabledReason,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

async function checkUrl(deps: AutomationDeps, url: string): Promise<void> {
  const refused = await refuseTargetUrl(deps, url, "url");
  if (refused !== undefined) throw new AppError("validation_failed", { details: [refused] });
}

export async function createEndpoint(deps: AutomationDeps, tenantId: string, input: CreateEndpointInput) {
  await checkUrl(deps, input.url);
  const id = randomUUID();
  const signingSecret = newSigningSecret();
  const row = await repo.insertAutomation(deps.db, tenantId, deps.config.maxAutomationsPerInstitution, {
    id,
    kind: KIND,
    name: input.url,
    description: input.description ?? null,
    enabled: input.enabled ?? true,
    triggerEvent: "*",
    eventTypes: input.eventTypes,
    action: { type: "send_webhook", url: input.url } satisfies SendWebhookAction,
    signingSecret: sealSecret(signingSecret, keyringOf(deps.config), secretContext(id)),
  });
  if (row === undefined) throw automationLimitReached(deps.config);
  return { ...toRecord(row), signingSecret };
}

export async function getEndpoint(
  deps: AutomationDeps,
  tenantId: string,
  id: string,
): Promise<EndpointRecord> {
  const row = await repo.findAutomation(deps.db, tenantId, id, KIND);
  if (row === undefined) throw notFound();
  return toRecord(row);
}

export async function listEndpoints(
  deps: AutomationDeps,
  tenantId: string,
  query: { page?: number; perPage?: number },
) {
  const window = pageWindow(query);
  const [rows, total] = await Promise.all([
    repo.listAutomations(deps.db, tenantId, window, KIND),
    repo.countAutomations(deps.db, tenantId, KIND),
  ]);
  return pageEnvelope(rows.map(toRecord), total, window);
}

export async function updateEndpoint(
  deps: AutomationDeps,
  tenantId: string,
  id: string,
  input: UpdateEndpointInput,
): Promise<EndpointRecord> {
  if (input.url !== undefined) await checkUrl(deps, input.url);
  const changes: Partial<repo.NewAutomation> = {};
  if (input.url !== undefined) {
    changes.action = { type: "send_webhook", url: input.url } satisfies SendWebhookAction;
    changes.name = input.url;
  }
  if (input.eventTypes !== undefined) changes.eventTypes = input.eventTypes;
  if (input.description !== undefined) changes.description = input.description;
  if (input.enabled !== undefined) {
    changes.enabled = input.enabled;
    if (input.enabled) Object.assign(changes, { disabledReason: null, failingSince: null });
  }
  const row = await repo.updateAutomation(deps.db, tenantId, id, changes, KIND);
  if (row === undefined) throw notFound();
  return toRecord(row);
}

export async function deleteEndpoint(deps: AutomationDeps, tenantId: string, id: string): Promise<void> {
  if (!(await repo.deleteAutomation(deps.db, tenantId, id, KIND))) throw notFound();
}

export function eventTypes() {
  return {
    data: EVENT_TYPES.map((name) => ({
      name,
      schemaVersion: EVENT_CATALOGUE[name].schemaVersion,
      description: EVENT_CATALOGUE[name].description,
    })),
  };
}
