import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { media } from "../../db/schema/index.js";
import { callApi, type Method, useApi, WHOLE_PATHS } from "../../test-support/api.js";
import { bearer, makeKey, roleCookie, signedInUser } from "../../test-support/harness.js";
import { mediaDir, uploadLocal } from "../../test-support/media-client.js";
import { pdf } from "../../test-support/media-files.js";

/**
 * Putting a file into a drive folder shares it with the folder's audience: a teacher may share with the courses
 * and classes they teach only, a key needs `drive:write` and the right to read the file where it is, and every
 * path that changes a file's folder (or a folder's audience) applies the rule.
 */
const { h, tenants } = useApi({ env: { MEDIA_DIR: mediaDir() }, tenants: 1 });
const [t] = tenants;
let admin: string;
let teacher: Record<string, string>;
let student: Record<string, string>;
let adminSession: Record<string, string>;
const f: Record<"course" | "otherCourse" | "klass" | "otherClass" | "everyone", string> = {
  course: "",
  otherCourse: "",
  klass: "",
  otherClass: "",
  everyone: "",
};

const call = (method: Method, url: string, payload: object | undefined, auth: Record<string, string>) =>
  callApi(h, t, auth, method, url, payload, WHOLE_PATHS);
const asAdmin = (method: Method, url: string, payload?: object) => call(method, url, payload, bearer(admin));

async function created(res: Awaited<ReturnType<typeof call>>): Promise<string> {
  if (res.statusCode !== 201 && res.statusCode !== 200) throw new Error(`${res.statusCode} ${res.body}`);
  return res.json().id;
}

/** A ready file uploaded by the administrator's key, in no folder: staff material. */
async function staffFile(name = "Gabarito.pdf"): Promise<string> {
  const { completed } = await uploadLocal(h, t, admin, {
    filename: name,
    contentType: "application/pdf",
    bytes: pdf(name),
  });
  expect(completed?.json()).toMatchObject({ status: "ready", folderId: null });
  return completed?.json().id;
}

async function folderOf(id: string): Promise<string | null | undefined> {
  const [row] = await h.database.db
    .select()
    .from(media)
    .where(and(eq(media.tenantId, t.id), eq(media.id, id)));
  return row?.folderId;
}

function expectForbidden(res: Awaited<ReturnType<typeof call>>, scope: string) {
  expect(res.statusCode).toBe(403);
  expect(res.json()).toMatchObject({
    error: "forbidden",
    message: `You may not share files with the audience of this folder (${scope}).`,
  });
}

function expectScope(res: Awaited<ReturnType<typeof call>>, scope: string) {
  expect(res.statusCode).toBe(403);
  expect(res.json()).toMatchObject({ error: "insufficient_scope", details: [{ field: "scope" }] });
  expect(res.json().message).toContain(scope);
}

beforeAll(async () => {
  admin = await makeKey(h, t, []);
  const teacherUser = await signedInUser(h, t, "teacher");
  const studentUser = await signedInUser(h, t, "student");
  teacher = { cookie: teacherUser.cookie };
  student = { cookie: studentUser.cookie };
  adminSession = { cookie: await roleCookie(h, t, "institution_admin") };

  const course = await created(await asAdmin("POST", "/api/institution/courses", { title: "Física" }));
  const otherCourse = await created(await asAdmin("POST", "/api/institution/courses", { title: "Arte" }));
  const klass = await created(await asAdmin("POST", "/api/institution/classes", { name: "Turma A" }));
  const otherClass = await created(await asAdmin("POST", "/api/institution/classes", { name: "Turma B" }));
  // The teacher teaches `course` and `klass`; the student takes `course` and reads the institution's folders.
  await created(
    await asAdmin("POST", "/api/institution/enrollments", {
      userId: teacherUser.id,
      courseId: course,
      role: "teacher",
    }),
  );
  await created(
    await asAdmin("POST", "/api/institution/enrollments", { userId: studentUser.id, courseId: course }),
  );
  expect(
    (
      await asAdmin("POST", `/api/institution/classes/${klass}/members`, {
        userIds: [teacherUser.id],
        role: "teacher",
      })
    ).statusCode,
  ).toBe(200);
  f.course = await created(
    await asAdmin("POST", "/api/institution/drive/folders", {
      name: "Física",
      scope: "course",
      courseId: course,
    }),
  );
  f.otherCourse = await created(
    await asAdmin("POST", "/api/institution/drive/folders", {
      name: "Arte",
      scope: "course",
      courseId: otherCourse,
    }),
  );
  f.klass = await created(
    await asAdmin("POST", "/api/institution/drive/folders", {
      name: "Turma A",
      scope: "class",
      classId: klass,
    }),
  );
  f.otherClass = await created(
    await asAdmin("POST", "/api/institution/drive/folders", {
      name: "Turma B",
      scope: "class",
      classId: otherClass,
    }),
  );
  f.everyone = await created(await asAdmin("POST", "/api/institution/drive/folders", { name: "Todos" }));
});

