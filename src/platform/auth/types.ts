import type { Scope } from "../scopes/scopes.js";

export const ROLES = ["student", "teacher", "institution_admin"] as const;
export type Role = (typeof ROLES)[number];

export type AuthMode = "key" | "session";

export interface Tenant {
  id: string;
  slug: string;
  name: string;
  plan: string;
  /** The subscription status (`active`, `past_due`, `suspended`, …); null when the tenant never subscribed. */
  billingStatus: string | null;
}

export type Principal =
  | {
      kind: "key";
      tenantId: string;
      keyId: string;
      scopes: readonly string[];
    }
  | {
      kind: "session";
      tenantId: string;
      userId: string;
      role: Role;
      email: string;
    };

/**
 * What each route declares about who may call it. Every route has one; the security test matrix is generated
 * from these declarations, and a route without one refuses to register.
 */
export type RouteAccess =
  /** No tenant, no credentials: health, docs, provider webhooks. */
  | { kind: "public" }
  /** A tenant host but no credentials: login, refresh, logout. */
  | { kind: "tenant" }
  /** Scheduled jobs: no tenant, `Authorization: Bearer $CRON_SECRET` (401 otherwise, and when it is unset). */
  | { kind: "cron" }
  | {
      kind: "authenticated";
      auth: readonly AuthMode[];
      /** Required of keys; sessions are governed by `roles`. Required whenever `auth` accepts keys. */
      scope?: Scope;
      /** Roles a session needs; omitted means any signed-in user. */
      roles?: readonly Role[];
    };
