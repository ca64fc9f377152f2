import { randomUUID } from "node:crypto";
import { createConfig, lintFromString } from "@redocly/openapi-core";
import { Ajv } from "ajv";
import addFormatsModule from "ajv-formats";
import { describe, expect, it } from "vitest";
import { useApi } from "../../test-support/api.js";
import { adminCookie, makeTenant } from "../../test-support/harness.js";
import { RESOURCE_TAGS } from "./resource-tags.js";

// ajv-formats is published as CommonJS with a default export property.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

const { h } = useApi();

interface Operation {
  security?: Record<string, string[]>[];
  responses?: Record<string, unknown>;
  description?: string;
  "x-scope"?: string;
}

interface Media {
  schema?: unknown;
  example?: unknown;
  examples?: Record<string, { value?: unknown }>;
}

interface DocumentedOperation {
  tags?: string[];
  requestBody?: { content?: Record<string, Media> };
  responses?: Record<string, { content?: Record<string, Media> }>;
}

interface Document {
  tags?: { name: string; description?: string }[];
  components?: Record<string, unknown>;
  paths: Record<string, Record<string, DocumentedOperation>>;
}

/** What generators and linters read from an operation. */
interface ClientOperation {
  operationId?: string;
  servers?: { url: string }[];
  parameters?: {
    $ref?: string;
    name?: string;
    in?: string;
    required?: boolean;
    description?: string;
    schema?: { default?: unknown };
  }[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: { required?: string[] } }> };
  responses?: Record<string, { $ref?: string; headers?: Record<string, unknown> }>;
}

function clientOperationsOf(doc: Document): { name: string; op: ClientOperation }[] {
  return operationsOf(doc).map(({ name, op }) => ({ name, op: op as ClientOperation }));
}

const HTTP_METHODS = new Set(["get", "put", "post", "delete", "options", "head", "patch", "trace"]);

async function openApiDocument(): Promise<Document> {
  const res = await h.inject({ method: "GET", url: "/openapi.json" });
  expect(res.statusCode).toBe(200);
  return res.json() as Document;
}

function operationsOf(doc: Document): { name: string; path: string; op: DocumentedOperation }[] {
  return Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops)
      .filter(([method]) => HTTP_METHODS.has(method))
      .map(([method, op]) => ({ name: `${method.toUpperCase()} ${path}`, path, op })),
  );
}

/** The JSON bodies an operation documents: its request body and each 2xx response, by a readable label. */
function jsonMediaOf(op: DocumentedOperation): { label: string; media: Media }[] {
  const out: { label: string; media: Media }[] = [];
  const request = op.requestBody?.content?.["application/json"];
  if (request !== undefined) out.push({ label: "requestBody", media: request });
  for (const [status, response] of Object.entries(op.responses ?? {})) {
    const media = response.content?.["application/json"];
    if (/^2/.test(status) && media !== undefined) out.push({ label: status, media });
  }
  return out;
}

function examplesOf(media: Media): unknown[] {
  if (media.example !== undefined) return [media.example];
  return Object.values(media.examples ?? {}).map((e) => e.value);
}

