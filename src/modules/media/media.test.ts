import { createHash, randomUUID } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { connect } from "node:net";
import { join } from "node:path";
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { readCounter } from "../../db/counters.js";
import { media, platformEvents } from "../../db/schema/index.js";
import { callerFor, useApi, WHOLE_PATHS } from "../../test-support/api.js";
import { makeKey, makeTenant, roleCookie } from "../../test-support/harness.js";
import { mediaDir, pathOf, uploadLocal } from "../../test-support/media-client.js";
import { mp4, pdf, png, vtt } from "../../test-support/media-files.js";
import { expireUploads } from "./expiry.js";

const dir = mediaDir();
const logs: string[] = [];
const { h, tenants } = useApi({
  env: { MEDIA_DIR: dir },
  harness: { onLog: (line) => logs.push(line), logLevel: "info" },
  tenants: 2,
});
const [a, b] = tenants;
let keyA: string;
let keyB: string;

beforeAll(async () => {
  keyA = await makeKey(h, a, ["media:read", "media:write", "courses:read", "courses:write"]);
  keyB = await makeKey(h, b, ["media:read", "media:write"]);
});
const call = callerFor(h, () => ({ tenant: a, credential: keyA }), WHOLE_PATHS);

const row = async (tenantId: string, id: string) =>
  (
    await h.database.db
      .select()
      .from(media)
      .where(and(eq(media.tenantId, tenantId), eq(media.id, id)))
  )[0];
const eventsOf = async (tenantId: string, type: string, mediaId: string) =>
  (
    await h.database.db
      .select()
      .from(platformEvents)
      .where(and(eq(platformEvents.tenantId, tenantId), eq(platformEvents.type, type)))
  ).filter((e) => (e.data as { mediaId: string }).mediaId === mediaId);
const onDisk = (tenantId: string, id: string) => join(dir, "objects", tenantId, id);
const sha = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

