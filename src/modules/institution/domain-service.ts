import { randomBytes } from "node:crypto";
import type { Executor } from "../../db/client.js";
import { isUniqueViolation } from "../../db/errors.js";
import type { AppContext } from "../../platform/context.js";
import { AppError, notFound, validationError } from "../../platform/errors/app-error.js";
import type { TxtResolver } from "../../platform/outbound/resolver.js";
import { pageEnvelope, pageWindow } from "../../platform/pagination/pagination.js";
import type { TenantResolver } from "../../platform/tenancy/resolver.js";
import { checkVerificationRecord } from "./dns-check.js";
import { isCustomDomainName, isPlatformHost } from "./host.js";
import * as repo from "./repo.js";
import type { CreateDomainInput, DomainRecord, ListDomainsQueryType } from "./schemas.js";

export interface DomainDeps {
  db: Executor;
  tenants: TenantResolver;
  baseDomain: string;
  resolveTxt: TxtResolver;
}

/** Read at call time, so a test can swap `ctx.resolveTxt` for a stub after the routes are registered. */
export function domainDeps(ctx: AppContext): DomainDeps {
  return {
    db: ctx.database.db,
    tenants: ctx.tenants,
    baseDomain: ctx.config.baseDomain,
    resolveTxt: ctx.resolveTxt,
  };
}

/** A `:host` path parameter as stored (hosts are case-insensitive); a malformed one is an unknown one: 404. */
export function requireHost(raw: string): string {
  const host = raw.toLowerCase();
  if (!isCustomDomainName(host)) throw notFound();
  return host;
}

export async function listDomains(db: Executor, tenantId: string, query: ListDomainsQueryType) {
  const window = pageWindow(query);
  const [data, total] = await Promise.all([
    repo.listDomains(db, tenantId, query.sort ?? "-createdAt", window),
    repo.countDomains(db, tenantId),
  ]);
  return pageEnvelope(data, total, window);
}

export async function getDomain(db: Executor, tenantId: string, host: string): Promise<DomainRecord> {
  const domain = await repo.findDomain(db, tenantId, host);
  if (domain === undefined) throw notFound();
  return domain;
}

/**
 * Registers this institution's claim on a host, pending until its own TXT token is found. Other institutions'
 * pending claims do not block it (otherwise anyone could squat a host they do not control); a host some
 * institution already serves, or one this institution already claimed, is 409, which names nobody.
 */
export async function createDomain(
  deps: DomainDeps,
  tenantId: string,
  input: CreateDomainInput,
): Promise<DomainRecord> {
  const host = input.host;
  if (!isCustomDomainName(host)) throw validationError("host", "field.host_name");
  if (isPlatformHost(host, deps.baseDomain)) throw validationError("host", "field.host_reserved");
  if (await repo.hostIsVerified(deps.db, host)) throw domainTaken();
  const token = randomBytes(16).toString("hex");
  return repo.insertDomain(deps.db, tenantId, host, token).catch(takenOnUniqueViolation);
}

const domainTaken = () => new AppError("conflict", { messageKey: "conflict.domain_taken" });

function takenOnUniqueViolation(err: unknown): never {
  if (isUniqueViolation(err)) throw domainTaken();
  throw err;
}

/**
 * Looks the TXT record up (outside any transaction: DNS may take seconds) and records the outcome. A pass makes
 * the host serve the institution at once: the host → tenant cache is dropped in every process. When two claims
 * pass, the first to record it wins (a unique index over verified hosts); the other is 409.
 */
export async function verifyDomain(deps: DomainDeps, tenantId: string, host: string): Promise<DomainRecord> {
  const before = await repo.findVerificationToken(deps.db, tenantId, host);
  if (before === undefined) throw notFound();
  const outcome = await checkVerificationRecord(deps.resolveTxt, host, before.token);
  const after = await repo.recordCheck(deps.db, tenantId, host, outcome).catch(takenOnUniqueViolation);
  if (after === undefined) throw notFound();
  if (!before.verified && after.status === "verified") await deps.tenants.changed(tenantId);
  return after;
}

/** Removes a domain; a verified one stops serving the institution at once. */
export async function deleteDomain(deps: DomainDeps, tenantId: string, host: string): Promise<void> {
  const deleted = await repo.deleteDomain(deps.db, tenantId, host);
  if (deleted === undefined) throw notFound();
  if (deleted.verified) await deps.tenants.changed(tenantId);
}
