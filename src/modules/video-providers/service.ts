import { createHash, randomUUID } from "node:crypto";
import type { Config } from "../../config/index.js";
import type { Db, Executor } from "../../db/client.js";
import { isUniqueViolation } from "../../db/errors.js";
import type { Principal } from "../../platform/auth/types.js";
import type { AppContext } from "../../platform/context.js";
import { openSecret, sealSecret } from "../../platform/crypto/secret-box.js";
import { AppError, type DetailKey, notFound } from "../../platform/errors/app-error.js";
import type { OutboundClient } from "../../platform/outbound/client.js";
import { cappedPageEnvelope } from "../../platform/pagination/capped.js";
import { pageWindow } from "../../platform/pagination/pagination.js";
import { automationDeps, keyringOf, refuseTargetUrl } from "../automations/service.js";
import { requireRightToMoveCredentials, requireRightToWriteCredentials } from "./credential-binding.js";
import {
  type CheckResult,
  type Connection,
  type Credentials,
  checkConnection,
  type ProviderDeps,
  type ProviderName,
  type ProviderSettings,
} from "./providers/index.js";
import { JITSI_DEFAULT_BASE } from "./providers/jitsi.js";
import { SETTING_ROLES, settingsWithRole } from "./providers/setting-roles.js";
import * as repo from "./repo.js";
import type {
  CreateVideoProviderInput,
  ListVideoProvidersQueryType,
  UpdateVideoProviderInput,
  VideoProviderRecord,
} from "./schemas.js";

export interface VideoDeps {
  ctx: AppContext;
  db: Db;
  config: Config;
  client: OutboundClient;
}

export function providerDeps(deps: VideoDeps): ProviderDeps {
  return { client: deps.client, video: deps.config.video };
}

/** Binds sealed credentials to their row: copied into another row, they do not open. */
const credentialsContext = (id: string) => `video_provider:${id}`;

/** The credential fields each provider requires; any other field is refused. */
const REQUIRED: Record<ProviderName, (keyof Credentials)[]> = {
  jitsi: [],
  bigbluebutton: ["sharedSecret"],
  zoom: ["accountId", "clientId", "clientSecret"],
};

/** Sorted keys, so the same credentials always give the same fingerprint. */
export function fingerprint(credentials: Credentials): string {
  const canonical = JSON.stringify(
    Object.fromEntries(Object.entries(credentials).sort(([x], [y]) => (x < y ? -1 : 1))),
  );
  return createHash("sha256").update(canonical).digest("hex").slice(0, 16);
}

function invalid(details: DetailKey[]): AppError {
  return new AppError("validation_failed", { details });
}

/** What the schema cannot say: per-provider credential fields and settings, and URLs the platform will call. */
async function validate(
  deps: VideoDeps,
  provider: ProviderName,
  credentials: Credentials | undefined,
  settings: ProviderSettings,
): Promise<void> {
  const details: DetailKey[] = [];
  const required = REQUIRED[provider];
  if (credentials !== undefined) {
    for (const field of Object.keys(credentials) as (keyof Credentials)[]) {
      if (!required.includes(field)) details.push({ field: `credentials.${field}`, key: "field.unknown" });
    }
    for (const field of required) {
      if (credentials[field] === undefined)
        details.push({ field: `credentials.${field}`, key: "field.required" });
    }
  } else {
    for (const field of required) details.push({ field: `credentials.${field}`, key: "field.required" });
  }
  for (const name of settingsWithRole(provider, "unused")) {
    if (settings[name] !== undefined) details.push({ field: `settings.${name}`, key: "field.unknown" });
  }
  if (provider === "bigbluebutton" && settings.baseUrl === undefined) {
    details.push({ field: "settings.baseUrl", key: "field.required" });
  }
  if (settings.baseUrl !== undefined && SETTING_ROLES[provider].baseUrl !== "unused") {
    // The platform calls this URL (create, test): public http(s) only, like a webhook target.
    const refused = await refuseTargetUrl(automationDeps(deps.ctx), settings.baseUrl, "settings.baseUrl");
    if (refused !== undefined) details.push(refused);
  }
  if (details.length > 0) throw invalid(details);
}

