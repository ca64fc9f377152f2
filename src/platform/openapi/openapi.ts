import swagger from "@fastify/swagger";
import type { FastifyInstance } from "fastify";
import type { RouteAccess } from "../auth/types.js";
import { ERROR_CODES } from "../errors/codes.js";

const ErrorSchema: Record<string, unknown> = {
  type: "object",
  required: ["error", "message"],
  properties: {
    error: { type: "string", enum: ERROR_CODES },
    message: { type: "string", description: "Localised per Accept-Language (pt-BR, en-US, es-ES, fr-FR)." },
    details: {
      type: "array",
      items: {
        type: "object",
        required: ["field", "message"],
        properties: { field: { type: "string" }, message: { type: "string" } },
      },
    },
    retryAfter: { type: "integer", description: "Seconds to wait; equals the Retry-After header." },
  },
};

function describeAccess(access: RouteAccess | undefined): {
  security?: Record<string, string[]>[];
  note: string;
} {
  if (access === undefined || access.kind === "public") return { security: [], note: "No authentication." };
  if (access.kind === "tenant")
    return { security: [], note: "No credentials; the tenant comes from the Host." };
  if (access.kind === "cron")
    return { security: [{ cronSecret: [] }], note: "`Authorization: Bearer $CRON_SECRET`; any host." };
  const security: Record<string, string[]>[] = [];
  if (access.auth.includes("key")) security.push({ apiKey: access.scope ? [access.scope] : [] });
  if (access.auth.includes("session")) security.push({ session: [] });
  const parts = [
    access.auth.includes("key")
      ? `API key with scope \`${access.scope}\``
      : "Session only (API keys get 403)",
  ];
  if (access.auth.includes("key") && access.auth.includes("session")) parts.push("or a session");
  if (access.roles) parts.push(`session roles: ${access.roles.map((r) => `\`${r}\``).join(", ")}`);
  return { security, note: `${parts.join("; ")}.` };
}

/** OpenAPI 3.1 generated from the route schemas; each route's access declaration becomes its security. */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: "3.1.0",
      info: {
        title: "Aula API",
        version: "1.0.0",
        description:
          "The public REST API of Aula. Each institution is served on its own host. Errors use one envelope " +
          "(`error`, `message`, `details`, `retryAfter`); lists use `page`/`perPage` and answer " +
          "`{data, pagination}`. Every authenticated POST accepts `Idempotency-Key` (per institution, 24 hours): " +
          "the same request replays the first response with `Idempotent-Replayed: true`; another request with " +
          "the same key is 409.",
      },
      components: {
        securitySchemes: {
          apiKey: { type: "http", scheme: "bearer", description: "`mia_` + 40 hex characters." },
          session: { type: "apiKey", in: "cookie", name: "sb-access-token" },
          cronSecret: { type: "http", scheme: "bearer", description: "The deployment's `CRON_SECRET`." },
        },
        schemas: { Error: ErrorSchema },
      },
    },
    transform: ({ schema, url, route }) => {
      const access = (route.config as { access?: RouteAccess } | undefined)?.access;
      const { security, note } = describeAccess(access);
      const base = (schema ?? {}) as Record<string, unknown>;
      const responses = { ...((base.response as Record<string, unknown> | undefined) ?? {}) };
      responses["4XX"] ??= { description: "Error", ...ErrorSchema };
      responses["5XX"] ??= { description: "Error", ...ErrorSchema };
      const description = [base.description, `**Access:** ${note}`].filter(Boolean).join("\n\n");
      const transformed: Record<string, unknown> = { ...base, response: responses, description };
      if (security !== undefined) transformed.security = security;
      if (access?.kind === "authenticated" && access.scope) transformed["x-scope"] = access.scope;
      return { schema: transformed, url };
    },
  });
}
