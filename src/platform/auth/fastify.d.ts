import type { Principal, RouteAccess, Tenant } from "./types.js";

declare module "fastify" {
  interface FastifyContextConfig {
    access?: RouteAccess;
  }
  interface FastifyInstance {
    /** Every route with its declared access, for the security matrix and the OpenAPI inventory tests. */
    routeDeclarations: { method: string; url: string; access: RouteAccess }[];
  }
  interface FastifyRequest {
    tenant: Tenant | null;
    principal: Principal | null;
  }
}
