import { Ajv } from "ajv";
import addFormatsModule from "ajv-formats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, startHarness } from "../../test-support/harness.js";
import { RESOURCE_TAGS } from "./openapi.js";

// ajv-formats is published as CommonJS with a default export property.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

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
      expect(op.responses?.["4XX"]).toBeDefined();
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

  it("serves an interactive reference page at /docs", async () => {
    const res = await h.inject({ method: "GET", url: "/docs/" });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toContain("text/html");
    expect(res.body).toContain("/openapi.json");
  });
});
