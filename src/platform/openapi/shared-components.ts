/**
 * What the document declares once and operations point to: the response headers, the Idempotency-Key parameter,
 * and the servers (an institution's host, or any host of the deployment).
 */
import { LOCALES } from "../../locales/index.js";

/** A pointer to one of the document's components, e.g. `ref("headers", "X-Request-Id")`. */
export const ref = (kind: string, name: string) => ({ $ref: `#/components/${kind}/${name}` });
export const COMMON_HEADERS = { "X-Request-Id": ref("headers", "X-Request-Id") };
export const RATE_LIMIT_HEADERS = {
  "X-RateLimit-Limit": ref("headers", "X-RateLimit-Limit"),
  "X-RateLimit-Remaining": ref("headers", "X-RateLimit-Remaining"),
  "X-RateLimit-Reset": ref("headers", "X-RateLimit-Reset"),
};

export const HEADERS: Record<string, Record<string, unknown>> = {
  "X-Request-Id": {
    description: "This request's id, also in the server's log lines about it.",
    schema: { type: "string", format: "uuid" },
  },
  "Content-Language": {
    description: "The language of `message` and `details[].message`, chosen from `Accept-Language`.",
    schema: { type: "string", enum: [...LOCALES] },
  },
  "WWW-Authenticate": {
    description: "The scheme to authenticate with.",
    schema: { type: "string", example: "Bearer" },
  },
  "Retry-After": {
    description: "Whole seconds until a request is allowed again; equals `retryAfter` in the body.",
    required: true,
    schema: { type: "integer", minimum: 0 },
  },
  "X-RateLimit-Limit": {
    description:
      "With an API key: the limit of the key's window (per hour or per minute) with fewer requests left.",
    schema: { type: "integer", minimum: 0 },
  },
  "X-RateLimit-Remaining": {
    description: "With an API key: the requests left in that window.",
    schema: { type: "integer", minimum: 0 },
  },
  "X-RateLimit-Reset": {
    description: "With an API key: when that window frees a request, in Unix seconds.",
    schema: { type: "integer", minimum: 0 },
  },
  "Idempotent-Replayed": {
    description:
      "`true` when this is the stored response of an earlier request with the same `Idempotency-Key`.",
    schema: { type: "string", enum: ["true"] },
  },
};

export const IDEMPOTENCY_KEY = {
  name: "Idempotency-Key",
  in: "header",
  required: false,
  description:
    "At most 255 characters, kept per institution for 24 hours. The same request again replays the first " +
    "response (`Idempotent-Replayed: true`); another request with the key, or a copy while the first still " +
    "runs, is 409 `conflict`. Refused requests and 5xx answers do not keep the key.",
  schema: { type: "string", minLength: 1, maxLength: 255 },
};

const SCHEME = { enum: ["http", "https"], default: "http", description: "`https` in production." };

/** Institution routes: the tenant comes from the host. */
export const TENANT_SERVERS = [
  {
    url: "{scheme}://{tenant}.{baseDomain}",
    description:
      "An institution's host: its slug under the deployment's `BASE_DOMAIN`. A verified custom domain of the " +
      "institution (e.g. `https://learn.example.edu`) serves the same API.",
    variables: {
      scheme: SCHEME,
      tenant: { default: "acme", description: "The institution's slug." },
      baseDomain: {
        default: "localhost:3000",
        description: "The deployment's `BASE_DOMAIN` (with its port).",
      },
    },
  },
];

/** Health, cron and provider webhooks answer on any host of the deployment. */
export const ANY_HOST_SERVERS = [
  {
    url: "{scheme}://{host}",
    description: "Any host of the deployment; no institution is involved.",
    variables: { scheme: SCHEME, host: { default: "localhost:3000" } },
  },
];
