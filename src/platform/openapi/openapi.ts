import { STATUS_CODES } from "node:http";
import swagger from "@fastify/swagger";
import type { FastifyInstance } from "fastify";
import { LOCALES } from "../../locales/index.js";
import type { RouteAccess } from "../auth/types.js";
import { ERROR_CODES, ERROR_STATUS, type ErrorCode } from "../errors/codes.js";
import { translate } from "../i18n/translate.js";

/** An HTTP status some contract error code is answered with. */
export type ErrorStatus = (typeof ERROR_STATUS)[ErrorCode];

declare module "fastify" {
  interface FastifyContextConfig {
    /**
     * For the API reference only: the error statuses this route answers beyond those its access, schema and
     * method already imply (see `derivedStatuses`), e.g. `[409, 422]` for a creation refused by a conflict or the
     * student limit. The response-checking test harness fails on any status a route answers undocumented.
     */
    errors?: readonly ErrorStatus[];
  }
}

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
  { name: "profile-fields", description: "Custom profile fields the institution defines for its users." },
  { name: "themes", description: "The institution's brand: colours, fonts, logo and custom CSS." },
  { name: "classes", description: "Class groups of users, for enrolling and reporting together." },
  { name: "invites", description: "Invitations that let a person activate their account." },
  { name: "tags", description: "Labels for organising and filtering the catalogue." },
  { name: "media", description: "Uploaded files: three-step uploads, verification, signed download URLs." },
  { name: "drive", description: "Folders over the uploaded files, shared with a course or a class." },
  { name: "api-keys", description: "Keys for server-to-server calls, with scopes and rate tiers." },
  { name: "billing", description: "The plan, the Stripe subscription and the payment log." },
  {
    name: "automations",
    description: "Trigger → condition → action rules, their deliveries and inbound URLs.",
  },
  { name: "webhooks", description: "URLs subscribed to platform events, and what was delivered to them." },
  { name: "events", description: "Platform events, as automations and webhooks received them." },
  {
    name: "video-providers",
    description: "Connections to Jitsi, BigBlueButton and Zoom, with sealed credentials.",
  },
  { name: "calendar", description: "The agenda over a window, custom events and per-user iCalendar feeds." },
  {
    name: "live-classes",
    description: "Scheduled video classes, their occurrences, join links and attendance.",
  },
  { name: "auth", description: "Session sign-in, cookie rotation and sign-out." },
  { name: "health", description: "Liveness and readiness probes for the deployment." },
  { name: "email", description: "Mail templates per locale, the messages sent and their delivery status." },
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

type Json = Record<string, unknown>;

/** What the transform learns about a route, carried on its operation until the document is finished. */
interface RouteFacts {
  access: RouteAccess;
  /** 402 `subscription_inactive` while the tenant's subscription is inactive. */
  gated: boolean;
  body: boolean;
  /** Query, header or path parameters, whose validation answers 400. */
  parameters: boolean;
  pathParameters: boolean;
  declared: readonly number[];
}

const FACTS = "x-aula-route";
const UNSAFE_METHODS = new Set(["post", "put", "patch", "delete"]);
const HTTP_METHODS = new Set(["get", "put", "post", "delete", "options", "head", "patch", "trace"]);

/**
 * The error statuses an operation answers, from what its route declares: the auth pipeline's refusals for its
 * access kind, validation and body limits for its inputs, 409 for a reused Idempotency-Key on authenticated
 * POSTs, 500 everywhere; plus the route's own `config.errors`.
 */
