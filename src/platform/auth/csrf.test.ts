/**
 * CSRF on cookie-authenticated writes (issue 10 item 12, SECURITY.md API8 3): a body-less POST needs no content
 * type, so the JSON-only rule alone let another site's page publish a course or rotate a secret with an
 * administrator's session. Browsers name a request's origin; one from elsewhere is refused. Keys are unaffected.
 */
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { courses } from "../../db/schema/index.js";
import { useApi } from "../../test-support/api.js";
import { adminCookie, bearer, json, makeKey } from "../../test-support/harness.js";

const { h, tenants } = useApi({ tenants: 2 });
const [a, b] = tenants;
let cookie: string;
let key: string;

beforeAll(async () => {
  cookie = await adminCookie(h, a);
  key = await makeKey(h, a, []);
});

const EVIL = "https://evil.example";

async function draftCourse() {
  const res = await h.inject({
    method: "POST",
    url: "/api/institution/courses",
    headers: { host: a.host, ...bearer(key), ...json },
    payload: { title: "CSRF target" },
  });
  expect(res.statusCode).toBe(201);
  return res.json().id as string;
}

const statusOf = async (id: string) =>
  (await h.database.db.select().from(courses).where(eq(courses.id, id)))[0]?.status;

/** A body-less POST, as a cross-site `<form>` or `fetch(…, {mode: "no-cors", credentials: "include"})` sends it. */
const publish = (id: string, headers: Record<string, string>) =>
  h.inject({
    method: "POST",
    url: `/api/institution/courses/${id}/publish`,
    headers: { host: a.host, "accept-language": "en-US", ...headers },
  });

function expectCrossSiteRefusal(res: { statusCode: number; json: () => unknown }) {
  expect(res.statusCode).toBe(403);
  expect(res.json()).toEqual({
    error: "forbidden",
    message: expect.stringMatching(/^Cross-site request refused/),
  });
}

describe("cookie-authenticated writes from another site", () => {
  it.each<[string, () => Record<string, string>]>([
    ["a foreign Origin", () => ({ origin: EVIL })],
    ["Sec-Fetch-Site: cross-site", () => ({ "sec-fetch-site": "cross-site" })],
    ["Sec-Fetch-Site: same-site (a sibling tenant)", () => ({ "sec-fetch-site": "same-site" })],
    ["a sibling tenant's Origin", () => ({ origin: `http://${b.host}` })],
    ["Origin: null", () => ({ origin: "null" })],
  ])("are refused with %s, and change nothing", async (_, headers) => {
    const id = await draftCourse();
    expectCrossSiteRefusal(await publish(id, { cookie, ...headers() }));
    expect(await statusOf(id)).toBe("draft");
  });

  it("cannot rotate a signing secret", async () => {
    const created = await h.inject({
      method: "POST",
      url: "/api/institution/webhooks",
      headers: { host: a.host, cookie, ...json },
      payload: { url: "https://93.184.215.14/hook", eventTypes: ["user_created"] },
    });
    expect(created.statusCode, created.body).toBe(201);
    const { id, signingSecret } = created.json();
    const rotate = await h.inject({
      method: "POST",
      url: `/api/institution/webhooks/${id}/rotate-secret`,
      headers: { host: a.host, cookie, origin: EVIL, "accept-language": "en-US" },
    });
    expectCrossSiteRefusal(rotate);
    const read = await h.inject({
      method: "GET",
      url: `/api/institution/webhooks/${id}/signing-secret`,
      headers: { host: a.host, cookie, origin: EVIL },
    });
    expect(read.statusCode).toBe(200);
    expect(read.json().signingSecret).toBe(signingSecret);
  });

  it("go through from the institution's own site, from clients that name no origin, and with keys", async () => {
    const own = await draftCourse();
    const fromOwnSite = await publish(own, {
      cookie,
      origin: `http://${a.host}`,
      "sec-fetch-site": "same-origin",
    });
    expect(fromOwnSite.statusCode, fromOwnSite.body).toBe(200);
    expect(await statusOf(own)).toBe("published");

    const noOrigin = await draftCourse();
    expect((await publish(noOrigin, { cookie })).statusCode).toBe(200);

    const withKey = await draftCourse();
    expect(
      (await publish(withKey, { ...bearer(key), origin: EVIL, "sec-fetch-site": "cross-site" })).statusCode,
    ).toBe(200);
  });
});

describe("sign-in, refresh and logout from another site", () => {
  it("are refused: no cookie is set and the session survives", async () => {
    const login = await h.inject({
      method: "POST",
      url: "/api/auth/login",
      headers: { host: a.host, ...json, origin: EVIL, "accept-language": "en-US" },
      payload: { email: a.adminEmail, password: a.password },
    });
    expectCrossSiteRefusal(login);
    expect(login.headers["set-cookie"]).toBeUndefined();

    for (const url of ["/api/auth/refresh", "/api/auth/logout"]) {
      const res = await h.inject({
        method: "POST",
        url,
        headers: { host: a.host, cookie, "sec-fetch-site": "cross-site", "accept-language": "en-US" },
      });
      expectCrossSiteRefusal(res);
      expect(res.headers["set-cookie"]).toBeUndefined();
    }
    const stillSignedIn = await h.inject({
      method: "GET",
      url: "/api/institution/courses",
      headers: { host: a.host, cookie },
    });
    expect(stillSignedIn.statusCode).toBe(200);

    const sameSite = await h.inject({
      method: "POST",
      url: "/api/auth/login",
      headers: { host: a.host, ...json, origin: `http://${a.host}`, "sec-fetch-site": "same-origin" },
      payload: { email: a.adminEmail, password: a.password },
    });
    expect(sameSite.statusCode).toBe(200);
  });
});
