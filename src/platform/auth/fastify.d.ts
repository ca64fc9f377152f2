import type { Principal, RouteAccess, Tenant } from "./types.js";

declare module "fastify" {
  interface FastifyContextConfig {
    access?: RouteAccess;
  }
  interface FastifyRequest {
    tenant: Tenant | null;
    principal: Principal | null;
  }
}