export function derivedStatuses(method: string, facts: RouteFacts): number[] {
  // Any request: a Host that is not `name[:port]` (400), a client too slow to send it (408), headers past the
  // server's limit (431), a failure (500).
  const statuses = new Set<number>([400, 408, 431, 500, ...facts.declared]);
  const kind = facts.access.kind;
  if (kind === "tenant" || kind === "authenticated") {
    statuses.add(404); // tenant_not_found
    if (UNSAFE_METHODS.has(method)) {
      statuses.add(415); // a body that is not JSON, sent or not
      statuses.add(403); // a cookie-carrying write from another site (CSRF)
    }
  }
  if (kind === "authenticated" || kind === "cron") {
    statuses.add(401);
    statuses.add(429); // the key's windows, and unusable credentials per IP
  }
  if (kind === "authenticated") {
    statuses.add(403);
    if (method === "post") {
      statuses.add(400); // a malformed Idempotency-Key
      statuses.add(409); // a reused one
    }
  }
  if (facts.gated) statuses.add(402);
  if (facts.body) {
    statuses.add(400);
    statuses.add(413);
    statuses.add(415);
  }
  if (facts.parameters) statuses.add(400);
  if (facts.pathParameters) statuses.add(404);
  return [...statuses].filter((s) => ENVELOPE_STATUSES.has(s)).sort((a, b) => a - b);
}

/** Statuses some error code is answered with: each has a shared response. */
const ENVELOPE_STATUSES: ReadonlySet<number> = new Set(Object.values(ERROR_STATUS));

/** A reusable response per error status, e.g. `Conflict`, whose `error` can only be that status's codes. */
export function errorResponseName(status: number): string {
  return (STATUS_CODES[status] ?? `Error ${status}`).replace(/[^A-Za-z0-9]/g, "");
}

const EXAMPLE_PARAMS = {
  scope: "courses:write",
  retryAfter: 30,
  limit: 10,
  status: "suspended",
  plan: "free",
  upgrade: "checkout",
};

function errorResponses(): Record<string, Json> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of ERROR_CODES)
    byStatus.set(ERROR_STATUS[code], [...(byStatus.get(ERROR_STATUS[code]) ?? []), code]);
  const out: Record<string, Json> = {};
  for (const [status, codes] of [...byStatus].sort(([a], [b]) => a - b)) {
    const headers: Json = { ...COMMON_HEADERS, "Content-Language": ref("headers", "Content-Language") };
    if (status === 401) headers["WWW-Authenticate"] = ref("headers", "WWW-Authenticate");
    if (status === 429) {
      headers["Retry-After"] = ref("headers", "Retry-After");
      Object.assign(headers, RATE_LIMIT_HEADERS);
    }
    const first = codes[0] as ErrorCode;
    const example: Json = { error: first, message: translate("en-US", first, EXAMPLE_PARAMS) };
    if (status === 429) example.retryAfter = 30;
    if (first === "validation_failed")
      example.details = [{ field: "title", message: translate("en-US", "field.required") }];
    out[errorResponseName(status)] = {
      description: `${STATUS_CODES[status] ?? status}: ${codes.map((c) => `\`${c}\``).join(", ")}.`,
      headers,
      content: {
        "application/json": {
          schema: {
            allOf: [
              { $ref: "#/components/schemas/Error" },
              { type: "object", properties: { error: { type: "string", enum: codes } } },
            ],
          },
          example,
        },
      },
    };
  }
  return out;
}

const ref = (kind: string, name: string) => ({ $ref: `#/components/${kind}/${name}` });
const COMMON_HEADERS = { "X-Request-Id": ref("headers", "X-Request-Id") };
const RATE_LIMIT_HEADERS = {
  "X-RateLimit-Limit": ref("headers", "X-RateLimit-Limit"),
  "X-RateLimit-Remaining": ref("headers", "X-RateLimit-Remaining"),
  "X-RateLimit-Reset": ref("headers", "X-RateLimit-Reset"),
};

