import type { Harness, TestTenant } from "../../src/test-support/harness.js";

/** For each route with a body or an :id: a valid body, and how to make an object of the given tenant. */
export interface Fixture {
  body?: Record<string, unknown>;
  /** The object's id, or its path parameters by name (`{id, deliveryId}`) for nested routes. */
  makeObject?: (h: Harness, tenant: TestTenant) => Promise<string | Record<string, string>>;
  /** A GET without :id that answers one record rather than a list (its own tests cover tenant isolation). */
  single?: true;
  /** The object's stored row, to prove a refused request changed nothing. */
  snapshot?: (h: Harness, tenant: TestTenant, id: string | Record<string, string>) => Promise<unknown>;
}

/** Fixtures of one resource group, keyed `"METHOD /url"` exactly as the route is registered. */
export type Fixtures = Record<string, Fixture>;
