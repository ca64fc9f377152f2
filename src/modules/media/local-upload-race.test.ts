import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { setTimeout as sleep } from "node:timers/promises";
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { media } from "../../db/schema/index.js";
import { useApi } from "../../test-support/api.js";
import { bearer, json, makeKey } from "../../test-support/harness.js";
import { mediaDir, pathOf } from "../../test-support/media-client.js";
import { pdf } from "../../test-support/media-files.js";

/**
 * Issue 19, point 5 on the local store: two PUTs to one upload URL could both write the file. The row kept the
 * SHA-256 of the first body recorded while the last one renamed stayed on disk, so a completion passed a declared
 * checksum against other bytes. Now the first body to be whole stays, the other is 409, and what is served after
 * completion is exactly the body whose checksum was recorded.
 */
const dir = mediaDir();
const { h, tenants } = useApi({ env: { MEDIA_DIR: dir }, tenants: 1 });
const [a] = tenants;
let key: string;

const sha = (b: Buffer) => createHash("sha256").update(b).digest("hex");
// Two valid PDFs of the same length, so only their bytes (not their size) tell them apart.
const FIRST = pdf("version A of the syllabus");
const SECOND = pdf("version B of the syllabus");

beforeAll(async () => {
  key = await makeKey(h, a, ["media:read", "media:write"]);
});

const headers = () => ({ host: a.host, "accept-language": "en-US", ...bearer(key) });

/** Starts an upload declaring `bytes`' checksum: the completion must then pass only those bytes. */
async function start(bytes: Buffer) {
  const started = await h.inject({
    method: "POST",
    url: "/api/institution/media/uploads",
    headers: { ...headers(), ...json },
    payload: {
      filename: "syllabus.pdf",
      contentType: "application/pdf",
      sizeBytes: bytes.length,
      checksumSha256: sha(bytes),
    },
  });
  expect(started.statusCode).toBe(201);
  return started.json() as {
    media: { id: string };
    upload: { url: string; headers: Record<string, string> };
  };
}

function put(upload: { url: string; headers: Record<string, string> }, payload: Buffer | PassThrough) {
  return h.inject({
    method: "PUT",
    url: pathOf(upload.url),
    headers: { host: a.host, "accept-language": "en-US", ...upload.headers },
    payload,
  });
}

const complete = (id: string) =>
  h.inject({ method: "POST", url: `/api/institution/media/${id}/complete`, headers: headers() });

async function download(id: string) {
  const got = await h.inject({ method: "GET", url: `/api/institution/media/${id}`, headers: headers() });
  expect(got.statusCode).toBe(200);
  return h.inject({ method: "GET", url: pathOf(got.json().url), headers: { host: a.host } });
}

const recorded = async (id: string) =>
  (
    await h.database.db
      .select({ sha: media.receivedSha256, bytes: media.receivedBytes })
      .from(media)
      .where(and(eq(media.tenantId, a.id), eq(media.id, id)))
  )[0];

/** The store's temporary files (its folder is made at first use). */
const temporaries = () => (existsSync(join(dir, "tmp")) ? readdirSync(join(dir, "tmp")) : []);

describe("two bodies sent to one local upload URL", () => {
  it("keeps the first to arrive whole and refuses the later one, which cannot replace it", async () => {
    const { media: m, upload } = await start(SECOND);
    // The first PUT starts and passes every check, then stalls mid-body (a slow client)…
    const slow = new PassThrough();
    const first = put(upload, slow);
    slow.write(FIRST.subarray(0, 16));
    for (let i = 0; i < 200 && temporaries().length === 0; i++) await sleep(10);
    expect(temporaries()).toHaveLength(1);
    // …while a second PUT to the same URL sends other bytes whole, and they are stored.
    const second = await put(upload, SECOND);
    expect(second.statusCode).toBe(204);
    expect(await recorded(m.id)).toEqual({ sha: sha(SECOND), bytes: SECOND.length });
    // The slow body then ends: it must not replace the stored file.
    slow.end(FIRST.subarray(16));
    const late = await first;
    expect(late.statusCode).toBe(409);
    expect(late.json()).toMatchObject({
      error: "conflict",
      message: expect.stringMatching(/already/i),
    });
    expect(readFileSync(join(dir, "objects", a.id, m.id))).toEqual(SECOND);
    expect(temporaries()).toEqual([]);

    // Completion passes the declared checksum, and what is served is exactly those bytes.
    const completed = await complete(m.id);
    expect(completed.statusCode).toBe(200);
    expect(completed.json()).toMatchObject({ status: "ready", checksumSha256: sha(SECOND) });
    const served = await download(m.id);
    expect(served.statusCode).toBe(200);
    expect(served.rawPayload).toEqual(SECOND);
    expect(sha(served.rawPayload)).toBe((await recorded(m.id))?.sha);
  });

  it("answers one of two concurrent PUTs 204 and the other 409, and serves the winner's bytes", async () => {
    // Both declared checksums are tried below: the upload declares the first body's; if the second won, the
    // completion must fail with checksum_mismatch rather than serve it.
    const { media: m, upload } = await start(FIRST);
    const [one, two] = await Promise.all([put(upload, FIRST), put(upload, SECOND)]);
    const statuses = [one.statusCode, two.statusCode].sort();
    expect(statuses).toEqual([204, 409]);
    const winner = one.statusCode === 204 ? FIRST : SECOND;
    const loser = one.statusCode === 204 ? two : one;
    expect(loser.json()).toMatchObject({ error: "conflict" });
    expect(readFileSync(join(dir, "objects", a.id, m.id))).toEqual(winner);
    expect(await recorded(m.id)).toEqual({ sha: sha(winner), bytes: winner.length });
    expect(temporaries()).toEqual([]);

    const completed = await complete(m.id);
    expect(completed.statusCode).toBe(200);
    if (winner === FIRST) {
      expect(completed.json()).toMatchObject({ status: "ready" });
      const served = await download(m.id);
      expect(served.rawPayload).toEqual(FIRST);
    } else {
      expect(completed.json()).toMatchObject({ status: "failed", error: "checksum_mismatch" });
      expect(existsSync(join(dir, "objects", a.id, m.id))).toBe(false);
    }
  });
});
