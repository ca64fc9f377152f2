/**
 * Hostile input on every route (issue 10, item 7), generated from the app's own route table like the security
 * matrix: each route is called without credentials, with an API key holding every scope, and with an
 * administrator's session, carrying each hostile input in turn (JSON nested 100,000 levels, U+0000 and lone
 * surrogates in keys and values, numbers JavaScript reads but nobody writes, path parameters the router cannot
 * take, a Host that is not `name[:port]`). None of it may be answered with a 5xx.
 */
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { useApi } from "../src/test-support/api.js";
import { adminCookie, bearer, makeKey } from "../src/test-support/harness.js";

// With a webhook secret, so that the Stripe endpoint reads what it is sent (unset, it is 503 by design).
const { h, tenants } = useApi({ env: { STRIPE_WEBHOOK_SECRET: "whsec_hostile_input_test" }, tenants: 1 });
const [t] = tenants;
let credentials: Record<string, Record<string, string>>;

beforeAll(async () => {
  const key = await makeKey(h, t, [], {
    rateTier: "custom",
    customLimits: { perHour: 1_000_000, perMinute: 1_000_000 },
  });
  credentials = { none: {}, key: bearer(key), session: { cookie: await adminCookie(h, t) } };
});

const DEEP = `{"a":${"[".repeat(100_000)}${"]".repeat(100_000)}}`;

const BODIES: Record<string, string> = {
  "nested 100,000 levels": DEEP,
  "nested objects": `${'{"a":'.repeat(5_000)}1${"}".repeat(5_000)}`,
  "U+0000 in a key": '{"name\\u0000": "x", "\\u0000": 1}',
  "U+0000 in a value": '{"name": "a\\u0000b", "title": "a\\u0000b", "email": "a\\u0000@example.com"}',
  "lone surrogates": '{"name": "\\ud800", "title": "x\\udc00", "\\ud83d": 1}',
  "huge numbers": '{"page": 1e400, "capacity": -1e400, "position": 1e308}',
  "wrong shapes": '[[[[[["x"]]]]]]',
};

const QUERIES = [
  "page=Infinity&perPage=Infinity",
  "page=-Infinity",
  "page=1e400&perPage=1e400",
  "perPage=0x10",
  "page=1e3",
  "page=%2012",
  `page=1${"0".repeat(400)}`,
  "search=a%00b",
  "a%00b=1",
  "search=%ED%A0%80",
  "page[a]=1",
];

const PARAMS = ["%E0%A4%A", "a".repeat(300), "%00", "Infinity", "..%2F..%2F", `${randomUUID()}%00`];

const HOSTS = ["acme.localhost:4000@evil.example", "x y", "[::1", "a:b:c"];

/** The URL with each `:param` filled: `fill` for the one at `index`, a fresh uuid elsewhere. */
function urlOf(url: string, index = -1, fill = ""): string {
  let i = 0;
  return url.replace(/:(\w+)/g, () => (i++ === index ? fill : randomUUID()));
}

describe("hostile input on every route", () => {
  it("is never answered with a 5xx", async () => {
    const routes = h.app.routeDeclarations.filter((r) => r.url !== "*" && !r.url.startsWith("/docs"));
    expect(routes.length).toBeGreaterThan(50);
    const failures: string[] = [];
    const send = async (
      label: string,
      method: string,
      url: string,
      headers: Record<string, string>,
      payload?: string,
    ) => {
      const res = await h.inject({
        method: method as "GET",
        url,
        headers: { host: t.host, ...headers },
        ...(payload === undefined ? {} : { payload }),
      });
      if (res.statusCode >= 500)
        failures.push(`${method} ${url.slice(0, 120)} (${label}): ${res.statusCode} ${res.body}`);
      return res;
    };
    for (const route of routes) {
      const paramCount = (route.url.match(/:\w+/g) ?? []).length;
      for (const [who, creds] of Object.entries(credentials)) {
        const url = urlOf(route.url);
        // GET and DELETE too: a body nobody asked for must not be a 5xx either.
        for (const [label, body] of Object.entries(BODIES)) {
          await send(
            `${who}, ${label}`,
            route.method,
            url,
            { ...creds, "content-type": "application/json" },
            body,
          );
        }
        for (const query of QUERIES) await send(`${who}, ?${query}`, route.method, `${url}?${query}`, creds);
        for (let index = 0; index < paramCount; index++) {
          for (const param of PARAMS) {
            await send(
              `${who}, param ${param.slice(0, 20)}`,
              route.method,
              urlOf(route.url, index, param),
              creds,
            );
          }
        }
        for (const host of HOSTS) {
          const res = await send(`${who}, Host ${host}`, route.method, url, { ...creds, host });
          if (res.statusCode !== 400 || res.json().details?.[0]?.field !== "Host")
            failures.push(`${route.method} ${route.url} (Host ${host}): ${res.statusCode} ${res.body}`);
        }
      }
    }
    expect(failures).toEqual([]);
  }, 600_000);
});
