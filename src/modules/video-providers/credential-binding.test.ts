import { createHash } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { videoProviders } from "../../db/schema/index.js";
import { callApi, type Method, useApi, WHOLE_PATHS } from "../../test-support/api.js";
import { fakeVideoEnv, useFakeVideo } from "../../test-support/fake-video.js";
import { adminCookie, bearer, makeKey, makeUser } from "../../test-support/harness.js";

/**
 * Issue 19, point 4: a credential is bound to the endpoint it was entered for. `real` is the institution's
 * BigBlueButton; `other` is another host (an attacker's, or the institution's new server in the positive case).
 */
const real = useFakeVideo("127.0.0.3");
// The same secret, so `other` accepts what is signed for `real` (BBB's checksum does not cover the host).
const other = useFakeVideo("127.0.0.4", () => real.bbbSecret);

const { h, tenants } = useApi({ env: () => fakeVideoEnv(real, "127.0.0.3/32,127.0.0.4/32"), tenants: 1 });
const [a] = tenants;
let settingsKey: string;
let liveKey: string;
let admin: Record<string, string>;
let hostId: string;

beforeAll(async () => {
  settingsKey = await makeKey(h, a, ["settings:read", "settings:write"]);
  liveKey = await makeKey(h, a, ["live-classes:read", "live-classes:write"]);
  admin = { cookie: await adminCookie(h, a) };
  hostId = (await makeUser(h, a, "teacher")).id;
});
beforeEach(() => {
  real.requests.length = 0;
  other.requests.length = 0;
});

const BASE = "/api/institution/video-providers";

const call = (method: Method, url: string, payload: unknown, credentials: Record<string, string>) =>
  callApi(h, a, credentials, method, url, payload, WHOLE_PATHS);

const stored = async (id: string) =>
  (
    await h.database.db
      .select()
      .from(videoProviders)
      .where(and(eq(videoProviders.tenantId, a.id), eq(videoProviders.id, id)))
  )[0];

async function connectBbb(): Promise<{ id: string; credentialsFingerprint: string }> {
  const res = await call(
    "POST",
    BASE,
    {
      provider: "bigbluebutton",
      purpose: "live",
      name: "BBB do campus",
      credentials: { sharedSecret: real.bbbSecret },
      settings: { baseUrl: `${real.url}/bigbluebutton` },
    },
    admin,
  );
  expect(res.statusCode).toBe(201);
  return res.json();
}

/** A class on the connection, and the host's (moderator's) join link: BBB `create`, then a signed `join`. */
async function hostJoinUrl(videoProviderId: string): Promise<string> {
  const startsAt = new Date(Math.floor((Date.now() + 86_400_000) / 60_000) * 60_000).toISOString();
  const created = await call(
    "POST",
    "/api/institution/live-classes",
    {
      title: "Plantão",
      hostUserId: hostId,
      inviteeIds: [hostId],
      startsAt,
      durationMinutes: 60,
      videoProviderId,
    },
    bearer(liveKey),
  );
  expect(created.statusCode).toBe(201);
  const link = await call(
    "POST",
    `/api/institution/live-classes/${created.json().id}/join-links`,
    { userId: hostId },
    bearer(liveKey),
  );
  expect(link.statusCode).toBe(200);
  expect(link.json().role).toBe("host");
  return link.json().url;
}

const signed = (call: string, query: string, secret: string) =>
  createHash("sha1")
    .update(call + query + secret)
    .digest("hex");

