import { Type } from "typebox";
import type { AppContext } from "../../platform/context.js";
import type { App } from "../../platform/http/types.js";

const status = (example: string) =>
  Type.Object({ status: Type.String() }, { additionalProperties: false, examples: [{ status: example }] });
const Live = status("ok");
const Ready = status("ready");
const Unavailable = status("unavailable");

/** Liveness and readiness. Neither reveals versions, hosts or connection strings. */
export function healthRoutes(app: App, ctx: AppContext): void {
  app.get(
    "/healthz",
    {
      config: { access: { kind: "public" } },
      schema: { tags: ["health"], summary: "Process is up", response: { 200: Live } },
    },
    async () => ({ status: "ok" }),
  );
  app.get(
    "/readyz",
    {
      config: { access: { kind: "public" } },
      schema: {
        tags: ["health"],
        summary: "Database is reachable",
        response: { 200: Ready, 503: Unavailable },
      },
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
