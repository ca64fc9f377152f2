import { and, asc, desc, eq, isNotNull, type SQL, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import { readCounter } from "../../db/counters.js";
import { runPageQuery } from "../../db/page-query.js";
import { tenantDomains, tenants } from "../../db/schema/index.js";
import type { PageWindow } from "../../platform/pagination/pagination.js";
import { verificationName, verificationValue } from "./host.js";
import type { DomainRecord, DomainSort, DomainStatus } from "./schemas.js";

const tenantColumns = {
  id: tenants.id,
  name: tenants.name,
  slug: tenants.slug,
  defaultLocale: tenants.defaultLocale,
  timezone: tenants.timezone,
  contactEmail: tenants.contactEmail,
  plan: tenants.plan,
  createdAt: tenants.createdAt,
  updatedAt: tenants.updatedAt,
};

export type TenantRow = {
  id: string;
  name: string;
  slug: string;
  defaultLocale: string;
  timezone: string;
  contactEmail: string | null;
  plan: string;
  createdAt: string;
  updatedAt: string;
};

export async function findTenant(db: Executor, tenantId: string): Promise<TenantRow | undefined> {
  const rows = await db.select(tenantColumns).from(tenants).where(eq(tenants.id, tenantId));
  return rows[0];
}

export async function updateTenant(
  db: Executor,
  tenantId: string,
  changes: Partial<Pick<TenantRow, "name" | "defaultLocale" | "timezone" | "contactEmail">>,
): Promise<TenantRow | undefined> {
  const rows = await db
    .update(tenants)
    .set({ ...changes, updatedAt: sql`now()` })
    .where(eq(tenants.id, tenantId))
    .returning(tenantColumns);
  return rows[0];
}

const domainColumns = {
  host: tenantDomains.host,
  verificationToken: tenantDomains.verificationToken,
  verifiedAt: tenantDomains.verifiedAt,
  lastCheckedAt: tenantDomains.lastCheckedAt,
  lastCheckError: tenantDomains.lastCheckError,
  createdAt: tenantDomains.createdAt,
};

type DomainRow = {
  host: string;
  verificationToken: string;
  verifiedAt: string | null;
  lastCheckedAt: string | null;
  lastCheckError: string | null;
  createdAt: string;
};

export function domainStatus(row: Pick<DomainRow, "verifiedAt" | "lastCheckError">): DomainStatus {
  if (row.verifiedAt !== null) return "verified";
  return row.lastCheckError === null ? "pending" : "failed";
}

function toDomain(row: DomainRow): DomainRecord {
  return {
    host: row.host,
    status: domainStatus(row),
    verification: {
      type: "TXT",
      name: verificationName(row.host),
      value: verificationValue(row.verificationToken),
    },
    verifiedAt: row.verifiedAt,
    lastCheckedAt: row.lastCheckedAt,
    lastCheckError: row.lastCheckError,
    createdAt: row.createdAt,
  };
}

/** The profile's short list: oldest first, so the first domain an institution set up stays on top. */
export async function profileDomains(
  db: Executor,
  tenantId: string,
  limit: number,
): Promise<{ host: string; status: DomainStatus }[]> {
  const rows = await db
    .select({
      host: tenantDomains.host,
      verifiedAt: tenantDomains.verifiedAt,
      lastCheckError: tenantDomains.lastCheckError,
    })
    .from(tenantDomains)
    .where(eq(tenantDomains.tenantId, tenantId))
    .orderBy(asc(tenantDomains.createdAt), asc(tenantDomains.host))
    .limit(limit);
  return rows.map((row) => ({ host: row.host, status: domainStatus(row) }));
}

const ORDER: Record<DomainSort, SQL[]> = {
  createdAt: [asc(tenantDomains.createdAt), asc(tenantDomains.host)],
  "-createdAt": [desc(tenantDomains.createdAt), desc(tenantDomains.host)],
  host: [asc(tenantDomains.host)],
  "-host": [desc(tenantDomains.host)],
};

const STATEMENT: Record<DomainSort, string> = {
  createdAt: "domains_created_asc",
  "-createdAt": "domains_created_desc",
  host: "domains_host_asc",
  "-host": "domains_host_desc",
};

export async function listDomains(
  db: Executor,
  tenantId: string,
  sort: DomainSort,
  window: PageWindow,
): Promise<DomainRecord[]> {
  const rows = await runPageQuery(db, STATEMENT[sort], tenantId, {}, window, (p, name) =>
    db
      .select(domainColumns)
      .from(tenantDomains)
      .where(eq(tenantDomains.tenantId, p.tenantId))
      .orderBy(...ORDER[sort])
      .limit(p.limit)
      .offset(p.offset)
      .prepare(name),
  );
  return (rows as DomainRow[]).map(toDomain);
}

/** The trigger-kept counter `tenant_domains` (migration 0041): no row is counted. */
export function countDomains(db: Executor, tenantId: string): Promise<number> {
  return readCounter(db, tenantId, "tenant_domains");
}

export async function findDomain(
  db: Executor,
  tenantId: string,
  host: string,
): Promise<DomainRecord | undefined> {
  const rows = await db
    .select(domainColumns)
    .from(tenantDomains)
    .where(and(eq(tenantDomains.tenantId, tenantId), eq(tenantDomains.host, host)));
  return rows[0] === undefined ? undefined : toDomain(rows[0]);
}

export async function findVerificationToken(
  db: Executor,
  tenantId: string,
  host: string,
): Promise<{ token: string; verified: boolean } | undefined> {
  const rows = await db
    .select({ token: tenantDomains.verificationToken, verifiedAt: tenantDomains.verifiedAt })
    .from(tenantDomains)
    .where(and(eq(tenantDomains.tenantId, tenantId), eq(tenantDomains.host, host)));
  return rows[0] === undefined ? undefined : { token: rows[0].token, verified: rows[0].verifiedAt !== null };
}

export async function insertDomain(
  db: Executor,
  tenantId: string,
  host: string,
  token: string,
): Promise<DomainRecord> {
  const rows = await db
    .insert(tenantDomains)
    .values({ tenantId, host, verificationToken: token })
    .returning(domainColumns);
  return toDomain(rows[0] as DomainRow);
}

/**
 * Records a check. A pass sets `verified_at` (kept from the first pass); a failure leaves a verified domain
 * verified, so a transient DNS error never takes a live domain away from its institution.
 */
export async function recordCheck(
  db: Executor,
  tenantId: string,
  host: string,
  outcome: { passed: true } | { passed: false; error: string },
): Promise<DomainRecord | undefined> {
  const rows = await db
    .update(tenantDomains)
    .set(
      outcome.passed
        ? {
            verifiedAt: sql`coalesce(${tenantDomains.verifiedAt}, now())`,
            lastCheckedAt: sql`now()`,
            lastCheckError: null,
          }
        : { lastCheckedAt: sql`now()`, lastCheckError: outcome.error },
    )
    .where(and(eq(tenantDomains.tenantId, tenantId), eq(tenantDomains.host, host)))
    .returning(domainColumns);
  return rows[0] === undefined ? undefined : toDomain(rows[0]);
}

/** Deletes a domain; answers whether it existed and whether it was serving the tenant. */
export async function deleteDomain(
  db: Executor,
  tenantId: string,
  host: string,
): Promise<{ verified: boolean } | undefined> {
  const rows = await db
    .delete(tenantDomains)
    .where(and(eq(tenantDomains.tenantId, tenantId), eq(tenantDomains.host, host)))
    .returning({ verifiedAt: tenantDomains.verifiedAt });
  return rows[0] === undefined ? undefined : { verified: rows[0].verifiedAt !== null };
}

/** Whether some institution serves the host already (a verified claim). */
export async function hostIsVerified(db: Executor, host: string): Promise<boolean> {
  const rows = await db
    .select({ host: tenantDomains.host })
    .from(tenantDomains)
    .where(and(eq(tenantDomains.host, host), isNotNull(tenantDomains.verifiedAt)))
    .limit(1);
  return rows.length > 0;
}
