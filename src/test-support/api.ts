/**
 * The preamble of a test file that talks to the API, written once: `useApi` starts a harness and makes tenants
 * around the file's tests, and `call` sends one request the way a client does.
 *
 *   const { h, tenants, call } = useApi({ tenants: 2 });
 *   const [a, b] = tenants;
 *   let keyA: string;
 *   beforeAll(async () => { keyA = await makeKey(h, a, ["tags:read"]); });
 *   it("…", async () => { expect((await call(a, keyA, "GET", "/tags")).statusCode).toBe(200); });
 *
 * Files whose requests mostly share a tenant and credential take `callerFor`; a request with other options
 * (whole paths, another language) is `callApi`.
 */
import type { InjectOptions, LightMyRequestResponse } from "fastify";
import { beforeAll } from "vitest";
import {
  adminCookie,
  bearer,
  type Harness,
  type HarnessOptions,
  json,
  makeTenant,
  startHarness,
  type TestTenant,
} from "./harness.js";
import { useStarted } from "./late.js";

export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/**
 * Who sends a request: a key's secret (sent as `Authorization: Bearer`), a session's Cookie header (a cookie has
 * a `=`, a key's secret never does), or the headers themselves (`bearer(key)`, `{ cookie }`, `{}` for none).
 */
export type Credential = string | Record<string, string>;

function credentialHeaders(credential: Credential): Record<string, string> {
  if (typeof credential !== "string") return credential;
  return credential.includes("=") ? { cookie: credential } : bearer(credential);
}

export interface CallOptions {
  /** Written before every path: `/api/institution` by default, `""` for tests that write whole paths. */
  prefix?: string;
  /** The Accept-Language sent: `en-US` by default, so messages read in English; `null` sends none. */
  language?: string | null;
}

/** Whole paths (`/api/institution/…`, `/api/auth/…`) as the test writes them. */
export const WHOLE_PATHS: CallOptions = { prefix: "" };
/** Whole paths and no Accept-Language: the request exactly as the test writes it. */
export const AS_WRITTEN: CallOptions = { prefix: "", language: null };

/** Room for 100,000 students on the free plan, for files that make many: the plan's limit has its own tests. */
export const MANY_STUDENTS = { PLAN_STUDENT_LIMITS: JSON.stringify({ free: 100_000 }) };

/** Where a request goes: a tenant, or any host. */
export type Host = Pick<TestTenant, "host">;

export type Caller = (
  tenant: Host,
  credential: Credential,
  method: Method,
  url: string,
  payload?: unknown,
) => Promise<LightMyRequestResponse>;

/**
 * One request on the tenant's host with the credential's headers. A payload other than `undefined` goes as the
 * JSON body (an object is serialised, a string is sent as it is) with `Content-Type: application/json`.
 */
export function callApi(
  h: Harness,
  tenant: Host,
  credential: Credential,
  method: Method,
  url: string,
  payload?: unknown,
  options: CallOptions = {},
): Promise<LightMyRequestResponse> {
  const { prefix = "/api/institution", language = "en-US" } = options;
  return h.inject({
    method,
    url: `${prefix}${url}`,
    headers: {
      host: tenant.host,
      ...(language === null ? {} : { "accept-language": language }),
      ...credentialHeaders(credential),
      ...(payload === undefined ? {} : json),
    },
    ...(payload === undefined ? {} : { payload: payload as InjectOptions["payload"] }),
  });
}

/** `callApi` on one harness with the same options each time. */
function caller(h: Harness, options: CallOptions = {}): Caller {
  return (tenant, credential, method, url, payload) =>
    callApi(h, tenant, credential, method, url, payload, options);
}

/** The fields an error answer's `details` name, sorted. */
export const fieldsOf = (res: { json(): { details?: { field: string }[] } }): string[] =>
  (res.json().details ?? []).map((d) => d.field).sort();

/** `call(method, url, payload?, credential?, tenant?)`, for files where most requests share a tenant and credential. */
export type DefaultedCaller = (
  method: Method,
  url: string,
  payload?: unknown,
  credential?: Credential,
  tenant?: Host,
) => Promise<LightMyRequestResponse>;

/**
 * `callApi` with the file's usual tenant and credential for the arguments left out. `defaults` is read at each
 * request, so it may name what a `beforeAll` assigns.
 */
export function callerFor(
  h: Harness,
  defaults: () => { tenant: Host; credential: Credential },
  options: CallOptions = {},
): DefaultedCaller {
  return (method, url, payload, credential, tenant) => {
    const usual = defaults();
    return callApi(h, tenant ?? usual.tenant, credential ?? usual.credential, method, url, payload, options);
  };
}

export interface TenantAdmin {
  t: TestTenant;
  cookie: string;
}

/** A tenant (a new one unless given) with its administrator's session cookie. */
export async function tenantAdmin(h: Harness, tenant?: TestTenant): Promise<TenantAdmin> {
  const t = tenant ?? (await makeTenant(h));
  return { t, cookie: await adminCookie(h, t) };
}

/** `call(admin, method, url, payload?)`: a request on the admin's tenant with its session. */
export function adminCaller(h: Harness, options: CallOptions = {}) {
  return (admin: TenantAdmin, method: Method, url: string, payload?: unknown) =>
    callApi(h, admin.t, admin.cookie, method, url, payload, options);
}

type Tuple<T, N extends number, Acc extends T[] = []> = number extends N
  ? T[]
  : Acc["length"] extends N
    ? Acc
    : Tuple<T, N, [...Acc, T]>;
type CountOf<S> = S extends number ? S : S extends readonly unknown[] ? S["length"] : 0;

export interface ApiSetup<S extends number | readonly string[]> {
  /** Environment of the harness; a function when it depends on something started in an earlier `beforeAll`. */
  env?: Record<string, string> | (() => Record<string, string>);
  harness?: HarnessOptions;
  /** How many tenants to make, or their names. */
  tenants?: S;
  call?: CallOptions;
}

export interface Api<N extends number> {
  /** The harness, usable in hooks and tests (it starts in this file's first `beforeAll`). */
  h: Harness;
  /** The tenants, filled in before the file's own `beforeAll`s run. */
  tenants: Tuple<TestTenant, N>;
  call: Caller;
}

/**
 * Registers a `beforeAll` that starts a harness and makes the tenants, and an `afterAll` that closes it. Hooks run
 * in the order they are declared (and the `afterAll`s in reverse), so declare what the harness's environment needs
 * (a fake server) before this, and what needs the tenants after.
 */
export function useApi<const S extends number | readonly string[] = 0>(
  setup: ApiSetup<S> = {},
): Api<CountOf<S>> {
  const names: readonly (string | undefined)[] =
    typeof setup.tenants === "number"
      ? Array.from({ length: setup.tenants }, () => undefined)
      : (setup.tenants ?? []);
  // Filled in place, so the file may take them apart at its top level.
  const tenants = names.map(() => ({}) as TestTenant);
  const h = useStarted(
    "the harness",
    () => startHarness(typeof setup.env === "function" ? setup.env() : setup.env, setup.harness),
    (started) => started.close(),
  );
  beforeAll(async () => {
    for (const [i, name] of names.entries())
      Object.assign(tenants[i] as TestTenant, await makeTenant(h, name));
  });
  return { h, tenants: tenants as Tuple<TestTenant, CountOf<S>>, call: caller(h, setup.call) };
}
