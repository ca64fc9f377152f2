import { createHash, randomBytes, randomUUID } from "node:crypto";
import type { Config } from "../../config/index.js";
import type { Db, Executor } from "../../db/client.js";
import type { AppContext } from "../../platform/context.js";
import { openSecret, sealSecret } from "../../platform/crypto/secret-box.js";
import { AppError, type DetailKey, notFound } from "../../platform/errors/app-error.js";
import type { Resolver } from "../../platform/outbound/resolver.js";
import { checkTargetUrl } from "../../platform/outbound/target-url.js";
import { pageEnvelope, pageWindow } from "../../platform/pagination/pagination.js";
import type { Condition } from "../outbox/condition.js";
import { validateCondition } from "../outbox/condition-validation.js";
import { keyringOf, secretContext } from "../outbox/send.js";
import { validateTemplate } from "../outbox/template.js";
import { urlHasTemplate } from "../outbox/template-in-url.js";
import { isReservedHeader } from "./headers.js";
import * as repo from "./repo.js";
import type {
  AutomationRecord,
  CreateAutomationInput,
  SendWebhookAction,
  UpdateAutomationInput,
} from "./schemas.js";

export interface AutomationDeps {
  db: Db;
  config: Config;
  resolve: Resolver;
}

/** Read at call time, so a test can swap `ctx.resolve` for a DNS stub after the routes are registered. */
export function automationDeps(ctx: AppContext): AutomationDeps {
  return { db: ctx.database.db, config: ctx.config, resolve: ctx.resolve };
}

const INBOUND_TRIGGER = "webhook";

export { keyringOf };