describe("the API reference", () => {
  it("is OpenAPI 3.1 and documents every live /api route with its access, and nothing else", async () => {
    const res = await h.inject({ method: "GET", url: "/openapi.json" });
    expect(res.statusCode).toBe(200);
    const doc = res.json() as { openapi: string; paths: Record<string, Record<string, Operation>> };
    expect(doc.openapi).toBe("3.1.0");
    const documented = new Set<string>();
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const method of Object.keys(ops))
        documented.add(`${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ":$1")}`);
    }
    const live = h.app.routeDeclarations
      .filter((r) => r.url.startsWith("/api/") && r.method !== "OPTIONS")
      .map((r) => `${r.method} ${r.url}`);
    expect([...documented].filter((d) => d.includes("/api/")).sort()).toEqual([...new Set(live)].sort());

    for (const r of h.app.routeDeclarations.filter((d) => d.access.kind === "authenticated")) {
      const op = doc.paths[r.url.replace(/:(\w+)/g, "{$1}")]?.[r.method.toLowerCase()] as Operation;
      expect(op.security, `${r.method} ${r.url}`).toBeDefined();
      expect(op.description).toContain("**Access:**");
      for (const status of ["401", "403", "429", "500"])
        expect(op.responses?.[status], `${r.method} ${r.url} ${status}`).toBeDefined();
      expect(op.responses?.["4XX"]).toBeUndefined();
      if (r.access.kind === "authenticated" && r.access.auth.includes("key"))
        expect(op["x-scope"]).toBe(r.access.scope);
    }
  });

  it("groups every operation under exactly one resource tag, in the documented order", async () => {
    const doc = await openApiDocument();
    expect(doc.tags?.map((t) => t.name)).toEqual([...RESOURCE_TAGS]);
    for (const tag of doc.tags ?? []) expect(tag.description, tag.name).toMatch(/\S/);

    const known = new Set<string>(RESOURCE_TAGS);
    const used = new Set<string>();
    const wrong: string[] = [];
    for (const { name, path, op } of operationsOf(doc)) {
      for (const tag of op.tags ?? []) used.add(tag);
      if (!path.startsWith("/api/")) continue;
      const tags = op.tags ?? [];
      if (tags.length !== 1 || !known.has(tags[0] ?? ""))
        wrong.push(`${name}: tags ${JSON.stringify(op.tags ?? [])}`);
    }
    expect.soft(wrong, "operations without exactly one resource tag").toEqual([]);
    expect
      .soft(
        RESOURCE_TAGS.filter((t) => !used.has(t)),
        "resource tags no operation uses",
      )
      .toEqual([]);
  });

  it("shows an example of every JSON request body and 2xx response, valid against its own schema", async () => {
    const doc = await openApiDocument();
    const ajv = new Ajv({ strict: false, allErrors: true });
    addFormats(ajv);
    // Shared schemas, should a route refer to one, are resolved from the document's components.
    ajv.addSchema({ $id: "openapi", components: doc.components ?? {} });

    const missing: string[] = [];
    const invalid: string[] = [];
    for (const { name, op } of operationsOf(doc)) {
      for (const { label, media } of jsonMediaOf(op)) {
        const examples = examplesOf(media);
        if (examples.length === 0) {
          missing.push(`${name} ${label}`);
          continue;
        }
        const schema = JSON.parse(
          JSON.stringify(media.schema ?? {}).replaceAll('"#/components/', '"openapi#/components/'),
        ) as object;
        const validate = ajv.compile(schema);
        examples.forEach((example, i) => {
          if (!validate(example))
            invalid.push(`${name} ${label} example ${i + 1}: ${ajv.errorsText(validate.errors)}`);
        });
      }
    }
    expect.soft(missing, "operations without an example").toEqual([]);
    expect.soft(invalid, "examples their own schema refuses").toEqual([]);
  });

  it("names the tenant host as a server with variables, and any host for health, cron and provider hooks", async () => {
    const doc = (await h.inject({ method: "GET", url: "/openapi.json" })).json() as {
      servers: { url: string; description: string; variables: Record<string, { default: string }> }[];
      paths: Record<string, Record<string, ClientOperation>>;
    };
    expect(doc.servers).toHaveLength(1);
    const [server] = doc.servers;
    expect(server?.url).toBe("{scheme}://{tenant}.{baseDomain}");
    expect(server?.variables.tenant?.default).toBe("acme");
    expect(server?.variables.baseDomain?.default).toBe("localhost:3000");
    expect(server?.description).toContain("custom domain");
    for (const [path, method] of [
      ["/healthz", "get"],
      ["/api/webhooks/stripe", "post"],
      ["/api/cron/billing-grace-expire", "post"],
      ["/api/automations/webhook/{token}", "post"],
    ] as const) {
      expect(doc.paths[path]?.[method]?.servers?.[0]?.url, path).toBe("{scheme}://{host}");
    }
    expect(doc.paths["/api/institution/courses"]?.get?.servers).toBeUndefined();
  });

  it("gives every operation a unique, readable operationId", async () => {
    const doc = await openApiDocument();
    const ids = new Map<string, string[]>();
    for (const { name, op } of clientOperationsOf(doc)) {
      const id = op.operationId ?? "(none)";
      ids.set(id, [...(ids.get(id) ?? []), name]);
    }
    expect([...ids].filter(([, names]) => names.length > 1)).toEqual([]);
    expect([...ids.keys()].filter((id) => !/^[a-z][A-Za-z0-9]*(\.[a-z][A-Za-z0-9]*)+$/.test(id))).toEqual([]);
    const idOf = (path: string, method: string) => doc.paths[path]?.[method] as ClientOperation | undefined;
    expect(idOf("/api/institution/courses", "get")?.operationId).toBe("courses.list");
    expect(idOf("/api/institution/courses", "post")?.operationId).toBe("courses.create");
    expect(idOf("/api/institution/courses/{id}", "get")?.operationId).toBe("courses.get");
    expect(idOf("/api/institution/courses/{id}", "patch")?.operationId).toBe("courses.update");
    expect(idOf("/api/institution/courses/{id}", "delete")?.operationId).toBe("courses.delete");
    expect(idOf("/api/institution/courses/{id}/publish", "post")?.operationId).toBe("courses.publish");
    expect(idOf("/api/institution/courses/{id}/modules", "get")?.operationId).toBe("courses.modules.list");
    expect(idOf("/api/institution/courses/{id}/outline", "get")?.operationId).toBe("courses.outline.get");
  });

  it("documents query parameters with a default as optional, and says the default in words", async () => {
    const doc = await openApiDocument();
    const wrong: string[] = [];
    for (const { name, op } of clientOperationsOf(doc)) {
      for (const p of op.parameters ?? []) {
        if (p.in !== "query" || p.schema?.default === undefined) continue;
        if (p.required !== false) wrong.push(`${name} ?${p.name} required`);
        if (!(p.description ?? "").endsWith(`Default: \`${String(p.schema.default)}\`.`))
          wrong.push(`${name} ?${p.name} description ${JSON.stringify(p.description)}`);
      }
    }
    expect(wrong).toEqual([]);
    const list = doc.paths["/api/institution/courses"]?.get as ClientOperation;
    const page = list.parameters?.filter((p) => p.name === "page" || p.name === "perPage");
    expect(page?.map((p) => [p.name, p.required])).toEqual([
      ["page", false],
      ["perPage", false],
    ]);
  });

  it("makes a request body optional exactly when its fields all are, and the server then takes none", async () => {
    const doc = await openApiDocument();
    const optional: string[] = [];
    const wrong: string[] = [];
    for (const { name, op } of clientOperationsOf(doc)) {
      const body = op.requestBody;
      if (body === undefined) continue;
      const schema = body.content?.["application/json"]?.schema;
      if (body.required === false) optional.push(name);
      if ((schema?.required?.length ?? 0) > 0 && body.required !== true) wrong.push(name);
    }
    expect(wrong).toEqual([]);
    expect(optional.sort()).toEqual([
      "POST /api/institution/automations/{id}/test",
      "POST /api/institution/courses/{id}/duplicate",
      "POST /api/institution/live-classes/{id}/join-links",
      "POST /api/institution/webhooks/{id}/test",
      "PUT /api/institution/lessons/{id}/completions/{userId}",
    ]);
    const tenant = await makeTenant(h);
    const cookie = await adminCookie(h, tenant);
    for (const name of optional) {
      const [method, path] = name.split(" ") as [string, string];
      const res = await h.inject({
        method: method as "POST" | "PUT",
        url: path.replace(/\{\w+\}/g, () => randomUUID()),
        headers: { host: tenant.host, cookie },
      });
      // Unknown ids: the request got past validation to the handler.
      expect(res.statusCode, `${name}: ${res.body}`).toBe(404);
      expect(res.json().error).toBe("not_found");
    }
  });

  it("documents Idempotency-Key on authenticated POSTs, and the headers responses carry", async () => {
    const doc = await openApiDocument();
    const components = doc.components as {
      responses: Record<string, { headers?: Record<string, unknown> }>;
      parameters: Record<string, { name: string; in: string }>;
    };
    expect(components.parameters.IdempotencyKey).toMatchObject({ name: "Idempotency-Key", in: "header" });
    expect(Object.keys(components.responses.TooManyRequests?.headers ?? {})).toEqual(
      expect.arrayContaining(["Retry-After", "X-RateLimit-Reset", "Content-Language", "X-Request-Id"]),
    );
    expect(Object.keys(components.responses.Unauthorized?.headers ?? {})).toContain("WWW-Authenticate");
    const problems: string[] = [];
    for (const r of h.app.routeDeclarations) {
      const op = doc.paths[r.url.replace(/:(\w+)/g, "{$1}")]?.[r.method.toLowerCase()] as ClientOperation;
      if (op === undefined) continue;
      const name = `${r.method} ${r.url}`;
      const authenticated = r.access.kind === "authenticated";
      const keys = authenticated && r.access.kind === "authenticated" && r.access.auth.includes("key");
      const idempotent = authenticated && r.method === "POST";
      const refs = (op.parameters ?? []).map((p) => p.$ref);
      if (idempotent !== refs.includes("#/components/parameters/IdempotencyKey"))
        problems.push(`${name}: Idempotency-Key`);
      for (const [status, response] of Object.entries(op.responses ?? {})) {
        if (!status.startsWith("2")) continue;
        const headers = Object.keys(response.headers ?? {});
        if (!headers.includes("X-Request-Id")) problems.push(`${name} ${status}: X-Request-Id`);
        if (keys !== headers.includes("X-RateLimit-Remaining"))
          problems.push(`${name} ${status}: X-RateLimit-*`);
        if (idempotent !== headers.includes("Idempotent-Replayed"))
          problems.push(`${name} ${status}: Idempotent-Replayed`);
      }
      const statuses = Object.keys(op.responses ?? {});
      const expected: string[] = ["500"];
      if (authenticated) expected.push("401", "403", "429");
      if (r.access.kind === "tenant" || authenticated) expected.push("404");
      if (idempotent) expected.push("409");
      const gated = authenticated && r.url.startsWith("/api/institution/") && !r.openWhileInactive;
      if (gated) expected.push("402");
      for (const status of expected) if (!statuses.includes(status)) problems.push(`${name}: no ${status}`);
      if (authenticated && !gated && statuses.includes("402")) problems.push(`${name}: 402 while open`);
      // Error statuses come from the shared envelope responses, unless the route documents its own answer
      // (/readyz's 503 `{status}`).
      for (const status of statuses) {
        const response = op.responses?.[status] as { $ref?: string; content?: unknown } | undefined;
        if (/^[45]/.test(status) && response?.$ref === undefined && response?.content === undefined)
          problems.push(`${name} ${status}: not the shared error response`);
      }
    }
    expect(problems).toEqual([]);
  });

  it("passes Redocly's recommended rules without errors or warnings", async () => {
    const res = await h.inject({ method: "GET", url: "/openapi.json" });
    const config = await createConfig({ extends: ["recommended"] });
    const problems = await lintFromString({ source: res.body, absoluteRef: "openapi.json", config });
    const listed = (severity: string) =>
      problems
        .filter((p) => p.severity === severity)
        .map((p) => `${p.ruleId} ${p.location[0]?.pointer ?? ""}: ${p.message}`);
    expect(listed("error")).toEqual([]);
    expect(listed("warn")).toEqual([]);
  });

  it("serves an interactive reference page at /docs", async () => {
    const res = await h.inject({ method: "GET", url: "/docs/" });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toContain("text/html");
    expect(res.body).toContain("/openapi.json");
  });

  it("serves the reference's redirect and script through the lazily loaded plugin", async () => {
    const bare = await h.inject({ method: "GET", url: "/docs" });
    expect(bare.statusCode).toBe(301);
    expect(bare.headers.location).toBe("/docs/");
    const script = await h.inject({ method: "GET", url: "/docs/js/scalar.js" });
    expect(script.statusCode).toBe(200);
    expect(script.headers["content-type"]).toContain("application/javascript");
    expect(script.body.length).toBeGreaterThan(1_000_000);
    // The page points at the script it is served beside.
    const page = await h.inject({ method: "GET", url: "/docs/" });
    expect(page.body).toContain("js/scalar.js");
  });
});
