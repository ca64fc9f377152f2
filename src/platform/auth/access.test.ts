import { describe, expect, expectTypeOf, it } from "vitest";
import { adminSessionOnly, admins, sessionOnly, signedIn, staff } from "./access.js";
import type { RouteAccess } from "./types.js";

// The builders replaced declarations written out by hand: each must stay equal to that declaration, value for
// value and key for key (the API reference prints the roles in order), with the same literal types.
describe("access builders", () => {
  it("signedIn: keys with the scope, any session", () => {
    expect(signedIn("courses:read")).toStrictEqual({
      kind: "authenticated",
      auth: ["key", "session"],
      scope: "courses:read",
    });
    expectTypeOf(signedIn("courses:read")).toEqualTypeOf<{
      readonly kind: "authenticated";
      readonly auth: readonly ["key", "session"];
      readonly scope: "courses:read";
    }>();
  });

  it("staff: keys with the scope, teachers' and administrators' sessions", () => {
    expect(staff("classes:write")).toStrictEqual({
      kind: "authenticated",
      auth: ["key", "session"],
      scope: "classes:write",
      roles: ["teacher", "institution_admin"],
    });
    expectTypeOf(staff("classes:write")).toEqualTypeOf<{
      readonly kind: "authenticated";
      readonly auth: readonly ["key", "session"];
      readonly scope: "classes:write";
      readonly roles: readonly ["teacher", "institution_admin"];
    }>();
  });

  it("admins: keys with the scope, administrators' sessions", () => {
    expect(admins("settings:write")).toStrictEqual({
      kind: "authenticated",
      auth: ["key", "session"],
      scope: "settings:write",
      roles: ["institution_admin"],
    });
    expectTypeOf(admins("settings:write")).toEqualTypeOf<{
      readonly kind: "authenticated";
      readonly auth: readonly ["key", "session"];
      readonly scope: "settings:write";
      readonly roles: readonly ["institution_admin"];
    }>();
  });

  it("adminSessionOnly: an administrator's session, no key and no scope", () => {
    expect(adminSessionOnly()).toStrictEqual({
      kind: "authenticated",
      auth: ["session"],
      roles: ["institution_admin"],
    });
    expectTypeOf(adminSessionOnly()).toEqualTypeOf<{
      readonly kind: "authenticated";
      readonly auth: readonly ["session"];
      readonly roles: readonly ["institution_admin"];
    }>();
  });

  it("sessionOnly: any signed-in user's session, no key, no scope and no role", () => {
    expect(sessionOnly()).toStrictEqual({ kind: "authenticated", auth: ["session"] });
    expectTypeOf(sessionOnly()).toEqualTypeOf<{
      readonly kind: "authenticated";
      readonly auth: readonly ["session"];
    }>();
  });

  it("keeps the keys in the order the hand-written declarations had", () => {
    expect(Object.keys(staff("media:read"))).toEqual(["kind", "auth", "scope", "roles"]);
    expect(Object.keys(adminSessionOnly())).toEqual(["kind", "auth", "roles"]);
  });

  it("builds a new object each time, so no route shares another's arrays", () => {
    const a = staff("tags:read");
    const b = staff("tags:read");
    expect(a).not.toBe(b);
    expect(a.roles).not.toBe(b.roles);
    expect(a.auth).not.toBe(b.auth);
  });

  it("builds declarations a route accepts", () => {
    expectTypeOf(signedIn("drive:read")).toExtend<RouteAccess>();
    expectTypeOf(staff("drive:write")).toExtend<RouteAccess>();
    expectTypeOf(admins("users:write")).toExtend<RouteAccess>();
    expectTypeOf(adminSessionOnly()).toExtend<RouteAccess>();
    expectTypeOf(sessionOnly()).toExtend<RouteAccess>();
  });
});