/** Standard Webhooks secret: `whsec_` + base64 of 24 random bytes. */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(24).toString("base64")}`;
}

/** 64 characters, as the spec fixes; only its SHA-256 is stored. */
function newInboundToken(): string {
  return randomBytes(32).toString("hex");
}

export function hashInboundToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** Binds a sealed secret to its row (the outbox opens it under the same context to sign deliveries). */
export { secretContext };

export const URL_REFUSED = { field: "action.url", key: "field.url_forbidden" } as const;

/**
 * No templates, http(s), public addresses only in any notation. One answer for every refusal: which range an
 * address fell in is not the tenant's business. Returns the detail to report, if refused.
 */
export async function refuseTargetUrl(deps: AutomationDeps, url: string, field = "action.url") {
  const refused = { ...URL_REFUSED, field };
  if (urlHasTemplate(url)) return refused;
  const target = await checkTargetUrl(url, { allow: deps.config.outbound.allowCidrs, resolve: deps.resolve });
  return target.ok ? undefined : refused;
}

function toRecord(row: repo.PublicAutomationRow): AutomationRecord {
  return {
    id: row.id,
    name: row.name,
    enabled: row.enabled,
    trigger: { event: row.triggerEvent },
    condition: (row.condition as Condition | null) ?? null,
    action: row.action as SendWebhookAction,
    disabledReason: row.disabledReason,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

function invalid(details: DetailKey[]): AppError {
  return new AppError("validation_failed", { details });
}

/**
 * Everything the schema cannot say: the condition's paths and operators, the templates (a body must render JSON
 * for every event), and the URL (no templates, public addresses only, in any notation).
 */
async function validate(deps: AutomationDeps, input: { condition?: unknown; action?: SendWebhookAction }) {
  const details: DetailKey[] = [];
  let condition: Condition | null | undefined;
  if (input.condition !== undefined && input.condition !== null) {
    const checked = validateCondition(input.condition, "condition");
    if (checked.ok) condition = checked.condition;
    else details.push(...checked.details);
  } else if (input.condition === null) condition = null;
  const action = input.action;
  if (action !== undefined) {
    if (action.body !== undefined) {
      const body = validateTemplate(action.body, { mode: "json", field: "action.body" });
      if (!body.ok) details.push(...body.details);
    }
    for (const [name, template] of Object.entries(action.headers ?? {})) {
      if (isReservedHeader(name)) {
        details.push({ field: `action.headers.${name}`, key: "field.header_reserved" });
        continue;
      }
      const header = validateTemplate(template, { mode: "header", field: `action.headers.${name}` });
      if (!header.ok) details.push(...header.details);
    }
    const refused = await refuseTargetUrl(deps, action.url);
    if (refused !== undefined) details.push(refused);
  }
  if (details.length > 0) throw invalid(details);
  return { condition };
}

/** MAX_AUTOMATIONS_PER_INSTITUTION reached: automations and webhook endpoints count together. */
export function automationLimitReached(config: Config): AppError {
  return new AppError("conflict", {
    messageKey: "conflict.automation_limit",
    params: { limit: config.maxAutomationsPerInstitution },
  });
}

export interface CreatedAutomationRecord extends AutomationRecord {
  signingSecret: string;
  inboundUrl?: string;
}

export async function createAutomation(
  deps: AutomationDeps,
  tenantId: string,
  input: CreateAutomationInput,
  inboundBase: string,
): Promise<CreatedAutomationRecord> {
  const { condition } = await validate(deps, input);
  const id = randomUUID();
  const signingSecret = newSigningSecret();
  const token = input.trigger.event === INBOUND_TRIGGER ? newInboundToken() : undefined;
  const row = await repo.insertAutomation(deps.db, tenantId, deps.config.maxAutomationsPerInstitution, {
    id,
    name: input.name,
    enabled: input.enabled ?? true,
    triggerEvent: input.trigger.event,
    condition: condition ?? null,
    action: input.action,
    signingSecret: sealSecret(signingSecret, keyringOf(deps.config), secretContext(id)),
    inboundTokenHash: token === undefined ? null : hashInboundToken(token),
  });
  if (row === undefined) throw automationLimitReached(deps.config);
  return {
    ...toRecord(row),
    signingSecret,
    ...(token === undefined ? {} : { inboundUrl: inboundUrl(inboundBase, token) }),
  };
}

export function inboundUrl(base: string, token: string): string {
  return `${base}/api/automations/webhook/${token}`;
}

export async function getAutomation(db: Executor, tenantId: string, id: string): Promise<AutomationRecord> {
  const row = await repo.findAutomation(db, tenantId, id);
  if (row === undefined) throw notFound();
  return toRecord(row);
}

export async function listAutomations(
  db: Executor,
  tenantId: string,
  query: { page?: number; perPage?: number },
) {
  const window = pageWindow(query);
  const [rows, total] = await Promise.all([
    repo.listAutomations(db, tenantId, window),
    repo.countAutomations(db, tenantId),
  ]);
  return pageEnvelope(rows.map(toRecord), total, window);
}

/**
 * A changed trigger to `webhook` issues an inbound URL (answered once, in `inboundUrl`); a trigger moved away
 * from `webhook` revokes it. Re-enabling clears the reason the platform disabled it for.
 */
export async function updateAutomation(
  deps: AutomationDeps,
  tenantId: string,
  id: string,
  input: UpdateAutomationInput,
  inboundBase: string,
): Promise<AutomationRecord & { inboundUrl?: string }> {
  const current = await repo.findAutomation(deps.db, tenantId, id);
  if (current === undefined) throw notFound();
  const { condition } = await validate(deps, input);
  const changes: Partial<repo.NewAutomation> = {};
  if (input.name !== undefined) changes.name = input.name;
  if (input.enabled !== undefined) {
    changes.enabled = input.enabled;
    if (input.enabled) Object.assign(changes, { disabledReason: null, failingSince: null });
  }
  if (condition !== undefined) changes.condition = condition;
  if (input.action !== undefined) changes.action = input.action;
  let token: string | undefined;
  if (input.trigger !== undefined && input.trigger.event !== current.triggerEvent) {
    changes.triggerEvent = input.trigger.event;
    if (input.trigger.event === INBOUND_TRIGGER) token = newInboundToken();
    changes.inboundTokenHash = token === undefined ? null : hashInboundToken(token);
  }
  const row = await repo.updateAutomation(deps.db, tenantId, id, changes);
  if (row === undefined) throw notFound();
  return { ...toRecord(row), ...(token === undefined ? {} : { inboundUrl: inboundUrl(inboundBase, token) }) };
}

export async function deleteAutomation(db: Executor, tenantId: string, id: string): Promise<void> {
  if (!(await repo.deleteAutomation(db, tenantId, id))) throw notFound();
}

export async function readSigningSecret(
  deps: AutomationDeps,
  tenantId: string,
  id: string,
  kind: repo.Kind = "automation",
): Promise<string> {
  const row = await repo.findAutomation(deps.db, tenantId, id, kind);
  if (row === undefined) throw notFound();
  return openSecret(row.signingSecret, keyringOf(deps.config), secretContext(id));
}

/** Deliveries already written keep the old signature only until they are sent: each attempt signs afresh. */
export async function rotateSigningSecret(
  deps: AutomationDeps,
  tenantId: string,
  id: string,
  kind: repo.Kind = "automation",
): Promise<string> {
  const signingSecret = newSigningSecret();
  const sealed = sealSecret(signingSecret, keyringOf(deps.config), secretContext(id));
  const row = await repo.updateAutomation(deps.db, tenantId, id, { signingSecret: sealed }, kind);
  if (row === undefined) throw notFound();
  return signingSecret;
}

export async function rotateInboundToken(
  deps: AutomationDeps,
  tenantId: string,
  id: string,
  inboundBase: string,
): Promise<string> {
  const current = await repo.findAutomation(deps.db, tenantId, id);
  if (current === undefined) throw notFound();
  if (current.triggerEvent !== INBOUND_TRIGGER) {
    throw new AppError("conflict", { messageKey: "conflict.not_inbound" });
  }
  const token = newInboundToken();
  await repo.updateAutomation(deps.db, tenantId, id, { inboundTokenHash: hashInboundToken(token) });
  return inboundUrl(inboundBase, token);
}
