import { STATUS_CODES } from "node:http";
import type { Socket } from "node:net";
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { DEFAULT_LOCALE, type Locale } from "../../locales/index.js";
import { detailsFromAjv } from "../http/validation.js";
import { negotiateLocale } from "../i18n/negotiate.js";
import { translate } from "../i18n/translate.js";
import { AppError } from "./app-error.js";
import type { ErrorCode } from "./codes.js";

export interface ErrorBody {
  error: ErrorCode;
  message: string;
  details?: { field: string; message: string }[];
  retryAfter?: number;
}

/** Fastify's own failures, by code, as contract errors. */
const FASTIFY_CODES: Record<string, ErrorCode> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: "unsupported_media_type",
  FST_ERR_CTP_BODY_TOO_LARGE: "payload_too_large",
  FST_ERR_CTP_INVALID_JSON_BODY: "invalid_json",
  FST_ERR_CTP_EMPTY_JSON_BODY: "invalid_json",
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: "validation_failed",
};

const BY_STATUS: Record<number, ErrorCode> = {
  400: "validation_failed",
  401: "unauthorized",
  403: "forbidden",
  404: "not_found",
  405: "not_found",
  409: "conflict",
  413: "payload_too_large",
  415: "unsupported_media_type",
  429: "rate_limit_exceeded",
};

/** Turns anything thrown into an AppError; whatever is not recognised becomes a 500. */
export function toAppError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  const fe = err as Partial<FastifyError> & { validation?: unknown; validationContext?: string };
  if (Array.isArray(fe.validation)) {
    return new AppError("validation_failed", {
      details: detailsFromAjv(fe.validation, fe.validationContext),
    });
  }
  if (typeof fe.code === "string" && fe.code in FASTIFY_CODES) {
    return new AppError(FASTIFY_CODES[fe.code] as ErrorCode);
  }
  // JSON that fails to parse surfaces as a SyntaxError with a 400 status from the body parser.
  if (err instanceof SyntaxError && fe.statusCode === 400) return new AppError("invalid_json");
  if (typeof fe.statusCode === "number" && fe.statusCode >= 400 && fe.statusCode < 500) {
    const code = BY_STATUS[fe.statusCode];
    if (code !== undefined) return new AppError(code);
  }
  return new AppError("internal_error", { cause: err });
}

/** The envelope of `appError` in `locale`. */
export function errorBody(appError: AppError, locale: Locale): ErrorBody {
  const params = { ...appError.params };
  if (appError.retryAfter !== undefined) params.retryAfter = appError.retryAfter;
  const body: ErrorBody = {
    error: appError.code,
    message: translate(locale, appError.messageKey, params),
  };
  if (appError.details !== undefined) {
    body.details = appError.details.map((d) => ({
      field: d.field,
      message: translate(locale, d.key, d.params),
    }));
  }
  if (appError.retryAfter !== undefined) body.retryAfter = appError.retryAfter;
  return body;
}

export function renderError(request: FastifyRequest, reply: FastifyReply, appError: AppError): ErrorBody {
  const locale = negotiateLocale(request.headers["accept-language"]);
  const body = errorBody(appError, locale);
  if (appError.retryAfter !== undefined) reply.header("retry-after", String(appError.retryAfter));
  // RFC 9110 §15.5.2: every 401 names the scheme that would be accepted.
  if (appError.status === 401) reply.header("www-authenticate", "Bearer");
  reply.header("content-language", locale);
  reply.header("cache-control", "no-store");
  return body;
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err, request, reply) => {
    const appError = toAppError(err);
    if (appError.status >= 500) {
      // The cause goes to the log with the request id; the client gets no stack, SQL or path.
      request.log.error({ err: appError.cause ?? err, reqId: request.id }, "request failed");
    }
    reply.status(appError.status).send(renderError(request, reply, appError));
  });
}

/** The headers every answer carries: its request id (as in the log lines) and no content sniffing. */
export function setResponseBasics(request: FastifyRequest, reply: FastifyReply): void {
  reply.header("x-request-id", request.id);
  reply.header("x-content-type-options", "nosniff");
}

/**
 * Fastify's failures before routing: a path parameter it cannot percent-decode (FST_ERR_BAD_URL) or longer than
 * the router's maxParamLength (FST_ERR_MAX_PARAM_LENGTH, a 414 that echoed the path). Either is a malformed id,
 * answered like an unknown one; the path is never echoed.
 */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const known = error.code === "FST_ERR_BAD_URL" || error.code === "FST_ERR_MAX_PARAM_LENGTH";
  const appError = known ? new AppError("not_found") : toAppError(error);
  if (appError.status >= 500) request.log.error({ err: error, reqId: request.id }, "request failed");
  // onRequest hooks do not run for a failure before routing, so the headers every answer carries are set here.
  setResponseBasics(request, reply);
  reply.status(appError.status).send(renderError(request, reply, appError));
}

/** What the HTTP parser refused, as the contract error answered on the raw socket. */
function clientError(code: string | undefined): AppError {
  if (code === "HPE_HEADER_OVERFLOW") return new AppError("headers_too_large");
  if (code === "ERR_HTTP_REQUEST_TIMEOUT") return new AppError("request_timeout");
  return new AppError("validation_failed", { details: [{ field: "request", key: "field.invalid" }] });
}

/**
 * The HTTP server's `clientError`: a request the parser refused (headers past the size limit, a malformed
 * request) or one that did not arrive within the timeouts. No request exists to negotiate a language, so the
 * envelope is in the default one. The parser cannot go on after its error, so the answer says
 * `Connection: close` and the connection ends (and is destroyed if the client keeps it open).
 */
export function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === "ECONNRESET" || socket.destroyed) return;
  // As Node itself does: once a response on this connection has begun, bytes of another would corrupt it.
  const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (!socket.writable || inFlight?.headersSent === true) {
    socket.destroy();
    return;
  }
  const appError = clientError(error.code);
  const body = JSON.stringify(errorBody(appError, DEFAULT_LOCALE));
  socket.end(
    `HTTP/1.1 ${appError.status} ${STATUS_CODES[appError.status]}\r\n` +
      "Content-Type: application/json; charset=utf-8\r\n" +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      `Content-Language: ${DEFAULT_LOCALE}\r\n` +
      "Cache-Control: no-store\r\n" +
      "Connection: close\r\n\r\n" +
      body,
  );
  // A client that does not close its side would keep the half-closed socket open.
  setTimeout(() => socket.destroy(), 1000).unref();
}