describe("a credential is bound to the endpoint it was entered for", () => {
  it("refuses a settings:write key pointing a BigBlueButton connection elsewhere (403), changing nothing", async () => {
    const p = await connectBbb();
    const before = await stored(p.id);
    for (const body of [
      { settings: { baseUrl: `${other.url}/bigbluebutton` } },
      // Renaming alongside does not carry the move through, and a removed endpoint is a change too.
      { name: "BBB (novo)", settings: { baseUrl: `${other.url}/bigbluebutton`, checksumAlgorithm: "sha1" } },
      { settings: {} },
    ]) {
      const res = await call("PATCH", `${BASE}/${p.id}`, body, bearer(settingsKey));
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({
        error: "session_required",
        message:
          "Changing settings.baseUrl changes where this connection's credentials are sent: that needs an " +
          "administrator's signed-in session; API keys are not accepted.",
      });
    }
    expect(await stored(p.id)).toEqual(before);

    // The secret still signs calls to the real server only: nothing ever reached the other host.
    const url = new URL(await hostJoinUrl(p.id));
    expect(url.origin).toBe(real.url);
    expect(real.requests.map((r) => r.path)).toContain("/bigbluebutton/api/create");
    expect(other.requests).toEqual([]);
  });

  it("lets a key resend the same endpoint to change another setting", async () => {
    const p = await connectBbb();
    const res = await call(
      "PATCH",
      `${BASE}/${p.id}`,
      { settings: { baseUrl: `${real.url}/bigbluebutton`, defaultRecording: true } },
      bearer(settingsKey),
    );
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      settings: { baseUrl: `${real.url}/bigbluebutton`, defaultRecording: true },
      hasCredentials: true,
      credentialsFingerprint: p.credentialsFingerprint,
    });
    expect((await stored(p.id))?.settings).toEqual({
      baseUrl: `${real.url}/bigbluebutton`,
      defaultRecording: true,
    });
  });

  it("lets an administrator's session move it: create and the moderator's join then go to the new host, signed with the kept secret", async () => {
    const p = await connectBbb();
    const moved = await call(
      "PATCH",
      `${BASE}/${p.id}`,
      { settings: { baseUrl: `${other.url}/bigbluebutton` } },
      admin,
    );
    expect(moved.statusCode).toBe(200);
    expect(moved.json()).toMatchObject({
      settings: { baseUrl: `${other.url}/bigbluebutton` },
      hasCredentials: true,
      credentialsFingerprint: p.credentialsFingerprint,
    });
    const row = await stored(p.id);
    expect(row?.settings).toEqual({ baseUrl: `${other.url}/bigbluebutton` });
    expect(row?.credentialsFingerprint).toBe(p.credentialsFingerprint);

    const url = new URL(await hostJoinUrl(p.id));
    expect(`${url.origin}${url.pathname}`).toBe(`${other.url}/bigbluebutton/api/join`);
    const joinQuery = url.search.slice(1).replace(/&checksum=[0-9a-f]+$/, "");
    expect(joinQuery).toContain("role=MODERATOR");
    expect(url.searchParams.get("checksum")).toBe(signed("join", joinQuery, real.bbbSecret));
    const create = other.requests.find((r) => r.path === "/bigbluebutton/api/create");
    const createQuery = (create?.query ?? "").replace(/&checksum=[0-9a-f]+$/, "");
    expect(create?.query).toBe(`${createQuery}&checksum=${signed("create", createQuery, real.bbbSecret)}`);
    expect(real.requests).toEqual([]);
  });

  it("leaves a connection without credentials (Jitsi) open to keys: there is no secret to send", async () => {
    const created = await call(
      "POST",
      BASE,
      { provider: "jitsi", purpose: "live", name: "Jitsi", settings: { baseUrl: real.url } },
      bearer(settingsKey),
    );
    expect(created.statusCode).toBe(201);
    const res = await call(
      "PATCH",
      `${BASE}/${created.json().id}`,
      { settings: { baseUrl: other.url } },
      bearer(settingsKey),
    );
    expect(res.statusCode).toBe(200);
    expect((await stored(created.json().id))?.settings).toEqual({ baseUrl: other.url });
  });

  it("gives a key nothing that moves Zoom's credentials: no host setting, and the account id is a credential", async () => {
    const created = await call(
      "POST",
      BASE,
      { provider: "zoom", purpose: "live", name: "Zoom", credentials: { ...real.zoom } },
      admin,
    );
    expect(created.statusCode).toBe(201);
    const id = created.json().id;
    const before = await stored(id);
    const host = await call(
      "PATCH",
      `${BASE}/${id}`,
      { settings: { baseUrl: other.url } },
      bearer(settingsKey),
    );
    expect(host.statusCode).toBe(400);
    expect(host.json()).toMatchObject({
      error: "validation_failed",
      details: [{ field: "settings.baseUrl", message: "This field is not allowed." }],
    });
    const account = await call(
      "PATCH",
      `${BASE}/${id}`,
      { credentials: { ...real.zoom, accountId: "acc_attacker" } },
      bearer(settingsKey),
    );
    expect(account.statusCode).toBe(403);
    expect(account.json().error).toBe("session_required");
    expect(await stored(id)).toEqual(before);
    expect(other.requests).toEqual([]);
  });
});
