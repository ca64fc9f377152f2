import { type Aula, createAula } from "../../sdk/src/client.js";
import { AulaError } from "../../sdk/src/errors.js";
import type { Messages } from "./messages/en-US.js";

/**
 * The SDK on this origin with the session's cookies: every call of the console goes to the public API, in the
 * chosen language (so the API's error messages come back in it). The browser adds `Sec-Fetch-Site:
 * same-origin`, which is what lets the API accept a cookie-authenticated write.
 */
export function clientFor(language: string): Aula {
  return createAula({
    baseUrl: window.location.origin,
    language,
    maxRetries: 1,
    fetch: (url, init) => fetch(url, { ...init, credentials: "same-origin" }),
  });
}

/** What to tell the person about a failed call: the API's own localised message, or the console's own words. */
export interface Problem {
  message: string;
  details: string[];
  requestId?: string | undefined;
  status?: number | undefined;
}

export function problemOf(err: unknown, t: Messages): Problem {
  if (err instanceof AulaError) {
    const body = err.body as { message?: unknown } | undefined;
    const message = typeof body?.message === "string" ? body.message : t.networkError;
    return {
      message,
      details: err.details.map((d) => (d.field ? `${d.field}: ${d.message}` : d.message)),
      requestId: err.requestId,
      status: err.status,
    };
  }
  return { message: t.networkError, details: [] };
}

export const isUnauthorized = (err: unknown) => err instanceof AulaError && err.status === 401;