function seal(deps: VideoDeps, id: string, credentials: Credentials | undefined) {
  if (credentials === undefined || Object.keys(credentials).length === 0) {
    return { credentials: null, credentialsFingerprint: null };
  }
  return {
    credentials: sealSecret(JSON.stringify(credentials), keyringOf(deps.config), credentialsContext(id)),
    credentialsFingerprint: fingerprint(credentials),
  };
}

function openCredentials(deps: VideoDeps, row: repo.SealedRow): Credentials {
  if (row.credentials === null) return {};
  return JSON.parse(
    openSecret(row.credentials, keyringOf(deps.config), credentialsContext(row.id)),
  ) as Credentials;
}

/** A second default racing this one fails the partial unique index: the caller gets 409, not two defaults. */
async function writeDefault(write: () => Promise<void>): Promise<void> {
  try {
    await write();
  } catch (err) {
    if (isUniqueViolation(err, "video_providers_default_key")) throw new AppError("conflict");
    throw err;
  }
}

export async function createProvider(
  deps: VideoDeps,
  tenantId: string,
  principal: Principal,
  input: CreateVideoProviderInput,
): Promise<VideoProviderRecord> {
  requireRightToWriteCredentials(principal, input.credentials);
  const settings = input.settings ?? {};
  await validate(deps, input.provider, input.credentials, settings);
  const id = randomUUID();
  await deps.db.transaction(async (tx) => {
    if (input.isDefault === true) await repo.clearDefault(tx, tenantId, input.purpose, id);
    await writeDefault(() =>
      repo.insertProvider(tx, {
        tenantId,
        id,
        provider: input.provider,
        purpose: input.purpose,
        name: input.name.trim(),
        settings,
        isDefault: input.isDefault ?? false,
        ...seal(deps, id, input.credentials),
      }),
    );
  });
  return (await repo.findProvider(deps.db, tenantId, id)) as VideoProviderRecord;
}

export async function getProvider(db: Executor, tenantId: string, id: string): Promise<VideoProviderRecord> {
  const row = await repo.findProvider(db, tenantId, id);
  if (row === undefined) throw notFound();
  return row;
}

export async function listProviders(db: Executor, tenantId: string, query: ListVideoProvidersQueryType) {
  const window = pageWindow(query);
  const filter = { purpose: query.purpose, provider: query.provider, status: query.status };
  const [rows, total] = await Promise.all([
    repo.listProviders(db, tenantId, filter, query.sort ?? "-createdAt", window),
    repo.countProviders(db, tenantId, filter),
  ]);
  return cappedPageEnvelope(rows, total, window);
}

/**
 * `credentials` replaces the whole set (a partial set could not be checked); `settings` replaces the settings.
 * A change of either is checked against the provider's rules as a whole, and resets the status to `connected`
 * until the next test says otherwise.
 */
export async function updateProvider(
  deps: VideoDeps,
  tenantId: string,
  principal: Principal,
  id: string,
  input: UpdateVideoProviderInput,
): Promise<VideoProviderRecord> {
  requireRightToWriteCredentials(principal, input.credentials);
  const current = await repo.findSealed(deps.db, tenantId, id);
  if (current === undefined) throw notFound();
  const provider = current.provider as ProviderName;
  // Before the URL check's DNS lookup, and again under the lock against a change made in between.
  requireRightToMoveCredentials(principal, provider, current, input.settings);
  const settings = input.settings ?? current.settings;
  if (input.credentials !== undefined || input.settings !== undefined) {
    const credentials = input.credentials ?? openCredentials(deps, current);
    await validate(deps, provider, credentials, settings);
  }
  await deps.db.transaction(async (tx) => {
    const locked = await repo.findSealed(tx, tenantId, id, true);
    if (locked === undefined) throw notFound();
    requireRightToMoveCredentials(principal, provider, locked, input.settings);
    if (input.isDefault === true) await repo.clearDefault(tx, tenantId, locked.purpose, id);
    const changes: Partial<repo.NewProvider> = {};
    if (input.name !== undefined) changes.name = input.name.trim();
    if (input.settings !== undefined) changes.settings = settings;
    if (input.isDefault !== undefined) changes.isDefault = input.isDefault;
    if (input.status !== undefined) changes.status = input.status;
    if (input.credentials !== undefined) Object.assign(changes, seal(deps, id, input.credentials));
    if (input.credentials !== undefined || input.settings !== undefined) {
      Object.assign(changes, { status: input.status ?? "connected", lastError: null });
    }
    await writeDefault(() => repo.updateProvider(tx, tenantId, id, changes));
  });
  return getProvider(deps.db, tenantId, id);
}

