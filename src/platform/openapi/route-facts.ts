/**
 * What the document learns about a route from its declaration (its access, whether the subscription gates it,
 * its inputs, the errors it declares), and the error statuses those imply.
 */
import type { RouteAccess } from "../auth/types.js";
import { ENVELOPE_STATUSES } from "./error-responses.js";

/** What the transform learns about a route, carried on its operation until the document is finished. */
export interface RouteFacts {
  access: RouteAccess;
  /** 402 `subscription_inactive` while the tenant's subscription is inactive. */
  gated: boolean;
  body: boolean;
  /** Query, header or path parameters, whose validation answers 400. */
  parameters: boolean;
  pathParameters: boolean;
  declared: readonly number[];
}

const UNSAFE_METHODS = new Set(["post", "put", "patch", "delete"]);

/**
 * The error statuses an operation answers, from what its route declares: the auth pipeline's refusals for its
 * access kind, validation and body limits for its inputs, 409 for a reused Idempotency-Key on authenticated
 * POSTs, 500 everywhere; plus the route's own `config.errors`.
 */
export function derivedStatuses(method: string, facts: RouteFacts): number[] {
  // Any request: a Host that is not `name[:port]` (400), a client too slow to send it (408), headers past the
  // server's limit (431), a failure (500).
  const statuses = new Set<number>([400, 408, 431, 500, ...facts.declared]);
  const kind = facts.access.kind;
  if (kind === "tenant" || kind === "authenticated") {
    statuses.add(404); // tenant_not_found
    if (UNSAFE_METHODS.has(method)) {
      statuses.add(415); // a body that is not JSON, sent or not
      statuses.add(403); // a cookie-carrying write from another site (CSRF)
    }
  }
  if (kind === "authenticated" || kind === "cron") {
    statuses.add(401);
    statuses.add(429); // the key's windows, and unusable credentials per IP
  }
  if (kind === "authenticated") {
    statuses.add(403);
    if (method === "post") {
      statuses.add(400); // a malformed Idempotency-Key
      statuses.add(409); // a reused one
    }
  }
  if (facts.gated) statuses.add(402);
  if (facts.body) {
    statuses.add(400);
    statuses.add(413);
    statuses.add(415);
  }
  if (facts.parameters) statuses.add(400);
  if (facts.pathParameters) statuses.add(404);
  return [...statuses].filter((s) => ENVELOPE_STATUSES.has(s)).sort((a, b) => a - b);
}
