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

/**
 * The reference's resource groups, in the order /docs lists them. Every operation carries exactly one of these
 * names as its only tag.
 */
const RESOURCE_TAG_LIST = [
  { name: "institution", description: "The institution itself: profile, settings, host and custom domain." },
  { name: "courses", description: "Courses: create, publish, archive and delete them." },
  { name: "modules", description: "The ordered modules that group a course's lessons." },
  { name: "lessons", description: "Lessons and their content, inside a course's modules." },
  { name: "enrollments", description: "Who takes or teaches which course, and how far they got." },
  { name: "completions", description: "Lesson completions, which drive progress and course completion." },
  { name: "quizzes", description: "Quizzes, their attempts and scores." },
  { name: "question-banks", description: "Reusable questions that quizzes draw from." },
  { name: "users", description: "Students, instructors and administrators of the institution." },
  { name: "classes", description: "Class groups of users, for enrolling and reporting together." },
  { name: "invites", description: "Invitations that let a person activate their account." },
  { name: "tags", description: "Labels for organising and filtering the catalogue." },
  { name: "api-keys", description: "Keys for server-to-server calls, with scopes and rate tiers." },
  { name: "billing", description: "The plan, the Stripe subscription and the payment log." },
  {
    name: "automations",
    description: "Trigger → condition → action rules, their deliveries and inbound URLs.",
  },
  { name: "webhooks", description: "URLs subscribed to platform events, and what was delivered to them." },
  { name: "events", description: "Platform events, as automations and webhooks received them." },
  { name: "auth", description: "Session sign-in, cookie rotation and sign-out." },
  { name: "health", description: "Liveness and readiness probes for the deployment." },
] as const;

export type ResourceTag = (typeof RESOURCE_TAG_LIST)[number]["name"];
export const RESOURCE_TAGS: readonly ResourceTag[] = RESOURCE_TAG_LIST.map((t) => t.name);

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
      tags: RESOURCE_TAG_LIST.map((t) => ({ ...t })),
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
