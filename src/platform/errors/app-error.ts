import { ERROR_STATUS, type ErrorCode } from "./codes.js";

/** Message keys for one field of a `details` entry; rendered in the request's language by the error handler. */
export interface DetailKey {
  field: string;
  key: string;
  params?: Record<string, string | number>;
}

export type MessageParams = Record<string, string | number>;

/**
 * What services throw. It names a contract code and the parameters of its message; only the error handler turns
 * it into the envelope, so no service ever chooses a status or writes user-facing text.
 */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly params: MessageParams;
  readonly details: DetailKey[] | undefined;
  readonly retryAfter: number | undefined;
  /** A more specific message key than the code itself, e.g. `conflict.email_taken`. */
  readonly messageKey: string;

  constructor(
    code: ErrorCode,
    options: {
      params?: MessageParams;
      details?: DetailKey[];
      retryAfter?: number;
      messageKey?: string;
      cause?: unknown;
    } = {},
  ) {
    super(code, { cause: options.cause });
    this.code = code;
    this.status = ERROR_STATUS[code];
    this.params = options.params ?? {};
    this.details = options.details;
    this.retryAfter = options.retryAfter;
    this.messageKey = options.messageKey ?? code;
  }
}

export const notFound = () => new AppError("not_found");

export function validationError(field: string, key: string, params?: MessageParams): AppError {
  return new AppError("validation_failed", { details: [{ field, key, params }] });
}
