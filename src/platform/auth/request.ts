import type { FastifyRequest } from "fastify";
import type { Principal, Tenant } from "./types.js";

/** The tenant of a route declared with tenant or authenticated access; the pipeline guarantees it is set. */
export function tenantOf(request: FastifyRequest): Tenant {
  if (request.tenant === null) throw new Error("route has no tenant: declare its access");
  return request.tenant;
}

export function principalOf(request: FastifyRequest): Principal {
  if (request.principal === null) throw new Error("route has no principal: declare authenticated access");
  return request.principal;
}
