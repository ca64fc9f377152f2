/**
 * Types of each operation's input and result, read from the generated `operations` (openapi-typescript): the
 * path, query and body it takes, and the JSON its success answers with.
 */
import type { components, operations, webhooks } from "./generated/openapi.js";
import type { PagePromise } from "./pages.js";

export type OperationId = keyof operations & string;
export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
/** `list`: a page envelope (iterable); `json`: a JSON body; `raw`: another media type (a `Response`); `empty`. */
export type ResultKind = "list" | "json" | "raw" | "empty";
export type OperationSpec = readonly [HttpMethod, string, ResultKind];

type Empty = Record<never, never>;
type Op<Id extends OperationId> = operations[Id];
type Params<Id extends OperationId> = Op<Id>["parameters"];

/** `{ [name]: T }` when required, `{ [name]?: T }` when optional, nothing when the operation takes none. */
type Field<Name extends string, T, Required extends boolean> = [Exclude<T, undefined>] extends [never]
  ? Empty
  : Required extends true
    ? { [K in Name]: Exclude<T, undefined> }
    : { [K in Name]?: Exclude<T, undefined> };

type Optional<T> = undefined extends T ? false : true;

/** The body's JSON type (or the first media type's, for operations that take no JSON). */
type JsonOf<C> = C extends { "application/json": infer J } ? J : C[keyof C];
type BodyOf<O> = O extends { requestBody?: infer R }
  ? R extends { content: infer C }
    ? JsonOf<C>
    : never
  : never;
type BodyRequired<O> = O extends { requestBody: { content: unknown } } ? true : false;

/** What every call may add: headers, an `Idempotency-Key` of your own, a signal to abort it. */
export interface RequestOptions {
  headers?: Record<string, string>;
  /** For a POST: the `Idempotency-Key` sent (with every retry). One is generated when not given. */
  idempotencyKey?: string;
  signal?: AbortSignal;
}

export type Input<Id extends OperationId> = Field<"path", Params<Id>["path"], Optional<Params<Id>["path"]>> &
  Field<"query", Params<Id>["query"], Optional<Params<Id>["query"]>> &
  Field<"body", BodyOf<Op<Id>>, BodyRequired<Op<Id>>> &
  RequestOptions;

/** The argument list: the input may be left out when nothing in it is required. */
export type Args<Id extends OperationId> = Empty extends Input<Id> ? [input?: Input<Id>] : [input: Input<Id>];

type SuccessStatus = 200 | 201 | 202 | 203 | 204 | 205 | 206;
type Responses<Id extends OperationId> = Op<Id>["responses"];
type ContentOf<R> = R extends { content: infer C }
  ? C extends { "application/json": infer J }
    ? Exclude<keyof C, "application/json"> extends never
      ? J
      : J | Response
    : Response
  : undefined;

/**
 * What a successful call resolves to: the JSON of its 2xx answers, `undefined` for one without a body (and for a
 * 304 to a conditional request), the `Response` where the API may redirect (fetch follows to the target).
 */
export type Result<Id extends OperationId> =
  | {
      [S in keyof Responses<Id>]: S extends SuccessStatus ? ContentOf<Responses<Id>[S]> : never;
    }[keyof Responses<Id>]
  | (304 extends keyof Responses<Id> ? undefined : never)
  | (Extract<keyof Responses<Id>, 301 | 302 | 303 | 307 | 308> extends never ? never : Response);

/** The element type of a list operation's `data`. */
export type Item<Id extends OperationId> = Result<Id> extends { data: (infer T)[] } ? T : never;

export type Operation<Id extends OperationId> = (...args: Args<Id>) => Promise<Result<Id>>;
/** A list: awaited, its page; iterated with `for await`, every item of every page from the one asked for. */
export type ListOperation<Id extends OperationId> = (
  ...args: Args<Id>
) => PagePromise<Extract<Result<Id>, { data: unknown[] }>, Item<Id>>;

/** The error codes the API documents (`error` in its error envelope). */
export type ErrorCode = components["schemas"]["Error"]["error"];

type EventBody<K extends keyof webhooks> = webhooks[K] extends {
  post: { requestBody: { content: { "application/json": infer B } } };
}
  ? B
  : never;

/** An event as a webhook endpoint (or an automation without a body template) receives it, by its `type`. */
export type WebhookEvent = { [K in keyof webhooks]: EventBody<K> }[keyof webhooks];
export type WebhookEventType = WebhookEvent["type"];
/** The event of one type: `EventOf<"course_created">`. */
export type EventOf<T extends WebhookEventType> = Extract<WebhookEvent, { type: T }>;
