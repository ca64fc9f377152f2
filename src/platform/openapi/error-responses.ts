/**
 * The error envelope in the document: its schema, one reusable response per error status (whose `error` can only
 * be that status's codes, with a localised example), and the `errors` a route declares beyond what its
 * declaration implies (route-facts.ts).
 */
import { STATUS_CODES } from "node:http";
import { ERROR_CODES, ERROR_STATUS, type ErrorCode } from "../errors/codes.js";
import { translate } from "../i18n/translate.js";
import { COMMON_HEADERS, RATE_LIMIT_HEADERS, ref } from "./shared-components.js";

type Json = Record<string, unknown>;

/** An HTTP status some contract error code is answered with. */
export type ErrorStatus = (typeof ERROR_STATUS)[ErrorCode];

declare module "fastify" {
  interface FastifyContextConfig {
    /**
     * For the API reference only: the error statuses this route answers beyond those its access, schema and
     * method already imply (see `derivedStatuses`), e.g. `[409, 422]` for a creation refused by a conflict or the
     * student limit. The response-checking test harness fails on any status a route answers undocumented.
     */
    errors?: readonly ErrorStatus[];
  }
}

export const ErrorSchema: Record<string, unknown> = {
  type: "object",
  required: ["error", "message"],
  properties: {
    error: { type: "string", enum: ERROR_CODES },
    message: { type: "string", description: "Localised per Accept-Language (pt-BR, en-US, es-ES, fr-FR)." },
    details: {
      type: "array",
      items: {
        type: "object",
        required: ["field", "message"],
        properties: { field: { type: "string" }, message: { type: "string" } },
      },
    },
    retryAfter: { type: "integer", description: "Seconds to wait; equals the Retry-After header." },
  },
};

/** Statuses some error code is answered with: each has a shared response. */
export const ENVELOPE_STATUSES: ReadonlySet<number> = new Set(Object.values(ERROR_STATUS));

/** A reusable response per error status, e.g. `Conflict`, whose `error` can only be that status's codes. */
export function errorResponseName(status: number): string {
  return (STATUS_CODES[status] ?? `Error ${status}`).replace(/[^A-Za-z0-9]/g, "");
}

const EXAMPLE_PARAMS = {
  scope: "courses:write",
  retryAfter: 30,
  limit: 10,
  status: "suspended",
  plan: "free",
  upgrade: "checkout",
};

export function errorResponses(): Record<string, Json> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of ERROR_CODES)
    byStatus.set(ERROR_STATUS[code], [...(byStatus.get(ERROR_STATUS[code]) ?? []), code]);
  const out: Record<string, Json> = {};
  for (const [status, codes] of [...byStatus].sort(([a], [b]) => a - b)) {
    const headers: Json = { ...COMMON_HEADERS, "Content-Language": ref("headers", "Content-Language") };
    if (status === 401) headers["WWW-Authenticate"] = ref("headers", "WWW-Authenticate");
    if (status === 429) {
      headers["Retry-After"] = ref("headers", "Retry-After");
      Object.assign(headers, RATE_LIMIT_HEADERS);
    }
    const first = codes[0] as ErrorCode;
    const example: Json = { error: first, message: translate("en-US", first, EXAMPLE_PARAMS) };
    if (status === 429) example.retryAfter = 30;
    if (first === "validation_failed")
      example.details = [{ field: "title", message: translate("en-US", "field.required") }];
    out[errorResponseName(status)] = {
      description: `${STATUS_CODES[status] ?? status}: ${codes.map((c) => `\`${c}\``).join(", ")}.`,
      headers,
      content: {
        "application/json": {
          schema: {
            allOf: [
              { $ref: "#/components/schemas/Error" },
              { type: "object", properties: { error: { type: "string", enum: codes } } },
            ],
          },
          example,
        },
      },
    };
  }
  return out;
}