const HEADERS: Record<string, Json> = {
  "X-Request-Id": {
    description: "This request's id, also in the server's log lines about it.",
    schema: { type: "string", format: "uuid" },
  },
  "Content-Language": {
    description: "The language of `message` and `details[].message`, chosen from `Accept-Language`.",
    schema: { type: "string", enum: [...LOCALES] },
  },
  "WWW-Authenticate": {
    description: "The scheme to authenticate with.",
    schema: { type: "string", example: "Bearer" },
  },
  "Retry-After": {
    description: "Whole seconds until a request is allowed again; equals `retryAfter` in the body.",
    required: true,
    schema: { type: "integer", minimum: 0 },
  },
  "X-RateLimit-Limit": {
    description:
      "With an API key: the limit of the key's window (per hour or per minute) with fewer requests left.",
    schema: { type: "integer", minimum: 0 },
  },
  "X-RateLimit-Remaining": {
    description: "With an API key: the requests left in that window.",
    schema: { type: "integer", minimum: 0 },
  },
  "X-RateLimit-Reset": {
    description: "With an API key: when that window frees a request, in Unix seconds.",
    schema: { type: "integer", minimum: 0 },
  },
  "Idempotent-Replayed": {
    description:
      "`true` when this is the stored response of an earlier request with the same `Idempotency-Key`.",
    schema: { type: "string", enum: ["true"] },
  },
};

const IDEMPOTENCY_KEY = {
  name: "Idempotency-Key",
  in: "header",
  required: false,
  description:
    "At most 255 characters, kept per institution for 24 hours. The same request again replays the first " +
    "response (`Idempotent-Replayed: true`); another request with the key, or a copy while the first still " +
    "runs, is 409 `conflict`. Refused requests and 5xx answers do not keep the key.",
  schema: { type: "string", minLength: 1, maxLength: 255 },
};

const SCHEME = { enum: ["http", "https"], default: "http", description: "`https` in production." };

/** Institution routes: the tenant comes from the host. */
const TENANT_SERVERS = [
  {
    url: "{scheme}://{tenant}.{baseDomain}",
    description:
      "An institution's host: its slug under the deployment's `BASE_DOMAIN`. A verified custom domain of the " +
      "institution (e.g. `https://learn.example.edu`) serves the same API.",
    variables: {
      scheme: SCHEME,
      tenant: { default: "acme", description: "The institution's slug." },
      baseDomain: {
        default: "localhost:3000",
        description: "The deployment's `BASE_DOMAIN` (with its port).",
      },
    },
  },
];

/** Health, cron and provider webhooks answer on any host of the deployment. */
const ANY_HOST_SERVERS = [
  {
    url: "{scheme}://{host}",
    description: "Any host of the deployment; no institution is involved.",
    variables: { scheme: SCHEME, host: { default: "localhost:3000" } },
  },
];

/**
 * Query parameters with a default are not required (a client that omits them gets the default), and their
 * description says the default in words: reference pages such as /docs show a schema's `default` only on hover.
 * The route's own schema, which validates requests, is left as it is.
 */
function documentedQuery(schema: unknown): unknown {
  const s = schema as Json | undefined;
  if (s === undefined || typeof s.properties !== "object" || s.properties === null) return schema;
  const properties = s.properties as Record<string, Json>;
  const described = Object.fromEntries(
    Object.entries(properties).map(([name, property]) => {
      if (property.default === undefined) return [name, property];
      const said = `Default: \`${String(property.default)}\`.`;
      const text = typeof property.description === "string" ? `${property.description} ${said}` : said;
      return [name, { ...property, description: text }];
    }),
  );
  const required = Array.isArray(s.required)
    ? (s.required as string[]).filter((name) => properties[name]?.default === undefined)
    : undefined;
  return { ...s, properties: described, ...(required === undefined ? {} : { required }) };
}

/**
 * Readable, stable operation ids from method and path: `courses.list`, `courses.create`, `courses.get`,
 * `courses.modules.list`, `courses.publish`. The literal segments after `/api` (and `/api/institution`) name
 * the resource; the method, whether the path ends in a parameter, and the success status name the verb. A
 * POST to a singular segment is an action named by it. A route may set `schema.operationId` instead.
 */
