import { createHash } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { videoProviders } from "../../db/schema/index.js";
import { callerFor, useApi, WHOLE_PATHS } from "../../test-support/api.js";
import { fakeVideoEnv, useFakeVideo } from "../../test-support/fake-video.js";
import { adminCookie, bearer, makeKey, roleCookie, tablesContaining } from "../../test-support/harness.js";
import { bbbJoinUrl } from "./providers/bigbluebutton.js";

const fake = useFakeVideo();
const { h, tenants } = useApi({ env: () => fakeVideoEnv(fake), tenants: 2 });
const [a, b] = tenants;
let keyA: string;
let keyB: string;
let adminA: Record<string, string>;

beforeAll(async () => {
  keyA = await makeKey(h, a, ["settings:read", "settings:write"]);
  keyB = await makeKey(h, b, ["settings:read", "settings:write"]);
  adminA = { cookie: await adminCookie(h, a) };
});

const BASE = "/api/institution/video-providers";

const call = callerFor(h, () => ({ tenant: a, credential: bearer(keyA) }), WHOLE_PATHS);

const row = async (tenantId: string, id: string) =>
  (
    await h.database.db
      .select()
      .from(videoProviders)
      .where(and(eq(videoProviders.tenantId, tenantId), eq(videoProviders.id, id)))
  )[0];

const bbbBody = (secret = fake.bbbSecret) => ({
  provider: "bigbluebutton",
  purpose: "live",
  name: "BBB do campus",
  credentials: { sharedSecret: secret },
  settings: { baseUrl: `${fake.url}/bigbluebutton` },
});

const zoomBody = () => ({ provider: "zoom", purpose: "live", name: "Zoom", credentials: { ...fake.zoom } });

