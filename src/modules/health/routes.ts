import { Type } from "typebox";
import type { AppContext } from "../../platform/context.js";
import type { App } from "../../platform/http/types.js";

const Status = Type.Object({ status: Type.String() }, { additionalProperties: false });

/** Liveness and readiness. Neither reveals versions, hosts or connection strings. */
export function healthRoutes(app: App, ctx: AppContext): void {
  app.get(
    "/healthz",
    {
      config: { access: { kind: "public" } },
      schema: { tags: ["health"], summary: "Process is up", response: { 200: Status } },
    },
    async () => ({ status: "ok" }),
  );
  app.get(
    "/readyz",
    {
      config: { access: { kind: "public" } },
      schema: { tags: ["health"], summary: "Database is reachable", response: { 200: Status, 503: Status } },
    },
    async (request, reply) => {
      try {
        await ctx.database.ping();
        return { status: "ready" };
      } catch (err) {
        request.log.warn({ err }, "readiness check failed");
        reply.code(503);
        return { status: "unavailable" };
      }
    },
  );
}
