import { randomBytes } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { tenantDomains, tenants } from "../../src/db/schema/index.js";
import { createDomain, domainDeps } from "../../src/modules/institution/domain-service.js";
import type { Harness, TestTenant } from "../../src/test-support/harness.js";
import type { Fixtures } from "./fixture.js";

const newHost = () => `matrix-${randomBytes(5).toString("hex")}.example.org`;

/** A pending custom domain of the tenant, as the `:host` path parameter. */
const domain = async (h: Harness, t: TestTenant) => {
  const created = await createDomain(domainDeps(h.ctx), t.id, { host: newHost() });
  return { host: created.host };
};

const domainRow = async (h: Harness, t: TestTenant, params: string | Record<string, string>) => {
  const host = typeof params === "string" ? params : (params.host as string);
  const [row] = await h.database.db
    .select()
    .from(tenantDomains)
    .where(and(eq(tenantDomains.tenantId, t.id), eq(tenantDomains.host, host)));
  if (row === undefined) return undefined;
  // The tenant too: a refused request must neither touch the domain nor the institution it maps to.
  const [tenant] = await h.database.db.select().from(tenants).where(eq(tenants.id, t.id));
  return { row, tenant };
};

export const fixtures: Fixtures = {
  "GET /api/institution/profile": { single: true },
  "PATCH /api/institution/profile": { body: { timezone: "America/Sao_Paulo" } },
  "GET /api/institution/domains": {},
  "POST /api/institution/domains": { body: { host: newHost() } },
  "GET /api/institution/domains/:host": { makeObject: domain, snapshot: domainRow },
  "POST /api/institution/domains/:host/verify": { makeObject: domain, snapshot: domainRow },
  "DELETE /api/institution/domains/:host": { makeObject: domain, snapshot: domainRow },
};