describe("media uploads on the local disk", () => {
  it("takes a file in three steps, verifies it and serves it through a signed, short-lived URL", async () => {
    const bytes = pdf();
    const before = await readCounter(h.database.db, a.id, "media:bytes");
    const {
      media: started,
      upload,
      sent,
      completed,
    } = await uploadLocal(h, a, keyA, {
      filename: "Plano de ensino 2026.pdf",
      contentType: "application/pdf",
      bytes,
      checksumSha256: sha(bytes).toUpperCase(),
    });
    expect(started).toMatchObject({
      kind: "document",
      status: "pending_upload",
      sizeBytes: bytes.length,
      checksumSha256: sha(bytes),
      url: null,
    });
    expect(upload.method).toBe("PUT");
    expect(upload.headers).toEqual({ "Content-Type": "application/pdf" });
    expect(upload.url).toMatch(
      new RegExp(`^http://${a.host}/api/media/${started.id}/content\\?token=\\d+\\.[\\w-]{43}$`),
    );
    expect(Date.parse(upload.expiresAt)).toBeGreaterThan(Date.now());
    expect(sent.statusCode).toBe(204);
    expect(readFileSync(onDisk(a.id, started.id))).toEqual(bytes);

    expect(completed?.statusCode).toBe(200);
    const ready = completed?.json();
    expect(ready).toMatchObject({ id: started.id, status: "ready", error: null });
    expect(ready.readyAt).not.toBeNull();
    expect(await readCounter(h.database.db, a.id, "media:bytes")).toBe(before + bytes.length);
    const events = await eventsOf(a.id, "media_ready", started.id);
    expect(events).toHaveLength(1);
    expect(events[0]?.data).toMatchObject({
      kind: "document",
      sizeBytes: bytes.length,
      contentType: "application/pdf",
    });

    const got = await call("GET", `/api/institution/media/${started.id}`);
    expect(got.statusCode).toBe(200);
    const { url, urlExpiresAt } = got.json();
    expect(Date.parse(urlExpiresAt) - Date.now()).toBeLessThanOrEqual(300_000);
    const download = await h.inject({ method: "GET", url: pathOf(url), headers: { host: a.host } });
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload).toEqual(bytes);
    expect(download.headers["content-type"]).toBe("application/pdf");
    expect(download.headers["content-length"]).toBe(String(bytes.length));
    expect(download.headers["x-content-type-options"]).toBe("nosniff");
    expect(download.headers["content-disposition"]).toBe(
      `inline; filename="Plano de ensino 2026.pdf"; filename*=UTF-8''Plano%20de%20ensino%202026.pdf`,
    );
    const range = await h.inject({
      method: "GET",
      url: pathOf(url),
      headers: { host: a.host, range: "bytes=0-7" },
    });
    expect(range.statusCode).toBe(206);
    expect(range.body).toBe("%PDF-1.4");
    expect(range.headers["content-range"]).toBe(`bytes 0-7/${bytes.length}`);

    // The token is for this tenant, this file and downloading only.
    expect((await h.inject({ method: "GET", url: pathOf(url), headers: { host: b.host } })).statusCode).toBe(
      403,
    );
    const tampered = url.replace(/token=(\d+)/, (_m: string, e: string) => `token=${Number(e) + 1}`);
    expect(
      (await h.inject({ method: "GET", url: pathOf(tampered), headers: { host: a.host } })).statusCode,
    ).toBe(403);
    const asUpload = url.replace("/download?", "/content?");
    expect(
      (await h.inject({ method: "PUT", url: pathOf(asUpload), headers: { host: a.host }, payload: bytes }))
        .statusCode,
    ).toBe(403);
    // Completing again answers the ready file unchanged, with no second event.
    expect((await call("POST", `/api/institution/media/${started.id}/complete`)).json().status).toBe("ready");
    expect(await eventsOf(a.id, "media_ready", started.id)).toHaveLength(1);
  });

  it("keeps the upload token and download token out of the logs", async () => {
    const { upload, media: m } = await uploadLocal(h, a, keyA, { contentType: "image/png", bytes: png() });
    const token = new URL(upload.url).searchParams.get("token") as string;
    const got = await call("GET", `/api/institution/media/${m.id}`);
    const download = new URL(got.json().url).searchParams.get("token") as string;
    await h.inject({ method: "GET", url: pathOf(got.json().url), headers: { host: a.host } });
    const text = logs.join("\n");
    expect(text).toContain(`/api/media/${m.id}/content?token=[redacted]`);
    expect(text).not.toContain(token.split(".")[1]);
    expect(text).not.toContain(download.split(".")[1]);
  });

  it("fails a file whose bytes are not its declared type, deletes them and frees the storage", async () => {
    const before = await readCounter(h.database.db, a.id, "media:bytes");
    const { media: m, completed } = await uploadLocal(h, a, keyA, {
      filename: "report.pdf",
      contentType: "application/pdf",
      bytes: png(),
    });
    expect(completed?.statusCode).toBe(200);
    expect(completed?.json()).toMatchObject({ status: "failed", error: "content_type_mismatch", url: null });
    expect(existsSync(onDisk(a.id, m.id))).toBe(false);
    expect(await readCounter(h.database.db, a.id, "media:bytes")).toBe(before);
    expect((await eventsOf(a.id, "media_failed", m.id))[0]?.data).toMatchObject({
      error: "content_type_mismatch",
    });
    const again = await call("POST", `/api/institution/media/${m.id}/complete`);
    expect(again.statusCode).toBe(409);
  });

  it("checks the SHA-256, the size, and text formats by an explicit rule", async () => {
    const video = mp4();
    const wrongSum = await uploadLocal(h, a, keyA, {
      contentType: "video/mp4",
      bytes: video,
      checksumSha256: sha(pdf()),
    });
    expect(wrongSum.completed?.json()).toMatchObject({ status: "failed", error: "checksum_mismatch" });

    const short = await uploadLocal(h, a, keyA, {
      contentType: "video/mp4",
      bytes: video,
      declaredSize: video.length + 10,
    });
    expect(short.completed?.json()).toMatchObject({ status: "failed", error: "size_mismatch" });

    const captions = await uploadLocal(h, a, keyA, { contentType: "text/vtt", bytes: vtt() });
    expect(captions.completed?.json()).toMatchObject({ status: "ready", kind: "document" });
    const notCaptions = await uploadLocal(h, a, keyA, {
      contentType: "text/vtt",
      bytes: Buffer.from("hello\n"),
    });
    expect(notCaptions.completed?.json()).toMatchObject({ status: "failed", error: "content_type_mismatch" });
    const csv = await uploadLocal(h, a, keyA, {
      contentType: "text/csv",
      bytes: Buffer.from("nome,nota\nAna,9\n"),
    });
    expect(csv.completed?.json().status).toBe("ready");
    const binaryCsv = await uploadLocal(h, a, keyA, {
      contentType: "text/csv",
      bytes: Buffer.from([0x41, 0, 0x42]),
    });
    expect(binaryCsv.completed?.json()).toMatchObject({ status: "failed", error: "content_type_mismatch" });
  });

  it("refuses a body larger than declared with 413 and keeps nothing; a URL takes one body only", async () => {
    const started = await call("POST", "/api/institution/media/uploads", {
      filename: "a.png",
      contentType: "image/png",
      sizeBytes: 10,
    });
    const { media: m, upload } = started.json();
    const big = await h.inject({
      method: "PUT",
      url: pathOf(upload.url),
      headers: { host: a.host },
      payload: png(),
    });
    expect(big.statusCode).toBe(413);
    expect(big.json().error).toBe("payload_too_large");
    expect(existsSync(onDisk(a.id, m.id))).toBe(false);
    expect((await row(a.id, m.id))?.receivedBytes).toBeNull();
    // Nothing arrived yet: completing is 409 and the file stays pending.
    const early = await call("POST", `/api/institution/media/${m.id}/complete`);
    expect(early.statusCode).toBe(409);
    expect((await row(a.id, m.id))?.status).toBe("pending_upload");

    const ok = await uploadLocal(h, a, keyA, { contentType: "image/png", bytes: png() });
    const second = await h.inject({
      method: "PUT",
      url: pathOf(ok.upload.url),
      headers: { host: a.host },
      payload: png(),
    });
    expect(second.statusCode).toBe(409);
  });

  it("keeps nothing of an upload whose client goes away mid-body, and takes the whole body afterwards", async () => {
    const bytes = mp4(256 * 1024);
    const started = await call("POST", "/api/institution/media/uploads", {
      filename: "cut.mp4",
      contentType: "video/mp4",
      sizeBytes: bytes.length,
    });
    const { media: m, upload } = started.json();
    const address = await h.app.listen({ host: "127.0.0.1", port: 0 });
    const { port } = new URL(address);
    await new Promise<void>((resolve) => {
      const socket = connect(Number(port), "127.0.0.1", () => {
        socket.write(
          `PUT ${pathOf(upload.url)} HTTP/1.1\r\nHost: ${a.host}\r\nContent-Type: video/mp4\r\n` +
            `Content-Length: ${bytes.length}\r\n\r\n`,
        );
        socket.write(bytes.subarray(0, 1000), () => setTimeout(() => socket.destroy(), 100));
      });
      socket.on("close", () => resolve());
    });
    // The server notices the reset and cleans up; give it a moment.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(existsSync(onDisk(a.id, m.id))).toBe(false);
    expect(readdirSync(join(dir, "tmp"))).toEqual([]);
    expect((await row(a.id, m.id))?.receivedBytes).toBeNull();
    const retried = await h.inject({
      method: "PUT",
      url: pathOf(upload.url),
      headers: { host: a.host },
      payload: bytes,
    });
    expect(retried.statusCode).toBe(204);
    expect((await call("POST", `/api/institution/media/${m.id}/complete`)).json().status).toBe("ready");
  });

  it("refuses unknown types, unknown fields, oversized files and unknown folders at the start", async () => {
    const base = { filename: "x.exe", contentType: "application/x-msdownload", sizeBytes: 10 };
    expect((await call("POST", "/api/institution/media/uploads", base)).statusCode).toBe(400);
    const extra = await call("POST", "/api/institution/media/uploads", {
      ...base,
      contentType: "image/png",
      kind: "image",
    });
    expect(extra.statusCode).toBe(400);
    const slash = await call("POST", "/api/institution/media/uploads", {
      ...base,
      contentType: "image/png",
      filename: "../x.png",
    });
    expect(slash.statusCode).toBe(400);
    const folder = await call("POST", "/api/institution/media/uploads", {
      ...base,
      contentType: "image/png",
      folderId: randomUUID(),
    });
    expect(folder.statusCode).toBe(400);
    expect(folder.json().details[0].field).toBe("folderId");
    const huge = await call("POST", "/api/institution/media/uploads", {
      ...base,
      contentType: "video/mp4",
      sizeBytes: 6 * 1024 ** 3,
    });
    expect(huge.statusCode).toBe(413);
  });

  it("lists with filters and exact totals, renames, and keeps tenants apart", async () => {
    const tenant = await makeTenant(h);
    const key = await makeKey(h, tenant, ["media:read", "media:write"]);
    await uploadLocal(h, tenant, key, {
      filename: "Aula Álgebra.mp4",
      contentType: "video/mp4",
      bytes: mp4(),
    });
    await uploadLocal(h, tenant, key, { filename: "capa.png", contentType: "image/png", bytes: png() });
    await uploadLocal(h, tenant, key, { filename: "errado.png", contentType: "image/png", bytes: pdf() });
    const list = (q: string) => call("GET", `/api/institution/media${q}`, undefined, key, tenant);
    expect((await list("")).json().pagination.total).toBe(3);
    expect((await list("?kind=image")).json().pagination.total).toBe(2);
    expect((await list("?status=failed")).json().data.map((m: { filename: string }) => m.filename)).toEqual([
      "errado.png",
    ]);
    expect((await list("?status=ready&perPage=1")).json().pagination).toEqual({
      page: 1,
      perPage: 1,
      total: 2,
      totalPages: 2,
      totalRelation: "eq",
    });
    const found = (await list("?search=algebra")).json();
    expect(found.data.map((m: { filename: string }) => m.filename)).toEqual(["Aula Álgebra.mp4"]);
    expect((await list("?sort=filename")).json().data.map((m: { filename: string }) => m.filename)).toEqual([
      "Aula Álgebra.mp4",
      "capa.png",
      "errado.png",
    ]);
    expect((await list("?bogus=1")).statusCode).toBe(400);

    const id = found.data[0].id;
    const renamed = await call(
      "PATCH",
      `/api/institution/media/${id}`,
      { filename: "Aula 1.mp4" },
      key,
      tenant,
    );
    expect(renamed.json()).toMatchObject({ filename: "Aula 1.mp4", status: "ready" });
    expect((await call("PATCH", `/api/institution/media/${id}`, { size: 1 }, key, tenant)).statusCode).toBe(
      400,
    );

    // Another tenant's id is 404 on every path, and changes nothing.
    for (const [method, url, body] of [
      ["GET", `/api/institution/media/${id}`, undefined],
      ["PATCH", `/api/institution/media/${id}`, { filename: "x" }],
      ["POST", `/api/institution/media/${id}/complete`, undefined],
      ["DELETE", `/api/institution/media/${id}?force=true`, undefined],
    ] as const) {
      expect((await call(method, url, body, keyB, b)).statusCode).toBe(404);
    }
    expect((await row(tenant.id, id))?.filename).toBe("Aula 1.mp4");
  });

  it("refuses to delete a file a lesson uses unless forced, then deletes bytes and frees the storage", async () => {
    const { media: m } = await uploadLocal(h, a, keyA, { contentType: "video/mp4", bytes: mp4() });
    const course = (await call("POST", "/api/institution/courses", { title: "Com vídeo" })).json().id;
    const mod = (await call("POST", `/api/institution/courses/${course}/modules`, { title: "M" })).json().id;
    const lesson = await call("POST", `/api/institution/modules/${mod}/lessons`, {
      title: "Vídeo",
      type: "video",
      content: { mediaId: m.id },
    });
    expect(lesson.statusCode).toBe(201);
    const used = await readCounter(h.database.db, a.id, "media:bytes");
    const refused = await call("DELETE", `/api/institution/media/${m.id}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toMatch(/force=true/);
    expect(existsSync(onDisk(a.id, m.id))).toBe(true);
    const forced = await call("DELETE", `/api/institution/media/${m.id}?force=true`);
    expect(forced.statusCode).toBe(204);
    expect(await row(a.id, m.id)).toBeUndefined();
    expect(existsSync(onDisk(a.id, m.id))).toBe(false);
    expect(await readCounter(h.database.db, a.id, "media:bytes")).toBe(used - m.sizeBytes);
    expect((await call("GET", `/api/institution/media/${m.id}`)).statusCode).toBe(404);

    const unused = await uploadLocal(h, a, keyA, { contentType: "image/png", bytes: png() });
    expect((await call("DELETE", `/api/institution/media/${unused.media.id}`)).statusCode).toBe(204);
  });

  it("lets a lesson name only a ready file of its own institution", async () => {
    const course = (await call("POST", "/api/institution/courses", { title: "Referências" })).json().id;
    const mod = (await call("POST", `/api/institution/courses/${course}/modules`, { title: "M" })).json().id;
    const lesson = (content: Record<string, string>) =>
      call("POST", `/api/institution/modules/${mod}/lessons`, { title: "Arquivo", type: "file", content });
    const pending = (
      await call("POST", "/api/institution/media/uploads", {
        filename: "p.png",
        contentType: "image/png",
        sizeBytes: 5,
      })
    ).json().media;
    const theirs = await uploadLocal(h, b, keyB, { contentType: "image/png", bytes: png() });
    for (const mediaId of [pending.id, theirs.media.id, randomUUID()]) {
      const refused = await lesson({ mediaId });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().details[0].field).toBe("content.mediaId");
    }
    const ready = await uploadLocal(h, a, keyA, { contentType: "image/png", bytes: png() });
    expect((await lesson({ mediaId: ready.media.id.toUpperCase() })).json().content).toEqual({
      mediaId: ready.media.id,
    });
    expect((await call("DELETE", `/api/institution/media/${ready.media.id}`)).statusCode).toBe(409);
  });

  it("fails uploads left pending an hour past their URL's expiry, once, freeing their storage", async () => {
    const tenant = await makeTenant(h);
    const key = await makeKey(h, tenant, ["media:read", "media:write"]);
    const started = await call(
      "POST",
      "/api/institution/media/uploads",
      { filename: "abandoned.png", contentType: "image/png", sizeBytes: png().length },
      key,
      tenant,
    );
    const { media: m, upload } = started.json();
    await h.inject({
      method: "PUT",
      url: pathOf(upload.url),
      headers: { host: tenant.host },
      payload: png(),
    });
    const fresh = (
      await call(
        "POST",
        "/api/institution/media/uploads",
        { filename: "new.png", contentType: "image/png", sizeBytes: 7 },
        key,
        tenant,
      )
    ).json().media;
    expect(await readCounter(h.database.db, tenant.id, "media:bytes")).toBe(png().length + 7);
    // The URL expired two hours ago (the clock is the database's: moved back rather than waited for).
    await h.database.db
      .update(media)
      .set({ uploadExpiresAt: new Date(Date.now() - 2 * 3600_000).toISOString() })
      .where(and(eq(media.tenantId, tenant.id), eq(media.id, m.id)));
    expect(await expireUploads({ db: h.database.db, config: h.config })).toBeGreaterThanOrEqual(1);
    expect(await row(tenant.id, m.id)).toMatchObject({ status: "failed", error: "upload_expired" });
    expect((await row(tenant.id, fresh.id))?.status).toBe("pending_upload");
    expect(existsSync(onDisk(tenant.id, m.id))).toBe(false);
    expect(await readCounter(h.database.db, tenant.id, "media:bytes")).toBe(7);
    expect(await eventsOf(tenant.id, "media_failed", m.id)).toHaveLength(1);
    await expireUploads({ db: h.database.db, config: h.config });
    expect(await eventsOf(tenant.id, "media_failed", m.id)).toHaveLength(1);
  });

  it("lets staff sessions in and keeps students out", async () => {
    const student = await roleCookie(h, a, "student");
    const res = await h.inject({
      method: "GET",
      url: "/api/institution/media",
      headers: { host: a.host, cookie: student },
    });
    expect(res.statusCode).toBe(403);
    const teacher = await roleCookie(h, a, "teacher");
    const ok = await h.inject({
      method: "GET",
      url: "/api/institution/media",
      headers: { host: a.host, cookie: teacher },
    });
    expect(ok.statusCode).toBe(200);
  });
});
