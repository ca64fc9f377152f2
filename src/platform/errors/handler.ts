import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
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

export function renderError(request: FastifyRequest, reply: FastifyReply, appError: AppError): ErrorBody {
  const locale = negotiateLocale(request.headers["accept-language"]);
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
  if (appError.retryAfter !== undefined) {
    body.retryAfter = appError.retryAfter;
    reply.header("retry-after", String(appError.retryAfter));
  }
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
