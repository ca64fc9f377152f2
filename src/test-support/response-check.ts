import { Ajv, type ValidateFunction } from "ajv";
import addFormatsModule from "ajv-formats";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";

// ajv-formats is published as CommonJS with a default export property.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

type Json = Record<string, unknown>;

interface Media {
  schema?: unknown;
}

interface DocumentedResponse {
  $ref?: string;
  description?: string;
  headers?: Record<string, { $ref?: string; required?: boolean }>;
  content?: Record<string, Media>;
}

interface Document {
  components?: Json;
  paths: Record<string, Record<string, { responses?: Record<string, DocumentedResponse> }>>;
}

/**
 * Checks every response of an app against its own OpenAPI document: the status must be documented for the
 * route and method (no `4XX`-style fallback), a JSON body must match the documented schema for that status
 * (error envelopes included), a documented body-less answer must have no body, and required headers (e.g.
 * `Retry-After` on 429, `WWW-Authenticate` on 401) must be present. Routes the document does not list (`/docs`,
 * `/openapi.json`, preflights, hidden test routes) are not checked; test routes without a response schema have
 * only their status checked.
 *
 * `watch` must run before the app registers its routes (hooks added later do not reach encapsulated scopes);
 * `verify` throws listing every violation seen, so the test file that caused them fails.
 */
export class ResponseCheck {
  private readonly violations = new Map<string, number>();
  private checker: ((method: string, url: string, res: Observed) => string | undefined) | undefined;

  watch(app: FastifyInstance): void {
    app.addHook("onSend", async (request, reply, payload) => {
      this.observe(app, request, reply, payload);
      return payload;
    });
  }

  verify(): void {
    if (this.violations.size === 0) return;
    const lines = [...this.violations].map(([v, n]) => (n > 1 ? `${v} (${n} times)` : v));
    this.violations.clear();
    throw new Error(
      `responses that do not match the OpenAPI document (document the status in the route's ` +
        `config.errors or its response schema, or fix the response):\n  ${lines.join("\n  ")}`,
    );
  }

  private observe(
    app: FastifyInstance,
    request: FastifyRequest,
    reply: FastifyReply,
    payload: unknown,
  ): void {
    const url = request.routeOptions.url;
    if (url === undefined || request.method === "HEAD" || request.method === "OPTIONS") return;
    try {
      this.checker ??= compile(app.swagger() as unknown as Document);
      const problem = this.checker(request.method, url, {
        status: reply.statusCode,
        headers: reply.getHeaders(),
        payload,
      });
      if (problem !== undefined) this.record(`${request.method} ${url} → ${reply.statusCode}: ${problem}`);
    } catch (err) {
      this.record(`${request.method} ${url}: the check itself failed: ${(err as Error).message}`);
    }
  }

  private record(violation: string): void {
    this.violations.set(violation, (this.violations.get(violation) ?? 0) + 1);
  }
}

interface Observed {
  status: number;
  headers: Record<string, unknown>;
  payload: unknown;
}

function compile(doc: Document): (method: string, url: string, res: Observed) => string | undefined {
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema({ $id: "openapi", components: doc.components ?? {} });
  const validators = new Map<string, ValidateFunction>();
  const components = (doc.components ?? {}) as Record<string, Record<string, unknown>>;

  const resolve = <T extends { $ref?: string }>(value: T | undefined): T | undefined => {
    const match = value?.$ref === undefined ? undefined : /^#\/components\/(\w+)\/(.+)$/.exec(value.$ref);
    if (match === null || match === undefined) return value;
    return components[match[1] as string]?.[match[2] as string] as T | undefined;
  };

  return (method, url, res) => {
    const path = url.replace(/:(\w+)/g, "{$1}");
    const operation = doc.paths[path]?.[method.toLowerCase()];
    if (operation === undefined) return undefined;
    const responses = operation.responses ?? {};
    const status = String(res.status);
    const documented = resolve(responses[status]);
    if (documented === undefined) {
      const listed = Object.keys(responses).join(", ");
      return `status not documented (documented: ${listed}); body ${preview(res.payload)}`;
    }

    for (const [name, header] of Object.entries(documented.headers ?? {})) {
      if (resolve(header)?.required === true && res.headers[name.toLowerCase()] === undefined)
        return `required header ${name} missing`;
    }

    // Node writes no body for these, whatever the handler passed (`send(null)` arrives here as "null").
    if (res.status === 204 || res.status === 304) return undefined;
    // A route documenting another media type beside JSON (an event stream) answers it when the request asks.
    const answered =
      String(res.headers["content-type"] ?? "")
        .split(";")[0]
        ?.trim() ?? "";
    if (answered !== "application/json" && documented.content?.[answered] !== undefined) return undefined;
    const media = documented.content?.["application/json"];
    const text = bodyText(res.payload);
    if (media === undefined) {
      // A route with no response schema at all (test-only routes) gets @fastify/swagger's placeholder.
      if (documented.description === "Default Response") return undefined;
      if (text !== undefined && text !== "" && documented.content === undefined)
        return `a body where none is documented: ${preview(res.payload)}`;
      return undefined;
    }
    const contentType = String(res.headers["content-type"] ?? "");
    if (!contentType.startsWith("application/json"))
      return `content-type ${contentType || "(none)"}, not JSON`;
    if (text === undefined) return "a JSON body was documented; the payload could not be read";
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return `invalid JSON ${preview(text)}`;
    }
    const key = `${method} ${path} ${status}`;
    let validate = validators.get(key);
    if (validate === undefined) {
      const schema = JSON.parse(
        JSON.stringify(media.schema ?? {}).replaceAll('"#/components/', '"openapi#/components/'),
      ) as object;
      validate = ajv.compile(schema);
      validators.set(key, validate);
    }
    if (!validate(body)) return `body ${preview(text)} refused: ${ajv.errorsText(validate.errors)}`;
    return undefined;
  };
}

function bodyText(payload: unknown): string | undefined {
  if (payload === null || payload === undefined) return "";
  if (typeof payload === "string") return payload;
  if (Buffer.isBuffer(payload)) return payload.toString("utf8");
  return undefined;
}

function preview(payload: unknown): string {
  const text = bodyText(payload);
  if (text === undefined) return "(a stream)";
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}