export function deriveOperationId(method: string, path: string, operation: Json): string {
  const segments = path
    .replace(/^\/api\/institution(?=\/)/, "")
    .replace(/^\/api(?=\/)/, "")
    .split("/")
    .filter((s) => s !== "");
  const endsInParameter = /^\{.*\}$/.test(segments.at(-1) ?? "");
  const names = segments
    .filter((s) => !/^\{.*\}$/.test(s))
    .map((s) => s.replace(/-(\w)/g, (_, c: string) => c.toUpperCase()));
  const responses = (operation.responses ?? {}) as Record<string, Json>;
  const last = names.at(-1) ?? "";
  let verb: string | undefined;
  if (endsInParameter) {
    verb = { get: "get", patch: "update", put: "set", delete: "delete", post: "post" }[method];
  } else if (method === "get") {
    verb = isPage(responses["200"]) ? "list" : "get";
  } else if (method === "post") {
    // A collection: 201 creates one item, 200 adds several (members, tagged resources).
    const collection = last.endsWith("s") || "201" in responses;
    if (collection && !ACTIONS.has(last)) verb = "201" in responses ? "create" : "add";
  } else {
    verb = { patch: "update", put: "set", delete: "delete" }[method];
  }
  return [...names, ...(verb === undefined ? [] : [verb])].join(".");
}

/** Singular or plural path segments that name an action rather than a collection. */
const ACTIONS = new Set(["accept", "bulk", "duplicate"]);

function isPage(response: Json | undefined): boolean {
  const schema = (response?.content as Record<string, { schema?: Json }> | undefined)?.["application/json"]
    ?.schema;
  const properties = schema?.properties as Json | undefined;
  return properties !== undefined && "pagination" in properties && "data" in properties;
}

/** What the modules add to the document beside their routes. */
export interface DocumentExtras {
  /** OpenAPI 3.1's top-level `webhooks`: the requests the service sends, by name. */
  webhooks?: Json;
  /** Security schemes those requests use (how a receiver authenticates them). */
  securitySchemes?: Json;
}

/** Finishes the document: operation ids, error responses, headers, parameters and optional bodies. */
function finishDocument(doc: Json, extras: DocumentExtras): Json {
  if (extras.webhooks !== undefined) doc.webhooks = extras.webhooks;
  const components = (doc.components ?? {}) as Json;
  components.responses = { ...((components.responses as Json) ?? {}), ...errorResponses() };
  components.headers = { ...((components.headers as Json) ?? {}), ...HEADERS };
  components.parameters = { ...((components.parameters as Json) ?? {}), IdempotencyKey: IDEMPOTENCY_KEY };
  components.securitySchemes = { ...((components.securitySchemes as Json) ?? {}), ...extras.securitySchemes };
  doc.components = components;
  doc.servers = TENANT_SERVERS;
  const seen = new Map<string, string>();
  for (const [path, item] of Object.entries(doc.paths as Record<string, Json>)) {
    for (const [method, shared] of Object.entries(item)) {
      if (!HTTP_METHODS.has(method)) continue;
      // @fastify/swagger shares one object between the methods of a multi-method route.
      const operation = structuredClone(shared) as Json;
      item[method] = operation;
      const facts = operation[FACTS] as RouteFacts | undefined;
      delete operation[FACTS];
      if (facts === undefined) continue;
      finishOperation(method, operation, facts);
      const id = (operation.operationId as string | undefined) ?? deriveOperationId(method, path, operation);
      const taken = seen.get(id);
      if (taken !== undefined) throw new Error(`operationId ${id} of ${method} ${path} is also ${taken}'s`);
      seen.set(id, `${method} ${path}`);
      operation.operationId = id;
    }
  }
  return doc;
}