describe("video providers", () => {
  it("connects Jitsi with a key (no credentials), lists, reads, updates, tests and deletes it", async () => {
    const created = await call("POST", BASE, {
      provider: "jitsi",
      purpose: "live",
      name: " Jitsi próprio ",
      settings: { baseUrl: fake.url },
    });
    expect(created.statusCode).toBe(201);
    const p = created.json();
    expect(p).toMatchObject({
      provider: "jitsi",
      purpose: "live",
      name: "Jitsi próprio",
      hasCredentials: false,
      credentialsFingerprint: null,
      status: "connected",
      isDefault: false,
      lastCheckedAt: null,
    });
    const list = await call("GET", `${BASE}?purpose=live&provider=jitsi`);
    expect(list.json().data.map((x: { id: string }) => x.id)).toContain(p.id);
    expect(list.json().pagination).toMatchObject({ total: list.json().data.length, totalRelation: "eq" });
    // One filter reads its counter; two count their matches (up to the cap): both exact here.
    const jitsi = (await call("GET", `${BASE}?provider=jitsi&perPage=100`)).json();
    expect(jitsi.pagination).toMatchObject({ total: jitsi.data.length, totalRelation: "eq" });
    expect((await call("GET", `${BASE}?purpose=on_demand`)).json().pagination.total).toBe(0);
    expect((await call("GET", `${BASE}/${p.id}`)).json()).toEqual(p);

    const patched = await call("PATCH", `${BASE}/${p.id}`, { name: "Jitsi" });
    expect(patched.json().name).toBe("Jitsi");

    const tested = await call("POST", `${BASE}/${p.id}/test`);
    expect(tested.statusCode).toBe(200);
    expect(tested.json()).toMatchObject({ ok: true, error: null, provider: { status: "connected" } });
    expect(tested.json().provider.lastCheckedAt).not.toBeNull();

    // Deleting is an administrator's session only.
    expect((await call("DELETE", `${BASE}/${p.id}`)).statusCode).toBe(403);
    expect((await call("DELETE", `${BASE}/${p.id}`, undefined, adminA)).statusCode).toBe(204);
    expect(await row(a.id, p.id)).toBeUndefined();
  });

  it("takes credentials from an administrator's session only, seals them and returns only a fingerprint", async () => {
    const byKey = await call("POST", BASE, bbbBody());
    expect(byKey.statusCode).toBe(403);
    expect(byKey.json().error).toBe("session_required");
    const teacher = { cookie: await roleCookie(h, a, "teacher") };
    expect((await call("POST", BASE, bbbBody(), teacher)).statusCode).toBe(403);

    const created = await call("POST", BASE, bbbBody(), adminA);
    expect(created.statusCode).toBe(201);
    const p = created.json();
    expect(JSON.stringify(p)).not.toContain(fake.bbbSecret);
    const expectedFingerprint = createHash("sha256")
      .update(JSON.stringify({ sharedSecret: fake.bbbSecret }))
      .digest("hex")
      .slice(0, 16);
    expect(p).toMatchObject({ hasCredentials: true, credentialsFingerprint: expectedFingerprint });
    // Nowhere in the database in clear: sealed (v1:<key>:…) in the row.
    expect(await tablesContaining(h, fake.bbbSecret)).toEqual([]);
    expect((await row(a.id, p.id))?.credentials).toMatch(/^v1:/);

    // A key may rename it but not touch its credentials.
    const keyPatch = await call("PATCH", `${BASE}/${p.id}`, {
      credentials: { sharedSecret: "x".repeat(32) },
    });
    expect(keyPatch.statusCode).toBe(403);
    expect(keyPatch.json().error).toBe("session_required");
    expect((await row(a.id, p.id))?.credentialsFingerprint).toBe(expectedFingerprint);
  });

  it("tests BigBlueButton with a signed getMeetings, and records a refused checksum as an error", async () => {
    const p = (await call("POST", BASE, bbbBody(), adminA)).json();
    const ok = await call("POST", `${BASE}/${p.id}/test`);
    expect(ok.json()).toMatchObject({ ok: true, provider: { status: "connected", lastError: null } });
    const sent = fake.requests.at(-1);
    expect(sent?.path).toBe("/bigbluebutton/api/getMeetings");
    expect(sent?.query).toBe(
      `checksum=${createHash("sha1").update(`getMeetings${fake.bbbSecret}`).digest("hex")}`,
    );

    const wrong = await call(
      "PATCH",
      `${BASE}/${p.id}`,
      { credentials: { sharedSecret: "not-the-secret" } },
      adminA,
    );
    expect(wrong.statusCode).toBe(200);
    expect(wrong.json().credentialsFingerprint).not.toBe(p.credentialsFingerprint);
    const failed = await call("POST", `${BASE}/${p.id}/test`);
    expect(failed.json()).toMatchObject({
      ok: false,
      error: "FAILED: checksumError",
      provider: { status: "error", lastError: "FAILED: checksumError" },
    });
    expect((await row(a.id, p.id))?.status).toBe("error");
  });

  it("builds join URLs whose checksum follows BigBlueButton's rule, in SHA-1 or SHA-256", () => {
    const connection = {
      provider: "bigbluebutton" as const,
      credentials: { sharedSecret: "639259d4-9dd8-4b25-bf01-95f9567eaf4b" },
      settings: { baseUrl: "https://bbb.example.edu/bigbluebutton/" },
    };
    const meeting = {
      roomName: "aula-room 1",
      title: "Álgebra",
      startsAt: "2026-05-01T12:00:00.000Z",
      durationMinutes: 60,
      timezone: "UTC",
      recordingEnabled: false,
      externalMeetingId: null,
      externalJoinUrl: null,
    };
    const who = { name: "Ana Souza", email: "ana@x.test", role: "attendee" as const, userId: "u1" };
    for (const algorithm of ["sha1", "sha256"] as const) {
      const url = new URL(
        bbbJoinUrl(
          { ...connection, settings: { ...connection.settings, checksumAlgorithm: algorithm } },
          meeting,
          who,
        ),
      );
      expect(url.origin + url.pathname).toBe("https://bbb.example.edu/bigbluebutton/api/join");
      const query = url.search.slice(1);
      const unsigned = query.replace(/&checksum=[0-9a-f]+$/, "");
      expect(unsigned).toBe("meetingID=aula-room+1&fullName=Ana+Souza&role=VIEWER&userID=u1");
      const expected = createHash(algorithm)
        .update(`join${unsigned}639259d4-9dd8-4b25-bf01-95f9567eaf4b`)
        .digest("hex");
      expect(url.searchParams.get("checksum")).toBe(expected);
    }
  });

  it("tests Zoom through Server-to-Server OAuth and the API's bearer token", async () => {
    const p = (await call("POST", BASE, { ...zoomBody(), isDefault: true }, adminA)).json();
    const ok = await call("POST", `${BASE}/${p.id}/test`);
    expect(ok.json()).toMatchObject({ ok: true, provider: { status: "connected" } });
    const token = fake.requests.find((r) => r.path === "/oauth/token");
    expect(token?.query).toBe(`grant_type=account_credentials&account_id=${fake.zoom.accountId}`);
    expect(fake.requests.at(-1)).toMatchObject({ method: "GET", path: "/v2/users/me" });

    await call("PATCH", `${BASE}/${p.id}`, { credentials: { ...fake.zoom, clientSecret: "wrong" } }, adminA);
    const failed = (await call("POST", `${BASE}/${p.id}/test`)).json();
    expect(failed.ok).toBe(false);
    expect(failed.error).toMatch(/Zoom OAuth refused the credentials \(HTTP 401\)/);
    expect(JSON.stringify(failed)).not.toContain(fake.zoom.clientSecret);

    // A second default for the purpose takes over; one default per purpose.
    const second = (await call("POST", BASE, { ...bbbBody(), isDefault: true }, adminA)).json();
    expect(second.isDefault).toBe(true);
    expect((await call("GET", `${BASE}/${p.id}`)).json().isDefault).toBe(false);
  });

  it.each([
    [
      { provider: "zoom", purpose: "live", name: "Z", credentials: { accountId: "a", clientId: "b" } },
      "credentials.clientSecret",
    ],
    [
      { provider: "bigbluebutton", purpose: "live", name: "B", credentials: { sharedSecret: "s" } },
      "settings.baseUrl",
    ],
    [
      { provider: "jitsi", purpose: "live", name: "J", credentials: { sharedSecret: "s" } },
      "credentials.sharedSecret",
    ],
    [
      {
        provider: "bigbluebutton",
        purpose: "live",
        name: "B",
        credentials: { sharedSecret: "s" },
        settings: { baseUrl: "http://10.0.0.5/bigbluebutton" },
      },
      "settings.baseUrl",
    ],
    [
      { provider: "jitsi", purpose: "live", name: "J", settings: { baseUrl: "http://169.254.169.254/" } },
      "settings.baseUrl",
    ],
    [{ provider: "teams", purpose: "live", name: "T" }, "provider"],
    [{ provider: "jitsi", purpose: "live", name: "J", extra: 1 }, "extra"],
    [
      { provider: "jitsi", purpose: "live", name: "J", credentials: { password: "x" } },
      "credentials.password",
    ],
  ])("refuses %j with 400 naming %s", async (body, field) => {
    const res = await call("POST", BASE, body, adminA);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe("validation_failed");
    expect(res.json().details.map((d: { field: string }) => d.field)).toContain(field);
  });

  it("answers 404 for another institution's connection on every path, changing nothing", async () => {
    const p = (await call("POST", BASE, bbbBody(), adminA)).json();
    const before = await row(a.id, p.id);
    const asB = bearer(keyB);
    expect((await call("GET", `${BASE}/${p.id}`, undefined, asB, b)).statusCode).toBe(404);
    expect((await call("PATCH", `${BASE}/${p.id}`, { name: "x" }, asB, b)).statusCode).toBe(404);
    expect((await call("POST", `${BASE}/${p.id}/test`, undefined, asB, b)).statusCode).toBe(404);
    const adminB = { cookie: await adminCookie(h, b) };
    expect((await call("DELETE", `${BASE}/${p.id}`, undefined, adminB, b)).statusCode).toBe(404);
    expect((await call("GET", BASE, undefined, asB, b)).json().data).toEqual([]);
    expect(await row(a.id, p.id)).toEqual(before);
  });
});
