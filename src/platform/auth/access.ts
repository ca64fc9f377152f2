import type { Scope } from "../scopes/scopes.js";

/**
 * The access declarations routes are built from (see `RouteAccess` in types.ts), one builder per audience, so
 * that a module says who may call a route in one word and the security matrix, the API reference and the
 * pipeline all read the same objects. Each returns a fresh literal, typed as narrowly as if it were written out
 * with `as const`. Whether a route reads or writes is the scope's business (`x:read`, `x:write`), not the
 * builder's: the same audience reads one group and writes another.
 */

/** Keys holding `scope`, and any signed-in user's session (students included). */
export function signedIn<S extends Scope>(scope: S) {
  return { kind: "authenticated", auth: ["key", "session"], scope } as const;
}

/** Keys holding `scope`, and the sessions of teachers and administrators; a student's session is 403. */
export function staff<S extends Scope>(scope: S) {
  return {
    kind: "authenticated",
    auth: ["key", "session"],
    scope,
    roles: ["teacher", "institution_admin"],
  } as const;
}

/** Keys holding `scope`, and the sessions of administrators only. */
export function admins<S extends Scope>(scope: S) {
  return { kind: "authenticated", auth: ["key", "session"], scope, roles: ["institution_admin"] } as const;
}

/** An administrator's session only: no key, whatever its scopes (secrets, credentials, billing, the institution). */
export function adminSessionOnly() {
  return { kind: "authenticated", auth: ["session"], roles: ["institution_admin"] } as const;
}

/** Any signed-in user's own session, for what is a person's own (their calendar feeds); no key. */
export function sessionOnly() {
  return { kind: "authenticated", auth: ["session"] } as const;
}
