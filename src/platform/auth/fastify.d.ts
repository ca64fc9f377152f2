import type { Principal, RouteAccess, Tenant } from "./types.js";

declare module "fastify" {
  interface FastifyContextConfig {
    access?: RouteAccess;
    /**
     * Set on the routes a tenant whose subscription is inactive (suspended, unpaid, paused) may still use:
     * billing, listing API keys. Every other /api/institution route answers 402 for such a tenant.
     */
    openWhileInactive?: true;
    /**
     * Set on routes outside /api/institution that act for a tenant without credentials (invitation acceptance):
     * they too answer 402 while the tenant's subscription is inactive.
     */
    closedWhileInactive?: true;
  }
  interface FastifyInstance {
    /** Every route with its declared access, for the security matrix and the OpenAPI inventory tests. */
    routeDeclarations: { method: string; url: string; access: RouteAccess; openWhileInactive: boolean }[];
  }
  interface FastifyRequest {
    tenant: Tenant | null;
    principal: Principal | null;
    /** The `Idempotency-Key` this request holds, until its response is stored. */
    idempotencyKey: { tenantId: string; principal: string; key: string } | null;
  }
}