describe("a teacher shares files only with the audiences they teach", () => {
  it("cannot place, move or upload a file into a folder of the institution, another course or another class", async () => {
    const secret = await staffFile();
    for (const [folder, scope] of [
      [f.everyone, "institution"],
      [f.otherCourse, "course"],
      [f.otherClass, "class"],
    ] as const) {
      expectForbidden(
        await call("POST", "/api/institution/drive/files", { mediaId: secret, folderId: folder }, teacher),
        scope,
      );
      expectForbidden(
        await call("PATCH", `/api/institution/media/${secret}`, { folderId: folder }, teacher),
        scope,
      );
      const upload = await call(
        "POST",
        "/api/institution/media/uploads",
        { filename: "novo.pdf", contentType: "application/pdf", sizeBytes: 100, folderId: folder },
        teacher,
      );
      expectForbidden(upload, scope);
    }
    expect(await folderOf(secret)).toBeNull();
    const list = await call(
      "GET",
      `/api/institution/drive/folders/${f.everyone}/children`,
      undefined,
      student,
    );
    expect(list.json().data).toEqual([]);
    const uploads = await asAdmin("GET", "/api/institution/media?search=novo");
    expect(uploads.json().pagination.total).toBe(0);
  });

  it("places, moves and uploads into the folders of their course and class, not out of them to others", async () => {
    const notes = await staffFile("Notas.pdf");
    const placed = await call(
      "POST",
      "/api/institution/drive/files",
      { mediaId: notes, folderId: f.course },
      teacher,
    );
    expect(placed.statusCode).toBe(201);
    expect(
      (await call("GET", `/api/institution/drive/files/${notes}`, undefined, student)).json(),
    ).toMatchObject({ id: notes, folderId: f.course });

    expectForbidden(
      await call("PATCH", `/api/institution/drive/files/${notes}`, { folderId: f.everyone }, teacher),
      "institution",
    );
    expect(await folderOf(notes)).toBe(f.course);
    const moved = await call(
      "PATCH",
      `/api/institution/drive/files/${notes}`,
      { folderId: f.klass },
      teacher,
    );
    expect(moved.json()).toMatchObject({ folderId: f.klass });
    // A rename is not a move: no audience check.
    expect(
      (await call("PATCH", `/api/institution/drive/files/${notes}`, { name: "Notas 2.pdf" }, teacher))
        .statusCode,
    ).toBe(200);
    const upload = await call(
      "POST",
      "/api/institution/media/uploads",
      { filename: "turma.pdf", contentType: "application/pdf", sizeBytes: 100, folderId: f.klass },
      teacher,
    );
    expect(upload.statusCode).toBe(201);
  });

  it("cannot widen a folder's audience by moving or re-scoping it; an administrator can", async () => {
    const week = await created(
      await call("POST", "/api/institution/drive/folders", { name: "Semana 1", parentId: f.course }, teacher),
    );
    const inside = await staffFile("Prova.pdf");
    expect(
      (await call("POST", "/api/institution/drive/files", { mediaId: inside, folderId: week }, teacher))
        .statusCode,
    ).toBe(201);
    expectForbidden(
      await call("PATCH", `/api/institution/drive/folders/${week}`, { parentId: f.everyone }, teacher),
      "institution",
    );
    expectForbidden(
      await call(
        "PATCH",
        `/api/institution/drive/folders/${f.course}`,
        { scope: "institution", courseId: null },
        teacher,
      ),
      "institution",
    );
    const still = await call("GET", `/api/institution/drive/folders/${week}`, undefined, teacher);
    expect(still.json()).toMatchObject({ parentId: f.course, scope: "course" });
    // Within the audiences they teach, a teacher may move folders; a rename changes no audience.
    expect(
      (await call("PATCH", `/api/institution/drive/folders/${week}`, { parentId: f.klass }, teacher)).json(),
    ).toMatchObject({ parentId: f.klass, scope: "class" });
    expect(
      (await call("PATCH", `/api/institution/drive/folders/${f.everyone}`, { name: "Todos!" }, teacher))
        .statusCode,
    ).toBe(200);

    const shared = await call(
      "PATCH",
      `/api/institution/drive/folders/${week}`,
      { parentId: f.everyone },
      adminSession,
    );
    expect(shared.json()).toMatchObject({ parentId: f.everyone, scope: "institution" });
    const direct = await staffFile("Calendário.pdf");
    expect(
      (
        await call(
          "POST",
          "/api/institution/drive/files",
          { mediaId: direct, folderId: f.everyone },
          adminSession,
        )
      ).statusCode,
    ).toBe(201);
  });
});

describe("a key shares only what it may read, with drive:write", () => {
  it("needs media:read to bring a staff-only file into the drive", async () => {
    const secret = await staffFile("Salários.pdf");
    const driveOnly = await makeKey(h, t, ["drive:read", "drive:write"]);
    expectScope(
      await call(
        "POST",
        "/api/institution/drive/files",
        { mediaId: secret, folderId: f.everyone },
        bearer(driveOnly),
      ),
      "media:read",
    );
    expect(await folderOf(secret)).toBeNull();
    // Nor can it read the file through the drive afterwards.
    expect(
      (await call("GET", `/api/institution/drive/files/${secret}`, undefined, bearer(driveOnly))).statusCode,
    ).toBe(404);

    const both = await makeKey(h, t, ["drive:write", "media:read"]);
    expect(
      (
        await call(
          "POST",
          "/api/institution/drive/files",
          { mediaId: secret, folderId: f.everyone },
          bearer(both),
        )
      ).statusCode,
    ).toBe(201);
  });

  it("needs drive:write to put a file in a folder through the media routes", async () => {
    const secret = await staffFile("Atas.pdf");
    const mediaOnly = await makeKey(h, t, ["media:read", "media:write"]);
    expectScope(
      await call("PATCH", `/api/institution/media/${secret}`, { folderId: f.everyone }, bearer(mediaOnly)),
      "drive:write",
    );
    expect(await folderOf(secret)).toBeNull();
    expectScope(
      await call(
        "POST",
        "/api/institution/media/uploads",
        { filename: "x.pdf", contentType: "application/pdf", sizeBytes: 100, folderId: f.everyone },
        bearer(mediaOnly),
      ),
      "drive:write",
    );
    // Out of the drive and renames need no drive scope.
    expect(
      (await call("PATCH", `/api/institution/media/${secret}`, { filename: "Atas 2.pdf" }, bearer(mediaOnly)))
        .statusCode,
    ).toBe(200);
  });
});
