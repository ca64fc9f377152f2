/**
 * The client: every operation of the API by its operationId (`aula.courses.list`, `aula.call("courses.list")`),
 * with typed inputs and results, on the transport's retries and credentials.
 */
import { type Namespaces, OPERATIONS } from "./generated/operations.js";
import type { Args, OperationId, RequestOptions, Result, ResultKind } from "./operation-types.js";
import { type Page, PagePromise } from "./pages.js";
import { type AulaOptions, type Call, Transport } from "./transport.js";

interface AnyInput extends RequestOptions {
  path?: Record<string, string | number>;
  query?: Record<string, unknown>;
  body?: unknown;
}

/** `/courses/{id}` with `{ id }` filled in, each value URL-encoded. */
function fillPath(template: string, values: Record<string, string | number> = {}): string {
  return template.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined) throw new TypeError(`path parameter "${name}" is missing`);
    return encodeURIComponent(String(value));
  });
}

async function resultOf(response: Response, kind: ResultKind): Promise<unknown> {
  if (kind === "raw") return response;
  const type = response.headers.get("content-type") ?? "";
  if (kind === "empty" || response.status === 204 || response.status === 304) {
    await response.body?.cancel();
    return undefined;
  }
  if (!/[/+]json\b/i.test(type)) return response;
  const text = await response.text();
  return text === "" ? undefined : (JSON.parse(text) as unknown);
}

export interface AulaClient {
  /** Any operation by its operationId. */
  call<Id extends OperationId>(id: Id, ...args: Args<Id>): Promise<Result<Id>>;
  /** A request the operations do not cover (a path of a newer server): the raw `Response` of a 2xx or 3xx. */
  request(method: string, path: string, input?: AnyInput): Promise<Response>;
}

export type Aula = AulaClient & Namespaces;

export function createAula(options: AulaOptions): Aula {
  const transport = new Transport(options);

  const send = (method: string, path: string, input: AnyInput = {}) => {
    const call: Call = {
      method,
      path,
      query: input.query,
      body: input.body,
      headers: input.headers,
      idempotencyKey: input.idempotencyKey,
      signal: input.signal,
    };
    return transport.send(call);
  };

  const invoke = (id: string, input: AnyInput = {}): unknown => {
    const spec = (OPERATIONS as Record<string, readonly [string, string, ResultKind]>)[id];
    if (spec === undefined) throw new TypeError(`unknown operation "${id}"`);
    const [method, template, kind] = spec;
    const path = fillPath(template, input.path);
    if (kind !== "list") return send(method, path, input).then((res) => resultOf(res, kind));
    const fetchPage = async (page: number | undefined) => {
      const query = page === undefined ? input.query : { ...input.query, page };
      const res = await send(method, path, { ...input, query });
      return (await resultOf(res, "json")) as Page<unknown>;
    };
    return new PagePromise(fetchPage, input.query?.page as number | undefined);
  };

  const client: Record<string, unknown> = {
    call: (id: string, input?: AnyInput) => invoke(id, input),
    request: (method: string, path: string, input?: AnyInput) => send(method, path, input),
  };
  // Each operationId is a path through nested objects; an operation that is also a namespace
  // (`auth.passwordReset` and `auth.passwordReset.confirm`) is a function carrying its children.
  for (const id of Object.keys(OPERATIONS)) {
    const segments = id.split(".");
    let parent = client;
    for (const [index, segment] of segments.entries()) {
      const last = index === segments.length - 1;
      const existing = parent[segment] as Record<string, unknown> | undefined;
      if (last) {
        const operation = (input?: AnyInput) => invoke(id, input);
        parent[segment] = Object.assign(operation, existing ?? {});
      } else {
        parent[segment] = existing ?? {};
        parent = parent[segment] as Record<string, unknown>;
      }
    }
  }
  return client as unknown as Aula;
}