export async function deleteProvider(db: Db, tenantId: string, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    const row = await repo.findSealed(tx, tenantId, id, true);
    if (row === undefined) throw notFound();
    if (await repo.usedByScheduledClass(tx, tenantId, id)) {
      throw new AppError("conflict", { messageKey: "conflict.video_provider_in_use" });
    }
    await repo.deleteProvider(tx, tenantId, id);
  });
}

/** Calls the provider (outside any transaction), then records the outcome on the connection. */
export async function testProvider(deps: VideoDeps, tenantId: string, id: string) {
  const row = await repo.findSealed(deps.db, tenantId, id);
  if (row === undefined) throw notFound();
  const result: CheckResult = await checkConnection(providerDeps(deps), toConnection(deps, row));
  const error = result.ok ? null : result.error.slice(0, 500);
  await repo.updateProvider(deps.db, tenantId, id, {
    status: result.ok ? "connected" : "error",
    lastError: error,
    lastCheckedAt: new Date().toISOString(),
  });
  return { ok: result.ok, error, provider: await getProvider(deps.db, tenantId, id) };
}

function toConnection(deps: VideoDeps, row: repo.SealedRow): Connection {
  return {
    provider: row.provider as ProviderName,
    credentials: openCredentials(deps, row),
    settings: row.settings,
  };
}

/** The built-in connection live classes use when the institution configured none: public Jitsi. */
export const BUILT_IN_JITSI: Connection = {
  provider: "jitsi",
  credentials: {},
  settings: { baseUrl: JITSI_DEFAULT_BASE },
};

/**
 * The connection a live class runs on: the one it names (which must be a `live` connection, not
 * disconnected), else the institution's default `live` connection, else built-in Jitsi (`id` null).
 */
export async function resolveLiveConnection(
  deps: VideoDeps,
  tenantId: string,
  id: string | null | undefined,
  field = "videoProviderId",
): Promise<{ id: string | null; connection: Connection }> {
  const chosen = id ?? (await repo.findDefaultId(deps.db, tenantId, "live"));
  if (chosen === undefined || chosen === null) return { id: null, connection: BUILT_IN_JITSI };
  const row = await repo.findSealed(deps.db, tenantId, chosen);
  if (row === undefined || row.purpose !== "live" || row.status === "disconnected") {
    throw invalid([{ field, key: "field.video_provider_unusable" }]);
  }
  return { id: chosen, connection: toConnection(deps, row) };
}

/** The connection of a stored live class (null: built-in Jitsi). A deleted connection is a 502 at join time. */
export async function openLiveConnection(deps: VideoDeps, tenantId: string, id: string | null) {
  if (id === null) return BUILT_IN_JITSI;
  const row = await repo.findSealed(deps.db, tenantId, id);
  if (row === undefined) throw new AppError("video_provider_error");
  return toConnection(deps, row);
}

/** What live classes use of a connection: meetings, join links and reported attendance. */
export {
  type Connection,
  ensureMeeting,
  joinUrl,
  type Meeting,
  ProviderError,
  providerAttendance,
} from "./providers/index.js";
