import type { FastifyInstance, FastifyRequest } from "fastify";
import { type DetailKey, validationError } from "../errors/app-error.js";
import { MAX_JSON_DEPTH } from "./nul-guard.js";

/** A content-type parser given the whole body as text (`parseAs: "string"`). */
type ContentTypeParserWithBody = (
  request: FastifyRequest,
  body: string | Buffer,
  done: (err: Error | null, body?: unknown) => void,
) => void;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const OPEN_OBJECT = 0x7b;
const CLOSE_ARRAY = 0x5d;
const CLOSE_OBJECT = 0x7d;

/** At most this many values (scalars, arrays and objects) in one body: no route needs more than a few thousand. */
export const MAX_JSON_VALUES = 50_000;
/** At most this many members in one object (V8 slows down badly on objects with tens of thousands of keys). */
export const MAX_OBJECT_MEMBERS = 1000;

const COMMA = 0x2c;

/**
 * What is wrong with the shape of JSON text, read in one pass without parsing it (brackets and commas inside
 * strings do not count): nesting deeper than MAX_JSON_DEPTH, more than MAX_JSON_VALUES values, or an object with
 * more than MAX_OBJECT_MEMBERS members. Malformed text is left to the parser, which says why.
 */
export function jsonShapeProblem(text: string): DetailKey | undefined {
  let depth = 0;
  let values = 1;
  let inString = false;
  // Per open container: whether it is an object, and its members so far (commas + 1).
  const isObject: boolean[] = [];
  const members: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) {
      inString = true;
    } else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      if (++depth > MAX_JSON_DEPTH)
        return { field: "body", key: "field.max_depth", params: { limit: MAX_JSON_DEPTH } };
      isObject[depth] = c === OPEN_OBJECT;
      members[depth] = 1;
      values++;
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) {
      depth--;
    } else if (c === COMMA) {
      if (++values > MAX_JSON_VALUES)
        return { field: "body", key: "field.max_items", params: { limit: MAX_JSON_VALUES } };
      if (depth > 0 && isObject[depth] && ++(members[depth] as number) > MAX_OBJECT_MEMBERS)
        return { field: "body", key: "field.max_items", params: { limit: MAX_OBJECT_MEMBERS } };
    }
  }
  return undefined;
}

/**
 * JSON bodies, parsed by Fastify's own parser (prototype-poisoning checks included) after a depth check on the
 * text. V8's JSON.parse takes one to two seconds of the event loop for 500,000 nested brackets, and tens of
 * milliseconds for an object of 90,000 keys, both of which fit in a 1 MiB body, and everything after it (the input
 * guard, validation) walks every value; the scan takes a few milliseconds, and the refusal for depth is the one
 * `nul-guard` gives for a parsed body (400 naming `body`).
 */
export function registerJsonBodyParser(app: FastifyInstance): void {
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "string" }, boundedJsonParser(app));
}

/** The parser of every JSON media type the API takes (`application/json`, a merge patch's): bounded, then Fastify's. */
export function boundedJsonParser(app: FastifyInstance): ContentTypeParserWithBody {
  const parse = app.getDefaultJsonParser("error", "error");
  return (request, body, done) => {
    const text = typeof body === "string" ? body : body.toString("utf8");
    // Many clients send `Content-Type: application/json` with no body on an action (`POST …/start`). That is
    // no body, not malformed JSON (see noBodyAsEmptyObject).
    if (text.trim() === "") {
      done(null, undefined);
      return;
    }
    const problem = jsonShapeProblem(text);
    if (problem !== undefined) {
      done(validationError(problem.field, problem.key, problem.params), undefined);
      return;
    }
    parse(request, text, done);
  };
}

/**
 * On the institution API, a route with a body schema that got no body (none sent, or an empty one) validates an
 * empty object instead: a route that needs fields then names each one as required, rather than answering that
 * "the body" has the wrong type, and one whose fields are all optional proceeds. Elsewhere (the inbound webhook,
 * whose contract is "a JSON object or 400") no body stays no body.
 */
export function noBodyAsEmptyObject(app: FastifyInstance, isApiPath: (url: string) => boolean): void {
  app.addHook("preValidation", async (request) => {
    if (
      request.body === undefined &&
      request.routeOptions.schema?.body !== undefined &&
      isApiPath(request.url)
    ) {
      request.body = {};
    }
  });
}
