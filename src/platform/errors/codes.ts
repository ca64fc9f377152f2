/** Every error code of the contract, with the HTTP status it is always answered with. */
export const ERROR_STATUS = {
  validation_failed: 400,
  invalid_json: 400,
  invalid_signature: 400,
  unauthorized: 401,
  invalid_credentials: 401,
  subscription_inactive: 402,
  forbidden: 403,
  insufficient_scope: 403,
  session_required: 403,
  not_found: 404,
  tenant_not_found: 404,
  conflict: 409,
  /** The client did not send its request within the configured timeouts (answered by the server, not a route). */
  request_timeout: 408,
  payload_too_large: 413,
  unsupported_media_type: 415,
  /** Headers beyond the HTTP server's limit; the connection is closed after the answer. */
  headers_too_large: 431,
  student_limit_reached: 422,
  rate_limit_exceeded: 429,
  internal_error: 500,
  payment_provider_error: 502,
  /** A video provider (Zoom, BigBlueButton) could not be reached or refused the call. */
  video_provider_error: 502,
  billing_not_configured: 503,
  student_limit_unverifiable: 503,
  /** A file's bytes are in a store (S3) this process is not configured for. */
  storage_unavailable: 503,
  /** The AI provider could not be reached, timed out after its retries, or refused the call. */
  ai_provider_error: 502,
  /** A route that generates text, in an institution with no AI provider (its own or the environment's). */
  ai_not_configured: 503,
  /** The AI limits' store could not be reached: the call is not made (limits fail closed). */
  ai_limit_unverifiable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;
export const ERROR_CODES = Object.keys(ERROR_STATUS) as ErrorCode[];
