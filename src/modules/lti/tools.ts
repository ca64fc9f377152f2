/** Tool registration by hand (RESOURCES 4.18): list, create, read, update, delete. */
import { randomBytes, randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { importJWK } from "jose";
import type { Principal } from "../../platform/auth/types.js";
import type { AppContext } from "../../platform/context.js";
import { AppError, type DetailKey, notFound } from "../../platform/errors/app-error.js";
import { checkTargetUrl } from "../../platform/outbound/target-url.js";
import { cappedPageEnvelope } from "../../platform/pagination/capped.js";
import { pageWindow } from "../../platform/pagination/pagination.js";
import type {
  CreateLtiToolInput,
  ListLtiToolsQueryType,
  LtiToolRecord,
  PrivacyLevel,
  UpdateLtiToolInput,
} from "./schemas.js";
import * as repo from "./tool-repo.js";

export interface LtiDeps {
  ctx: AppContext;
  /** `http(s)://host` of the request: the platform's issuer and endpoints as the tool sees them. */
  origin: string;
}

export const LTI_PATH = "/api/institution/lti";

export function platformOf(origin: string) {
  return {
    issuer: origin,
    authorizationUrl: `${origin}${LTI_PATH}/authorize`,
    tokenUrl: `${origin}${LTI_PATH}/token`,
    jwksUrl: `${origin}${LTI_PATH}/jwks`,
  };
}

export function toRecord(row: repo.ToolRow, origin: string): LtiToolRecord {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    vendor: row.vendor,
    iconUrl: row.iconUrl,
    ltiVersion: "1.3",
    registrationMethod: row.registrationMethod as LtiToolRecord["registrationMethod"],
    clientId: row.clientId,
    deploymentIds: [row.deploymentId],
    targetLinkUri: row.targetLinkUri,
    oidcInitiationUrl: row.oidcInitiationUrl,
    redirectUris: row.redirectUris,
    jwksUrl: row.jwksUrl,
    publicJwk: (row.publicJwk ?? null) as LtiToolRecord["publicJwk"],
    scopes: row.scopes as LtiToolRecord["scopes"],
    placements: row.placements as LtiToolRecord["placements"],
    customParameters: row.customParameters,
    privacyLevel: row.privacyLevel as PrivacyLevel,
    status: row.status as LtiToolRecord["status"],
    platform: platformOf(origin),
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * URLs the user's browser is sent to (never fetched by us): https, or http on a loopback host, which browsers
 * count as a secure context (W3C Secure Contexts) and which is how a tool is developed locally.
 */
export function isBrowserUrl(raw: string): boolean {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return false;
  }
  if (url.username !== "" || url.password !== "" || url.hash !== "") return false;
  return url.protocol === "https:" || (url.protocol === "http:" && LOOPBACK.has(url.hostname));
}

type Fields = Partial<CreateLtiToolInput>;

/** What the schema cannot say: URL rules, the tool's key being usable, and at least one way to get it. */
async function validate(deps: LtiDeps, input: Fields, merged: { jwksUrl: unknown; publicJwk: unknown }) {
  const details: DetailKey[] = [];
  for (const field of ["targetLinkUri", "oidcInitiationUrl", "iconUrl"] as const) {
    const value = input[field];
    if (typeof value === "string" && !isBrowserUrl(value)) details.push({ field, key: "field.https_url" });
  }
  input.redirectUris?.forEach((uri, i) => {
    if (!isBrowserUrl(uri)) details.push({ field: `redirectUris.${i}`, key: "field.https_url" });
  });
  if (typeof input.jwksUrl === "string") {
    const { config } = deps.ctx;
    const target = await checkTargetUrl(input.jwksUrl, {
      allow: config.outbound.allowCidrs,
      resolve: deps.ctx.resolve,
    });
    if (!target.ok) details.push({ field: "jwksUrl", key: "field.url_forbidden" });
  }
  if (input.publicJwk) {
    try {
      const alg = input.publicJwk.alg ?? (input.publicJwk.kty === "EC" ? "ES256" : "RS256");
      // A short RSA modulus imports fine and signs nothing anyone should trust.
      if (input.publicJwk.kty === "RSA" && Buffer.from(input.publicJwk.n ?? "", "base64url").length < 256) {
        throw new Error("RSA key shorter than 2048 bits");
      }
      await importJWK(input.publicJwk, alg);
    } catch {
      details.push({ field: "publicJwk", key: "field.invalid" });
    }
  }
  if (!merged.jwksUrl && !merged.publicJwk) details.push({ field: "jwksUrl", key: "field.required" });
  if (details.length > 0) throw new AppError("validation_failed", { details });
}

/** The tool's keys and where launches and tokens go are credentials: an administrator's session only. */
const BOUND_FIELDS = ["jwksUrl", "publicJwk", "redirectUris", "oidcInitiationUrl", "targetLinkUri"] as const;

function requireSessionFor(principal: Principal, input: Fields): void {
  if (!BOUND_FIELDS.some((f) => input[f] !== undefined)) return;
  if (principal.kind !== "session") throw new AppError("session_required");
  if (principal.role !== "institution_admin") throw new AppError("forbidden");
}

export async function listTools(deps: LtiDeps, tenantId: string, query: ListLtiToolsQueryType) {
  const db = deps.ctx.database.db;
  const window = pageWindow(query);
  const [rows, total] = await Promise.all([
    repo.listTools(db, tenantId, query.status, window),
    repo.countTools(db, tenantId, query.status),
  ]);
  return cappedPageEnvelope(
    rows.map((r) => toRecord(r, deps.origin)),
    total,
    window,
  );
}

export async function getTool(deps: LtiDeps, tenantId: string, id: string): Promise<LtiToolRecord> {
  const row = await repo.findTool(deps.ctx.database.db, tenantId, id);
  if (row === undefined) throw notFound();
  return toRecord(row, deps.origin);
}

/** A client id of our own making: 32 base64url characters, unguessable but not secret. */
export const newClientId = () => randomBytes(24).toString("base64url");

export async function createTool(
  deps: LtiDeps,
  tenantId: string,
  input: CreateLtiToolInput,
  registrationMethod: "manual" | "dynamic" = "manual",
  /** A dynamic registration's tool id comes from its registration token (dynamic-registration.ts). */
  id?: string,
): Promise<LtiToolRecord> {
  await validate(deps, input, { jwksUrl: input.jwksUrl, publicJwk: input.publicJwk });
  const row = await repo.insertTool(deps.ctx.database.db, {
    ...(id === undefined ? {} : { id }),
    tenantId,
    name: input.name.trim(),
    description: input.description ?? null,
    vendor: input.vendor ?? null,
    iconUrl: input.iconUrl ?? null,
    registrationMethod,
    clientId: newClientId(),
    deploymentId: randomUUID(),
    targetLinkUri: input.targetLinkUri,
    oidcInitiationUrl: input.oidcInitiationUrl,
    redirectUris: input.redirectUris,
    jwksUrl: input.jwksUrl ?? null,
    publicJwk: (input.publicJwk ?? null) as Record<string, unknown> | null,
    scopes: input.scopes ?? [],
    placements: input.placements ?? [],
    customParameters: input.customParameters ?? {},
    privacyLevel: input.privacyLevel ?? "anonymous",
    status: input.status ?? "active",
  });
  return toRecord(row, deps.origin);
}

export async function updateTool(
  deps: LtiDeps,
  tenantId: string,
  principal: Principal,
  id: string,
  input: UpdateLtiToolInput,
): Promise<LtiToolRecord> {
  requireSessionFor(principal, input);
  const db = deps.ctx.database.db;
  const current = await repo.findTool(db, tenantId, id);
  if (current === undefined) throw notFound();
  const merged = {
    jwksUrl: input.jwksUrl === undefined ? current.jwksUrl : input.jwksUrl,
    publicJwk: input.publicJwk === undefined ? current.publicJwk : input.publicJwk,
  };
  await validate(deps, input, merged);
  const { publicJwk, name, ...rest } = input;
  const row = await repo.updateTool(db, tenantId, id, {
    ...rest,
    ...(name === undefined ? {} : { name: name.trim() }),
    ...(publicJwk === undefined ? {} : { publicJwk: publicJwk as Record<string, unknown> | null }),
    updatedAt: sql`now()` as unknown as string,
  });
  if (row === undefined) throw notFound();
  return toRecord(row, deps.origin);
}

export async function deleteTool(deps: LtiDeps, tenantId: string, id: string): Promise<void> {
  if (!(await repo.deleteTool(deps.ctx.database.db, tenantId, id))) throw notFound();
}
