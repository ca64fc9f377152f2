import type { FastifyRequest } from "fastify";
import pino, { type LoggerOptions } from "pino";
import { isUuid } from "./schemas.js";

/**
 * What keeps credentials out of the logs beyond the redacted headers (SECURITY.md API2 15, DESIGN "logs redact
 * tokens"): URLs lose the tokens they carry, and errors lose the values a failed query was run with.
 */

export const REDACTED = "[redacted]";

/** Query parameters whose value is a credential, by name (`token`, `api_key`, `client_secret`, `password`…). */
const SECRET_PARAM = /token|secret|key|password|signature/i;
/** A path segment that looks like a bearer token (the inbound webhook URL's 64 hex characters, and the like). */
const TOKEN_SEGMENT = /^(?=[^/]*\d)[A-Za-z0-9_~.%-]{32,}$/;

function decoded(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, " "));
  } catch {
    return text;
  }
}

/**
 * The URL as it may be logged: token-like path segments (long, with a digit, not a UUID) and the values of
 * query parameters named like a credential become `[redacted]`. Everything else is kept, so the line still
 * says which route was hit.
 */
export function redactUrl(url: string): string {
  const q = url.indexOf("?");
  const path = q === -1 ? url : url.slice(0, q);
  const redactedPath = path
    .split("/")
    .map((segment) => (TOKEN_SEGMENT.test(segment) && !isUuid(segment) ? REDACTED : segment))
    .join("/");
  if (q === -1) return redactedPath;
  const query = url
    .slice(q + 1)
    .split("&")
    .map((pair) => {
      const eq = pair.indexOf("=");
      const name = eq === -1 ? pair : pair.slice(0, eq);
      return eq !== -1 && SECRET_PARAM.test(decoded(name)) ? `${name}=${REDACTED}` : pair;
    })
    .join("&");
  return `${redactedPath}?${query}`;
}

/** Properties of database errors (pg, PGlite, Drizzle) that carry the values a statement ran with. */
const VALUE_PROPERTIES = ["params", "parameters", "queryOptions", "detail", "where", "internalQuery"];

type ErrorLike = Error & Record<string, unknown>;

const isErrorLike = (value: unknown): value is ErrorLike =>
  typeof value === "object" && value !== null && typeof (value as { message?: unknown }).message === "string";

/**
 * An error's message without the values it quotes: Drizzle's `Failed query: … params: <values>` keeps its SQL
 * (placeholders only), and PostgreSQL's `invalid input syntax for type uuid: "<value>"`, `value "<v>" is out of
 * range …` lose the quoted value. Identifiers (`relation "x"`, `constraint "y"`) stay.
 */
function redactMessage(err: ErrorLike): string {
  let message = err.message;
  if (typeof err.query === "string" && Array.isArray(err.params) && message.startsWith("Failed query:")) {
    message = `Failed query: ${err.query}\nparams: ${REDACTED}`;
  }
  return message
    .replace(/: "(?:[^"]|"")*"/g, `: "${REDACTED}"`)
    .replace(/\bvalue "(?:[^"]|"")*"/g, `value "${REDACTED}"`)
    .replace(/\bToken "(?:[^"]|"")*"/g, `Token "${REDACTED}"`);
}

/** A copy of `err` (and of its causes) fit to log; the original is left as it is. */
export function redactError(err: unknown, copies = new Map<unknown, unknown>()): unknown {
  if (!isErrorLike(err)) return err;
  const done = copies.get(err);
  if (done !== undefined) return done;
  const message = redactMessage(err);
  const copy = Object.create(Object.getPrototypeOf(err)) as ErrorLike;
  copies.set(err, copy);
  for (const key of Object.keys(err)) {
    if (VALUE_PROPERTIES.includes(key)) continue;
    const value = err[key];
    copy[key] = isErrorLike(value) ? redactError(value, copies) : value;
  }
  if (err.cause !== undefined) copy.cause = redactError(err.cause, copies);
  copy.name = err.name;
  copy.message = message;
  // The stack starts with the message: the values go from there too.
  copy.stack =
    typeof err.stack === "string" && err.message !== ""
      ? err.stack.split(err.message).join(message)
      : err.stack;
  return copy;
}

/** Serializers for every logger of the process: Fastify's request line with its URL redacted, errors redacted. */
export const logSerializers = {
  err: (err: unknown) => pino.stdSerializers.err(redactError(err) as Error),
  req: (request: FastifyRequest) => ({
    method: request.method,
    url: redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  }),
};

/**
 * Logger options with the redacted header paths and the serializers above merged in, whatever the caller
 * passed (a level, a test's stream): no configuration of the logger can turn redaction off.
 */
export function withLogRedaction(logger: LoggerOptions, paths: readonly string[]): LoggerOptions;
export function withLogRedaction(
  logger: boolean | LoggerOptions,
  paths: readonly string[],
): false | LoggerOptions;
export function withLogRedaction(
  logger: boolean | LoggerOptions,
  paths: readonly string[],
): false | LoggerOptions {
  if (logger === false) return false;
  const base: LoggerOptions = logger === true ? {} : logger;
  const previous = base.redact;
  const previousPaths = previous === undefined ? [] : Array.isArray(previous) ? previous : previous.paths;
  return {
    ...base,
    redact: [...new Set([...previousPaths, ...paths])],
    serializers: { ...base.serializers, ...logSerializers },
  };
}
