/**
 * Builds the OpenAPI document from the routes: @fastify/swagger with a transform that reads each route's access
 * declaration and inputs (route-facts.ts, security.ts), then a pass over the finished document that adds operation
 * ids (operation-ids.ts), the shared error responses (error-responses.ts), headers, parameters and servers
 * (shared-components.ts), and what the modules add beside their routes (webhooks and their security schemes).
 */
import swagger from "@fastify/swagger";
import type { FastifyInstance } from "fastify";
import type { RouteAccess } from "../auth/types.js";
import { ErrorSchema, errorResponseName, errorResponses } from "./error-responses.js";
import { deriveOperationId } from "./operation-ids.js";
import { RESOURCE_TAG_LIST } from "./resource-tags.js";
import { derivedStatuses, type RouteFacts } from "./route-facts.js";
import { describeAccess, SECURITY_SCHEMES } from "./security.js";
import {
  ANY_HOST_SERVERS,
  COMMON_HEADERS,
  HEADERS,
  IDEMPOTENCY_KEY,
  RATE_LIMIT_HEADERS,
  ref,
  TENANT_SERVERS,
} from "./shared-components.js";

type Json = Record<string, unknown>;

const FACTS = "x-aula-route";
const HTTP_METHODS = new Set(["get", "put", "post", "delete", "options", "head", "patch", "trace"]);

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
        securitySchemes: SECURITY_SCHEMES,
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