function finishOperation(method: string, operation: Json, facts: RouteFacts): void {
  const access = facts.access;
  const keys = access.kind === "authenticated" && access.auth.includes("key");
  const idempotent = access.kind === "authenticated" && method === "post";
  if (access.kind === "public" || access.kind === "cron") operation.servers = ANY_HOST_SERVERS;
  if (idempotent) {
    const parameters = (operation.parameters ?? []) as Json[];
    operation.parameters = [...parameters, ref("parameters", "IdempotencyKey")];
  }
  const body = operation.requestBody as Json | undefined;
  if (body !== undefined) body.required = !allFieldsOptional(body);

  const responses = (operation.responses ?? {}) as Record<string, Json>;
  for (const [status, response] of Object.entries(responses)) {
    if (!/^2/.test(status)) continue;
    const headers: Json = { ...((response.headers as Json) ?? {}), ...COMMON_HEADERS };
    if (keys) Object.assign(headers, RATE_LIMIT_HEADERS);
    if (idempotent) headers["Idempotent-Replayed"] = ref("headers", "Idempotent-Replayed");
    response.headers = headers;
  }
  for (const status of derivedStatuses(method, facts)) {
    responses[String(status)] ??= ref("responses", errorResponseName(status));
  }
  operation.responses = responses;
}

/** A body whose declared fields are all optional may be left out (its route treats that as `{}`). */
function allFieldsOptional(body: Json): boolean {
  const schema = (body.content as Record<string, { schema?: Json }> | undefined)?.["application/json"]
    ?.schema;
  if (schema === undefined) return false;
  const properties = schema.properties as Json | undefined;
  return (
    properties !== undefined &&
    Object.keys(properties).length > 0 &&
    (schema.required === undefined || (schema.required as unknown[]).length === 0) &&
    schema.minProperties === undefined &&
    schema.anyOf === undefined &&
    schema.oneOf === undefined &&
    schema.allOf === undefined
  );
}

/** OpenAPI 3.1 generated from the route schemas; each route's access declaration becomes its security. */
export async function registerOpenApi(app: FastifyInstance, extras: DocumentExtras = {}): Promise<void> {
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
        license: { name: "Proprietary", identifier: "LicenseRef-Proprietary" },
      },
      servers: TENANT_SERVERS,
      tags: RESOURCE_TAG_LIST.map((t) => ({ ...t })),
      components: {
        securitySchemes: {
          apiKey: {
            type: "http",
            scheme: "bearer",
            description:
              "`mia_` + 40 hex characters. A key holds scopes (`courses:read`, `courses:write`, …); each " +
              "operation names the one it needs, and a key without it gets 403 `insufficient_scope`. A key " +
              "created with `scopes: []` holds every scope. `GET /api/institution/scopes` lists them all, with " +
              "what each allows.",
          },
          session: { type: "apiKey", in: "cookie", name: "sb-access-token" },
          cronSecret: { type: "http", scheme: "bearer", description: "The deployment's `CRON_SECRET`." },
        },
        schemas: { Error: ErrorSchema },
      },
    },
    transform: ({ schema, url, route }) => {
      const config = (route.config ?? {}) as {
        access?: RouteAccess;
        openWhileInactive?: true;
        closedWhileInactive?: true;
        errors?: readonly number[];
      };
      const access = config.access ?? { kind: "public" };
      const { security, note } = describeAccess(access);
      const base = (schema ?? {}) as Record<string, unknown>;
      const description = [base.description, `**Access:** ${note}`].filter(Boolean).join("\n\n");
      const transformed: Record<string, unknown> = { ...base, description };
      if (base.querystring !== undefined) transformed.querystring = documentedQuery(base.querystring);
      if (security !== undefined) transformed.security = security;
      if (access.kind === "authenticated" && access.scope) transformed["x-scope"] = access.scope;
      const facts: RouteFacts = {
        access,
        gated:
          config.closedWhileInactive === true ||
          (access.kind === "authenticated" &&
            url.startsWith("/api/institution/") &&
            config.openWhileInactive !== true),
        body: base.body !== undefined,
        parameters: [base.querystring, base.headers, base.params].some((p) => p !== undefined),
        pathParameters: url.includes(":"),
        declared: config.errors ?? [],
      };
      transformed[FACTS] = facts;
      return { schema: transformed, url };
    },
    transformObject: (documentObject) =>
      finishDocument((documentObject as { openapiObject: Json }).openapiObject, extras) as never,
  });
}
