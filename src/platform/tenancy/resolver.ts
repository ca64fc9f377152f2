import { and, eq, isNotNull } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { billingSubscriptions, tenantDomains, tenants } from "../../db/schema/index.js";
import type { Tenant } from "../auth/types.js";
import type { Broadcast } from "../cache/broadcast.js";
import { AppError } from "../errors/app-error.js";
import { TtlCache } from "../http/ttl-cache.js";

/** `acme.localhost:3000` → `acme`; null when the host is not a direct subdomain of the base domain. */
export function slugFromHost(host: string, baseDomain: string): string | null {
  const suffix = `.${baseDomain}`;
  if (!host.endsWith(suffix)) return null;
  const label = host.slice(0, -suffix.length);
  return /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/.test(label) ? label : null;
}

/** Lowercased host name without port; IPv6 literals keep their brackets. */
export function normaliseHost(raw: string | undefined): string {
  if (raw === undefined) return "";
  const host = raw.trim().toLowerCase();
  if (host.startsWith("[")) return host.slice(0, host.indexOf("]") + 1);
  const colon = host.lastIndexOf(":");
  return (colon === -1 ? host : host.slice(0, colon)).replace(/\.$/, "");
}

const CHANGED_CHANNEL = "aula:tenants:changed";

/**
 * Host → tenant, once per request. Answers (including "no tenant here") are cached for a few seconds so that a
 * flood of requests to one host costs one query; a new custom domain shows up within that time. A change that
 * must not wait (a plan or subscription status from Stripe) calls `changed`, which empties the cache here and,
 * through the broadcast, in every other process.
 */
export class TenantResolver {
  private readonly cache: TtlCache<string, Tenant | null>;

  constructor(
    private readonly db: Db,
    private readonly baseDomain: string,
    private readonly broadcast?: Broadcast,
    ttlMs = 5000,
  ) {
    this.cache = new TtlCache(ttlMs, 10_000);
  }

  async listen(): Promise<void> {
    await this.broadcast?.on(CHANGED_CHANNEL, () => this.cache.clear());
  }

  /** Call after committing a change to a tenant's plan or billing status. */
  async changed(tenantId: string): Promise<void> {
    this.cache.clear();
    await this.broadcast?.publish(CHANGED_CHANNEL, tenantId);
  }

  async resolve(rawHost: string | undefined): Promise<Tenant | null> {
    const host = normaliseHost(rawHost);
    if (host === "") return null;
    const cached = this.cache.get(host);
    if (cached !== undefined) return cached;
    const tenant = await this.lookup(host);
    this.cache.set(host, tenant);
    return tenant;
  }

  private async lookup(host: string): Promise<Tenant | null> {
    const columns = {
      id: tenants.id,
      slug: tenants.slug,
      name: tenants.name,
      plan: tenants.plan,
      billingStatus: billingSubscriptions.status,
    };
    const slug = slugFromHost(host, this.baseDomain);
    if (slug !== null) {
      const rows = await this.db
        .select(columns)
        .from(tenants)
        .leftJoin(billingSubscriptions, eq(billingSubscriptions.tenantId, tenants.id))
        .where(eq(tenants.slug, slug))
        .limit(1);
      return rows[0] ?? null;
    }
    const rows = await this.db
      .select(columns)
      .from(tenantDomains)
      .innerJoin(tenants, eq(tenants.id, tenantDomains.tenantId))
      .leftJoin(billingSubscriptions, eq(billingSubscriptions.tenantId, tenants.id))
      .where(and(eq(tenantDomains.host, host), isNotNull(tenantDomains.verifiedAt)))
      .limit(1);
    return rows[0] ?? null;
  }
}

/** `:3000` of `acme.localhost:3000` or `[::1]:3000`; empty when the host names no port. */
export function portOf(raw: string): string {
  const host = raw.trim();
  const at = host.startsWith("[") ? host.indexOf("]") + 1 : host.lastIndexOf(":");
  const port = at <= 0 ? "" : host.slice(at);
  return /^:\d{1,5}$/.test(port) ? port : "";
}

/**
 * 404 `tenant_not_found`, saying which host was read and how institutions are addressed, with the port the
 * client used: a client pointed at `localhost:3000` or at the wrong subdomain learns what to change.
 */
export function tenantNotFound(host: string | undefined, baseDomain: string): AppError {
  if (host === undefined || host.trim() === "") {
    return new AppError("tenant_not_found", {
      messageKey: "tenant_not_found.no_host",
      params: { baseDomain },
    });
  }
  return new AppError("tenant_not_found", { params: { host: host.trim(), baseDomain, port: portOf(host) } });
}
