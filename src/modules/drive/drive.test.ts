import { existsSync } from "node:fs";
import { join } from "node:path";
import { and, eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { driveFolders, media } from "../../db/schema/index.js";
import { callerFor, useApi, WHOLE_PATHS } from "../../test-support/api.js";
import { bearer, makeKey, makeUser, sessionCookie, TEST_PASSWORD } from "../../test-support/harness.js";
import { mediaDir, uploadLocal } from "../../test-support/media-client.js";
import { mp4, pdf, png } from "../../test-support/media-files.js";

const dir = mediaDir();
const { h, tenants } = useApi({ env: { MEDIA_DIR: dir }, tenants: 2 });
const [a, b] = tenants;
let keyA: string;
let keyB: string;

beforeAll(async () => {
  const all = ["drive:read", "drive:write", "media:read", "media:write", "courses:read", "courses:write"];
  keyA = await makeKey(h, a, [...all, "enrollments:write", "classes:write", "classes:read"]);
  keyB = await makeKey(h, b, all);
});

const call = callerFor(h, () => ({ tenant: a, credential: bearer(keyA) }), WHOLE_PATHS);
const folder = async (body: Record<string, unknown>, tenant = a, key = keyA) => {
  const res = await call("POST", "/api/institution/drive/folders", body, bearer(key), tenant);
  if (res.statusCode !== 201) throw new Error(`folder: ${res.statusCode} ${res.body}`);
  return res.json();
};
const children = async (id: string, query = "", auth?: Record<string, string>) =>
  call("GET", `/api/institution/drive/folders/${id}/children${query}`, undefined, auth);
const names = (page: { data: { name: string }[] }) => page.data.map((e) => e.name);

describe("drive folders", () => {
  it("nests folders with paths and counts, and pages a folder's children folders first", async () => {
    const root = await folder({ name: `Matemática ${Date.now()}` });
    expect(root).toMatchObject({ parentId: null, scope: "institution", folderCount: 0, fileCount: 0 });
    const week1 = await folder({ name: "Semana 1", parentId: root.id });
    await folder({ name: "Semana 2", parentId: root.id });
    expect(week1.path).toBe(`/${root.name}/Semana 1`);
    expect(week1.scope).toBe("institution");
    await uploadLocal(
      h,
      a,
      keyA,
      { filename: "b.pdf", contentType: "application/pdf", bytes: pdf() },
      { folderId: root.id },
    );
    await uploadLocal(
      h,
      a,
      keyA,
      { filename: "a.png", contentType: "image/png", bytes: png() },
      { folderId: root.id },
    );

    const got = await call("GET", `/api/institution/drive/folders/${root.id}`);
    expect(got.json()).toMatchObject({ folderCount: 2, fileCount: 2 });
    const first = (await children(root.id, "?perPage=3")).json();
    expect(names(first)).toEqual(["Semana 1", "Semana 2", "a.png"]);
    expect(first.data.map((e: { type: string }) => e.type)).toEqual(["folder", "folder", "file"]);
    expect(first.pagination).toEqual({ page: 1, perPage: 3, total: 4, totalPages: 2 });
    expect(names((await children(root.id, "?perPage=3&page=2")).json())).toEqual(["b.pdf"]);
    expect(names((await children(root.id, "?perPage=1&page=2")).json())).toEqual(["Semana 2"]);
    expect((await children("root")).json().data.some((e: { id: string }) => e.id === root.id)).toBe(true);

    const taken = await call("POST", "/api/institution/drive/folders", {
      name: "semana 1",
      parentId: root.id,
    });
    expect(taken.statusCode).toBe(409);
    const sub = await call("POST", "/api/institution/drive/folders", {
      name: "x",
      parentId: root.id,
      scope: "institution",
    });
    expect(sub.statusCode).toBe(400);
    expect(
      (await call("POST", "/api/institution/drive/folders", { name: "x", scope: "course" })).statusCode,
    ).toBe(400);
    const unknown = await call("POST", "/api/institution/drive/folders", {
      name: "x",
      scope: "course",
      courseId: b.id,
    });
    expect(unknown.json().details[0]).toMatchObject({ field: "courseId" });
    expect((await call("POST", "/api/institution/drive/folders", { name: "a/b" })).statusCode).toBe(400);
  });

  it("moves without cycles, carries the new parent's scope down the tree, and renames", async () => {
    const course = (await call("POST", "/api/institution/courses", { title: "Física" })).json().id;
    const shared = await folder({ name: `Física ${Date.now()}`, scope: "course", courseId: course });
    const top = await folder({ name: `Rascunhos ${Date.now()}` });
    const inner = await folder({ name: "Dentro", parentId: top.id });
    const deep = await folder({ name: "Mais dentro", parentId: inner.id });

    const cycle = await call("PATCH", `/api/institution/drive/folders/${top.id}`, { parentId: deep.id });
    expect(cycle.statusCode).toBe(400);
    expect(cycle.json().details[0]).toMatchObject({ field: "parentId" });
    const self = await call("PATCH", `/api/institution/drive/folders/${top.id}`, { parentId: top.id });
    expect(self.statusCode).toBe(400);

    const moved = await call("PATCH", `/api/institution/drive/folders/${top.id}`, {
      parentId: shared.id,
      name: "Notas",
    });
    expect(moved.statusCode).toBe(200);
    expect(moved.json()).toMatchObject({
      parentId: shared.id,
      name: "Notas",
      scope: "course",
      courseId: course,
    });
    const deepNow = (await call("GET", `/api/institution/drive/folders/${deep.id}`)).json();
    expect(deepNow).toMatchObject({
      scope: "course",
      courseId: course,
      path: `/${shared.name}/Notas/Dentro/Mais dentro`,
    });
    const reScope = await call("PATCH", `/api/institution/drive/folders/${inner.id}`, {
      scope: "institution",
    });
    expect(reScope.statusCode).toBe(400);

    const toRoot = await call("PATCH", `/api/institution/drive/folders/${shared.id}`, {
      scope: "institution",
      courseId: null,
    });
    expect(toRoot.json()).toMatchObject({ scope: "institution", courseId: null });
    const rows = await h.database.db.select().from(driveFolders).where(eq(driveFolders.tenantId, a.id));
    expect(
      rows.filter((r) => [top.id, inner.id, deep.id].includes(r.id)).every((r) => r.scope === "institution"),
    ).toBe(true);
  });

  it("deletes an empty folder; a full one only recursively, with its files, unless a lesson uses one", async () => {
    const top = await folder({ name: `Lixo ${Date.now()}` });
    const inner = await folder({ name: "Dentro", parentId: top.id });
    const up = await uploadLocal(
      h,
      a,
      keyA,
      { contentType: "video/mp4", bytes: mp4() },
      { folderId: inner.id },
    );
    const full = await call("DELETE", `/api/institution/drive/folders/${top.id}`);
    expect(full.statusCode).toBe(409);

    const course = (await call("POST", "/api/institution/courses", { title: "Usa vídeo" })).json().id;
    const mod = (await call("POST", `/api/institution/courses/${course}/modules`, { title: "M" })).json().id;
    const lesson = await call("POST", `/api/institution/modules/${mod}/lessons`, {
      title: "V",
      type: "video",
      content: { mediaId: up.media.id },
    });
    expect((await call("DELETE", `/api/institution/drive/folders/${top.id}?recursive=true`)).statusCode).toBe(
      409,
    );
    await call("DELETE", `/api/institution/lessons/${lesson.json().id}`);

    const gone = await call("DELETE", `/api/institution/drive/folders/${top.id}?recursive=true`);
    expect(gone.statusCode).toBe(204);
    expect((await call("GET", `/api/institution/drive/folders/${inner.id}`)).statusCode).toBe(404);
    const rows = await h.database.db
      .select()
      .from(media)
      .where(and(eq(media.tenantId, a.id), eq(media.id, up.media.id)));
    expect(rows).toHaveLength(0);
    expect(existsSync(join(dir, "objects", a.id, up.media.id))).toBe(false);
    const empty = await folder({ name: `Vazia ${Date.now()}` });
    expect((await call("DELETE", `/api/institution/drive/folders/${empty.id}`)).statusCode).toBe(204);
  });
});

describe("drive files and sharing", () => {
  it("places, moves, renames and takes out files; students read what is shared with them", async () => {
    const course = (
      await call("POST", "/api/institution/courses", { title: "Química", status: "published" })
    ).json().id;
    const klass = (await call("POST", "/api/institution/classes", { name: `Turma ${Date.now()}` })).json().id;
    const byCourse = await folder({ name: `Curso ${Date.now()}`, scope: "course", courseId: course });
    const byClass = await folder({ name: `Turma ${Date.now()}`, scope: "class", classId: klass });
    const everyone = await folder({ name: `Todos ${Date.now()}` });
    const staffOnly = await folder({
      name: `Outro curso ${Date.now()}`,
      scope: "course",
      courseId: (await call("POST", "/api/institution/courses", { title: "Outro" })).json().id,
    });

    const up = await uploadLocal(h, a, keyA, {
      filename: "lista.pdf",
      contentType: "application/pdf",
      bytes: pdf(),
    });
    const placed = await call("POST", "/api/institution/drive/files", {
      mediaId: up.media.id,
      folderId: byCourse.id,
    });
    expect(placed.statusCode).toBe(201);
    expect(placed.json()).toMatchObject({
      id: up.media.id,
      name: "lista.pdf",
      folderId: byCourse.id,
      status: "ready",
    });
    expect(placed.json().url).toMatch(/\/download\?token=/);
    const pending = (
      await call("POST", "/api/institution/media/uploads", {
        filename: "pendente.png",
        contentType: "image/png",
        sizeBytes: 10,
        folderId: byCourse.id,
      })
    ).json().media;

    const student = await makeUser(h, a, "student", TEST_PASSWORD);
    const outsider = await makeUser(h, a, "student", TEST_PASSWORD);
    expect(
      (await call("POST", "/api/institution/enrollments", { userId: student.id, courseId: course }))
        .statusCode,
    ).toBe(201);
    expect(
      (await call("POST", `/api/institution/classes/${klass}/members`, { userIds: [student.id] })).statusCode,
    ).toBe(200);
    const cookie = { cookie: await sessionCookie(h, a, student.email, TEST_PASSWORD) };
    const other = { cookie: await sessionCookie(h, a, outsider.email, TEST_PASSWORD) };

    const top = (await children("root", "?perPage=100", cookie)).json();
    const ids = top.data.map((e: { id: string }) => e.id);
    expect(ids).toEqual(expect.arrayContaining([byCourse.id, byClass.id, everyone.id]));
    expect(ids).not.toContain(staffOnly.id);
    expect(top.data.every((e: { type: string }) => e.type === "folder")).toBe(true);
    // The top level's total for a student: the counters of the institution's, its course's and its class's.
    expect(top.pagination.total).toBe(top.data.length);
    const outsiders = (await children("root", "?perPage=100", other)).json();
    expect(outsiders.pagination.total).toBe(outsiders.data.length);
    expect(outsiders.pagination.total).toBe(top.pagination.total - 2);
    const inside = (await children(byCourse.id, "", cookie)).json();
    expect(names(inside)).toEqual(["lista.pdf"]);
    expect(inside.pagination.total).toBe(1);
    expect(
      (await call("GET", `/api/institution/drive/files/${up.media.id}`, undefined, cookie)).json().url,
    ).toMatch(/token=/);
    expect(
      (await call("GET", `/api/institution/drive/files/${pending.id}`, undefined, cookie)).statusCode,
    ).toBe(404);
    expect(
      (await call("GET", `/api/institution/drive/folders/${staffOnly.id}`, undefined, cookie)).statusCode,
    ).toBe(404);
    expect((await children(byCourse.id, "", other)).statusCode).toBe(404);
    expect((await children(byClass.id, "", other)).statusCode).toBe(404);
    expect((await children(everyone.id, "", other)).statusCode).toBe(200);
    expect(
      (await call("GET", `/api/institution/drive/files/${up.media.id}`, undefined, other)).statusCode,
    ).toBe(404);
    expect((await call("POST", "/api/institution/drive/folders", { name: "x" }, cookie)).statusCode).toBe(
      403,
    );

    const moved = await call("PATCH", `/api/institution/drive/files/${up.media.id}`, {
      folderId: everyone.id,
      name: "Lista 1.pdf",
    });
    expect(moved.json()).toMatchObject({ folderId: everyone.id, name: "Lista 1.pdf" });
    expect(
      (await call("GET", `/api/institution/drive/files/${up.media.id}`, undefined, other)).statusCode,
    ).toBe(200);
    expect((await call("DELETE", `/api/institution/drive/files/${up.media.id}`)).statusCode).toBe(204);
    expect((await call("GET", `/api/institution/drive/files/${up.media.id}`)).statusCode).toBe(404);
    expect((await call("GET", `/api/institution/media/${up.media.id}`)).json()).toMatchObject({
      folderId: null,
    });

    const unknownMedia = await call("POST", "/api/institution/drive/files", {
      mediaId: byClass.id,
      folderId: everyone.id,
    });
    expect(unknownMedia.json().details[0].field).toBe("mediaId");
    const quota = await call("GET", "/api/institution/drive/quota");
    expect(quota.json()).toMatchObject({ plan: "free", limitBytes: 1024 ** 3 });
    expect(quota.json().usedBytes).toBeGreaterThan(0);
  });

  it("answers another tenant's folders and files with 404 and changes nothing", async () => {
    const theirs = await folder({ name: `Deles ${Date.now()}` }, b, keyB);
    const file = await uploadLocal(
      h,
      b,
      keyB,
      { contentType: "image/png", bytes: png() },
      { folderId: theirs.id },
    );
    const mine = bearer(keyA);
    for (const [method, url, body] of [
      ["GET", `/api/institution/drive/folders/${theirs.id}`, undefined],
      ["GET", `/api/institution/drive/folders/${theirs.id}/children`, undefined],
      ["PATCH", `/api/institution/drive/folders/${theirs.id}`, { name: "x" }],
      ["DELETE", `/api/institution/drive/folders/${theirs.id}?recursive=true`, undefined],
      ["GET", `/api/institution/drive/files/${file.media.id}`, undefined],
      ["PATCH", `/api/institution/drive/files/${file.media.id}`, { name: "x" }],
      ["DELETE", `/api/institution/drive/files/${file.media.id}`, undefined],
    ] as const) {
      expect((await call(method, url, body, mine)).statusCode).toBe(404);
    }
    const own = await folder({ name: `Minha ${Date.now()}` });
    const intoTheirs = await call("PATCH", `/api/institution/drive/folders/${own.id}`, {
      parentId: theirs.id,
    });
    expect(intoTheirs.statusCode).toBe(400);
    const place = await call("POST", "/api/institution/drive/files", {
      mediaId: file.media.id,
      folderId: own.id,
    });
    expect(place.statusCode).toBe(400);
    const row = (await h.database.db.select().from(driveFolders).where(eq(driveFolders.id, theirs.id)))[0];
    expect(row?.name).toBe(theirs.name);
  });
});

describe("drive counters", () => {
  it("agree with a recount of the rows after every change above (creates, moves, re-scopes, deletes)", async () => {
    for (const tenant of [a, b]) {
      const { rows } = (await h.database.db.execute(sql`
        WITH kept AS (
          SELECT counter, value::int AS value FROM tenant_counters
          WHERE tenant_id = ${tenant.id} AND counter ~ '^drive_(children|roots):' AND value <> 0
        ), recount AS (
          SELECT k.counter, count(*)::int AS value FROM (
            SELECT c.counter FROM drive_folders f, aula_drive_counters('drive_folders', to_jsonb(f)) c(counter)
            WHERE f.tenant_id = ${tenant.id}
            UNION ALL
            SELECT c.counter FROM media m, aula_drive_counters('media', to_jsonb(m)) c(counter)
            WHERE m.tenant_id = ${tenant.id}
          ) k GROUP BY k.counter
        )
        SELECT coalesce(kept.counter, recount.counter) AS counter, kept.value AS kept, recount.value AS recounted
        FROM kept FULL JOIN recount ON recount.counter = kept.counter
        ORDER BY 1`)) as unknown as {
        rows: { counter: string; kept: number | null; recounted: number | null }[];
      };
      expect(rows.length).toBeGreaterThan(0);
      expect(rows.filter((r) => r.kept !== r.recounted)).toEqual([]);
    }
  });
});
