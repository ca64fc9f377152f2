import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { lessonCompletions, lessons } from "../../db/schema/index.js";
import { AS_WRITTEN, callApi, type Method, useApi } from "../../test-support/api.js";
import { makeKey, makeUser, UNLIMITED_KEY } from "../../test-support/harness.js";
import { uploadLocal } from "../../test-support/media-client.js";
import { pdf } from "../../test-support/media-files.js";
import { findLesson } from "./service.js";

const { h, tenants } = useApi({ tenants: 2 });
const [a, b] = tenants;
let keyA: string;
let keyB: string;

beforeAll(async () => {
  // These tests send more than a standard key's 100 requests a minute.
  keyA = await makeKey(h, a, ["courses:read", "courses:write", "media:read", "media:write"], UNLIMITED_KEY);
  keyB = await makeKey(h, b, [], UNLIMITED_KEY);
});

const call = (method: string, url: string, payload?: object, tenant = a, key = keyA) =>
  callApi(h, tenant, key, method as Method, url, payload, AS_WRITTEN);

/** A ready file of tenant A, uploaded through the three steps. */
async function readyMedia(): Promise<string> {
  const { completed } = await uploadLocal(h, a, keyA, { contentType: "application/pdf", bytes: pdf() });
  return completed?.json().id as string;
}

/** A course with one module per title given; returns the course id and the module ids. */
async function courseWith(titles: string[], tenant = a, key = keyA) {
  const course = (await call("POST", "/api/institution/courses", { title: "Curso" }, tenant, key)).json().id;
  const modules: string[] = [];
  for (const title of titles) {
    modules.push(
      (await call("POST", `/api/institution/courses/${course}/modules`, { title }, tenant, key)).json().id,
    );
  }
  return { course: course as string, modules };
}

async function addLesson(moduleId: string, body: object, tenant = a, key = keyA) {
  const res = await call("POST", `/api/institution/modules/${moduleId}/lessons`, body, tenant, key);
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

const quiz = (title: string, extra: object = {}) => ({ title, type: "quiz", ...extra });

async function titlesIn(moduleId: string): Promise<string[]> {
  const rows = await h.database.db
    .select({ title: lessons.title, position: lessons.position })
    .from(lessons)
    .where(eq(lessons.moduleId, moduleId))
    .orderBy(lessons.position);
  expect(rows.map((r) => r.position)).toEqual(rows.map((_, i) => i + 1));
  return rows.map((r) => r.title);
}

function fields(res: { json(): { details: { field: string }[] } }): string[] {
  return res
    .json()
    .details.map((d) => d.field)
    .sort();
}

describe("creating lessons", () => {
  it("stores each type with its content and the defaults, in the contract's record", async () => {
    const { course, modules } = await courseWith(["M"]);
    const m = modules[0] as string;
    const text = await addLesson(m, { title: "Texto", type: "text", content: { bodyHtml: "<p>Olá</p>" } });
    expect(Object.keys(text).sort()).toEqual(
      [
        "id",
        "courseId",
        "moduleId",
        "title",
        "type",
        "content",
        "position",
        "status",
        "isPreview",
        "durationSeconds",
        "requiredForCompletion",
        "completionCriteria",
        "unlockAt",
        "dueAt",
        "createdAt",
        "updatedAt",
      ].sort(),
    );
    expect(text).toMatchObject({
      courseId: course,
      moduleId: m,
      type: "text",
      content: { bodyHtml: "<p>Olá</p>" },
      position: 1,
      status: "draft",
      isPreview: false,
      durationSeconds: null,
      requiredForCompletion: true,
      completionCriteria: { type: "view" },
      unlockAt: null,
      dueAt: null,
    });
    const video = await addLesson(m, {
      title: "Vídeo",
      type: "video",
      content: { url: "https://cdn.example.com/v.mp4" },
      isPreview: true,
      durationSeconds: 540,
      completionCriteria: { type: "min_time", minSeconds: 300 },
      unlockAt: "2026-05-01T00:00:00Z",
      dueAt: "2026-05-10T00:00:00Z",
      status: "published",
    });
    expect(video).toMatchObject({
      position: 2,
      isPreview: true,
      durationSeconds: 540,
      completionCriteria: { type: "min_time", minSeconds: 300 },
      unlockAt: "2026-05-01T00:00:00.000Z",
      dueAt: "2026-05-10T00:00:00.000Z",
    });
    // A lesson names a ready file of its own institution (uppercase ids are stored as the database prints them).
    const mediaId = await readyMedia();
    for (const type of ["audio", "pdf", "file"]) {
      expect(
        (await addLesson(m, { title: type, type, content: { mediaId: mediaId.toUpperCase() } })).content,
      ).toEqual({
        mediaId,
      });
    }
    await addLesson(m, {
      title: "Embed",
      type: "embed",
      content: { url: "https://www.youtube.com/embed/x" },
    });
    const q = await addLesson(m, quiz("Prova"));
    expect(q).toMatchObject({ content: {}, completionCriteria: { type: "submit" } });
    const task = await addLesson(m, {
      title: "Tarefa",
      type: "assignment",
      content: { instructions: "Entregue em PDF." },
      completionCriteria: { type: "min_score", minScorePercent: 60 },
      requiredForCompletion: false,
    });
    expect(task).toMatchObject({ completionCriteria: { type: "min_score", minScorePercent: 60 } });
    expect((await call("GET", `/api/institution/lessons/${task.id}`)).json()).toEqual(task);
    const mod = (await call("GET", `/api/institution/modules/${m}`)).json();
    expect(mod.lessonCount).toBe(8);
  });

  it("refuses content that does not fit the type, naming the field, and stores nothing", async () => {
    const { modules } = await courseWith(["M"]);
    const m = modules[0] as string;
    const cases: [object, string[]][] = [
      [{ type: "text" }, ["content.bodyHtml"]],
      [{ type: "text", content: { bodyHtml: "x", url: "https://a.example" } }, ["content.url"]],
      [{ type: "text", content: { bodyHtml: "x".repeat(100_001) } }, ["content.bodyHtml"]],
      [{ type: "video", content: {} }, ["content"]],
      [{ type: "video", content: { url: "https://a.example/v", mediaId: randomUUID() } }, ["content"]],
      [{ type: "video", content: { url: "http://a.example/v" } }, ["content.url"]],
      [{ type: "pdf", content: { url: "javascript:alert(1)" } }, ["content.url"]],
      [{ type: "file", content: { mediaId: "not-a-uuid" } }, ["content.mediaId"]],
      [{ type: "embed", content: { mediaId: randomUUID() } }, ["content.mediaId", "content.url"]],
      [{ type: "quiz", content: { bodyHtml: "x" } }, ["content.bodyHtml"]],
      [{ type: "assignment", content: { instructions: "x", html: "y" } }, ["content.html"]],
      [{ type: "scorm" }, ["type"]],
    ];
    for (const [body, expected] of cases) {
      const res = await call("POST", `/api/institution/modules/${m}/lessons`, { title: "L", ...body });
      expect(res.statusCode, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(res.json().error).toBe("validation_failed");
      expect(fields(res), JSON.stringify(body).slice(0, 80)).toEqual(expected);
    }
    expect(await titlesIn(m)).toEqual([]);
  });

  it("checks completion criteria and dates against the type", async () => {
    const { modules } = await courseWith(["M"]);
    const m = modules[0] as string;
    const text = { type: "text", content: { bodyHtml: "x" } };
    const cases: [object, string[]][] = [
      [{ ...text, completionCriteria: { type: "min_time" } }, ["completionCriteria.minSeconds"]],
      [{ ...text, completionCriteria: { type: "submit" } }, ["completionCriteria.type"]],
      [
        { ...text, completionCriteria: { type: "min_score", minScorePercent: 50 } },
        ["completionCriteria.type"],
      ],
      [{ type: "quiz", completionCriteria: { type: "min_score" } }, ["completionCriteria.minScorePercent"]],
      [
        { type: "quiz", completionCriteria: { type: "view", minSeconds: 5 } },
        ["completionCriteria.minSeconds"],
      ],
      [
        { type: "quiz", completionCriteria: { type: "min_score", minScorePercent: 101 } },
        ["completionCriteria.minScorePercent"],
      ],
      [{ type: "quiz", completionCriteria: { type: "always" } }, ["completionCriteria.type"]],
      [{ type: "quiz", unlockAt: "2026-05-02T00:00:00Z", dueAt: "2026-05-01T00:00:00Z" }, ["dueAt"]],
      [{ type: "quiz", dueAt: "tomorrow" }, ["dueAt"]],
      [{ type: "quiz", durationSeconds: -1 }, ["durationSeconds"]],
    ];
    for (const [body, expected] of cases) {
      const res = await call("POST", `/api/institution/modules/${m}/lessons`, { title: "L", ...body });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(fields(res), JSON.stringify(body)).toEqual(expected);
    }
    await addLesson(m, { ...text, title: "manual", completionCriteria: { type: "manual" } });
    await addLesson(
      m,
      quiz("same instant", { unlockAt: "2026-05-01T00:00:00Z", dueAt: "2026-05-01T00:00:00Z" }),
    );
    expect(await titlesIn(m)).toEqual(["manual", "same instant"]);
  });
});

describe("a text lesson's bodyHtml", () => {
  const rich =
    '<h2>Título</h2><p>Um <strong>texto</strong> com <a href="https://example.com/x" target="_blank">link</a>.</p>' +
    '<ul><li>um</li></ul><pre><code class="language-js">x &lt; 1</code></pre>' +
    '<table><thead><tr><th scope="col">A</th></tr></thead><tbody><tr><td colspan="2">1</td></tr></tbody></table>' +
    '<img src="https://cdn.example.com/a.png" alt="figura" />' +
    '<iframe src="https://www.youtube-nocookie.com/embed/abc" width="560" height="315" allowfullscreen></iframe>';
  const hostile =
    '<p onclick="steal()">Oi<script>alert(1)</script></p><a href="javascript:alert(1)">x</a>' +
    '<img src="data:image/png;base64,AAAA" onerror="alert(1)"><iframe src="https://evil.example/x"></iframe>' +
    '<style>body{display:none}</style><form action="https://evil.example"><input name="p"></form>' +
    '<a href="//evil.example/x">y</a><span style="background:url(javascript:alert(1))">z</span>';

  it("is stored sanitised on create and on update: rich text kept, script and unsafe URLs gone", async () => {
    const { modules } = await courseWith(["M"]);
    const created = await addLesson(modules[0] as string, {
      title: "T",
      type: "text",
      content: { bodyHtml: hostile },
    });
    const expected = "<p>Oi</p><a>x</a><img /><iframe></iframe><a>y</a><span>z</span>";
    expect(created.content.bodyHtml).toBe(expected);
    const [row] = await h.database.db.select().from(lessons).where(eq(lessons.id, created.id));
    expect(row?.content).toEqual({ bodyHtml: expected });

    const updated = await call("PATCH", `/api/institution/lessons/${created.id}`, {
      content: { bodyHtml: rich },
    });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.json().content.bodyHtml).toBe(
      rich.replace('target="_blank"', 'target="_blank" rel="noopener noreferrer"'),
    );
  });
});

describe("updating lessons", () => {
  it("never changes the type, and checks content, criteria and dates against the stored lesson", async () => {
    const { modules } = await courseWith(["M"]);
    const lesson = await addLesson(modules[0] as string, {
      title: "Vídeo",
      type: "video",
      content: { url: "https://cdn.example.com/v.mp4" },
      unlockAt: "2026-05-01T00:00:00Z",
    });
    const url = `/api/institution/lessons/${lesson.id}`;
    const type = await call("PATCH", url, { type: "text" });
    expect(type.statusCode).toBe(400);
    expect(fields(type)).toEqual(["type"]);
    expect(fields(await call("PATCH", url, { content: { bodyHtml: "x" } }))).toEqual([
      "content",
      "content.bodyHtml",
    ]);
    expect(fields(await call("PATCH", url, { completionCriteria: { type: "submit" } }))).toEqual([
      "completionCriteria.type",
    ]);
    expect(fields(await call("PATCH", url, { dueAt: "2026-04-01T00:00:00Z" }))).toEqual(["dueAt"]);
    expect((await call("GET", url)).json()).toEqual(lesson);

    expect(fields(await call("PATCH", url, { content: { mediaId: lesson.courseId } }))).toEqual([
      "content.mediaId",
    ]);
    const otherFile = await readyMedia();
    const ok = await call("PATCH", url, {
      title: "Vídeo 2",
      content: { mediaId: otherFile },
      unlockAt: null,
      dueAt: "2026-04-01T00:00:00Z",
      completionCriteria: { type: "manual" },
      isPreview: true,
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({
      type: "video",
      title: "Vídeo 2",
      content: { mediaId: otherFile },
      unlockAt: null,
      dueAt: "2026-04-01T00:00:00.000Z",
      completionCriteria: { type: "manual" },
      isPreview: true,
    });
    expect(Date.parse(ok.json().updatedAt)).toBeGreaterThanOrEqual(Date.parse(lesson.updatedAt));
  });

  it("moves within the module with PATCH and renumbers; DELETE closes the gap", async () => {
    const { modules } = await courseWith(["M"]);
    const m = modules[0] as string;
    const ids: Record<string, string> = {};
    for (const t of ["A", "B", "C", "D"]) ids[t] = (await addLesson(m, quiz(t))).id;
    await addLesson(m, quiz("X", { position: 2 }));
    expect(await titlesIn(m)).toEqual(["A", "X", "B", "C", "D"]);
    expect((await call("PATCH", `/api/institution/lessons/${ids.D}`, { position: 1 })).json().position).toBe(
      1,
    );
    expect(await titlesIn(m)).toEqual(["D", "A", "X", "B", "C"]);
    await call("PATCH", `/api/institution/lessons/${ids.A}`, { position: 99 });
    expect(await titlesIn(m)).toEqual(["D", "X", "B", "C", "A"]);
    const del = await call("DELETE", `/api/institution/lessons/${ids.B}`);
    expect(del.statusCode).toBe(204);
    expect(del.body).toBe("");
    expect(await titlesIn(m)).toEqual(["D", "X", "C", "A"]);
    expect((await call("GET", `/api/institution/modules/${m}`)).json().lessonCount).toBe(4);
    expect((await call("DELETE", `/api/institution/lessons/${ids.B}`)).statusCode).toBe(404);
  });

  it("reorders with exactly the module's lessons", async () => {
    const { modules } = await courseWith(["M", "N"]);
    const [m, n] = modules as [string, string];
    const [x, y, z] = [
      await addLesson(m, quiz("X")),
      await addLesson(m, quiz("Y")),
      await addLesson(m, quiz("Z")),
    ];
    const elsewhere = await addLesson(n, quiz("W"));
    const url = `/api/institution/modules/${m}/lessons/order`;
    const res = await call("PUT", url, { lessonIds: [y.id, z.id, x.id] });
    expect(res.statusCode).toBe(200);
    expect(
      res.json().data.map((l: { title: string; position: number }) => `${l.title}${l.position}`),
    ).toEqual(["Y1", "Z2", "X3"]);
    for (const lessonIds of [
      [y.id, z.id],
      [y.id, z.id, elsewhere.id],
      [y.id, z.id, x.id, elsewhere.id],
    ]) {
      const bad = await call("PUT", url, { lessonIds });
      expect(bad.statusCode).toBe(400);
      expect(fields(bad)).toEqual(["lessonIds"]);
    }
    expect(await titlesIn(m)).toEqual(["Y", "Z", "X"]);
  });
});

describe("moving lessons between modules", () => {
  it("closes the gap, makes room, updates counts and takes the completions along", async () => {
    const { course, modules } = await courseWith(["M", "N"]);
    const [m, n] = modules as [string, string];
    const ids: Record<string, string> = {};
    for (const t of ["A", "B", "C"]) ids[t] = (await addLesson(m, quiz(t))).id;
    for (const t of ["P", "Q"]) await addLesson(n, quiz(t));
    const student = await makeUser(h, a, "student");
    await h.database.db.insert(lessonCompletions).values({
      tenantId: a.id,
      lessonId: ids.B as string,
      userId: student.id,
      courseId: course,
      moduleId: m,
    });

    const res = await call("POST", `/api/institution/lessons/${ids.B}/move`, { moduleId: n, position: 2 });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: ids.B, moduleId: n, courseId: course, position: 2 });
    expect(await titlesIn(m)).toEqual(["A", "C"]);
    expect(await titlesIn(n)).toEqual(["P", "B", "Q"]);
    const counts = await Promise.all(
      [m, n].map(async (id) => (await call("GET", `/api/institution/modules/${id}`)).json().lessonCount),
    );
    expect(counts).toEqual([2, 3]);
    const listed = (await call("GET", `/api/institution/modules/${n}/lessons`)).json();
    expect(listed.pagination.total).toBe(3);
    const [completion] = await h.database.db
      .select({ moduleId: lessonCompletions.moduleId })
      .from(lessonCompletions)
      .where(and(eq(lessonCompletions.tenantId, a.id), eq(lessonCompletions.lessonId, ids.B as string)));
    expect(completion?.moduleId).toBe(n);

    // Without a position it goes last; within its own module it simply moves.
    await call("POST", `/api/institution/lessons/${ids.A}/move`, { moduleId: n });
    expect(await titlesIn(n)).toEqual(["P", "B", "Q", "A"]);
    await call("POST", `/api/institution/lessons/${ids.A}/move`, { moduleId: n, position: 1 });
    expect(await titlesIn(n)).toEqual(["A", "P", "B", "Q"]);
  });

  it("refuses a module of another course or tenant, and another tenant's lesson", async () => {
    const { modules } = await courseWith(["M"]);
    const lesson = await addLesson(modules[0] as string, quiz("L"));
    const other = await courseWith(["Outro"]);
    const foreign = await courseWith(["Deles"], b, keyB);
    for (const moduleId of [other.modules[0], foreign.modules[0], randomUUID()]) {
      const res = await call("POST", `/api/institution/lessons/${lesson.id}/move`, { moduleId });
      expect(res.statusCode).toBe(400);
      expect(fields(res)).toEqual(["moduleId"]);
    }
    expect(await titlesIn(modules[0] as string)).toEqual(["L"]);
    const theirs = await addLesson(foreign.modules[0] as string, quiz("Deles"), b, keyB);
    const res = await call("POST", `/api/institution/lessons/${theirs.id}/move`, { moduleId: modules[0] });
    expect(res.statusCode).toBe(404);
    expect(await titlesIn(foreign.modules[0] as string)).toEqual(["Deles"]);
  });
});

describe("listing lessons", () => {
  it("lists in position order with status and type filters, sorts and exact totals", async () => {
    const { modules } = await courseWith(["M"]);
    const m = modules[0] as string;
    await addLesson(m, quiz("q1", { status: "published" }));
    await addLesson(m, { title: "t1", type: "text", content: { bodyHtml: "x" }, status: "published" });
    await addLesson(m, quiz("q2"));
    const list = async (q = "") => (await call("GET", `/api/institution/modules/${m}/lessons${q}`)).json();
    const all = await list();
    expect(all.data.map((l: { title: string }) => l.title)).toEqual(["q1", "t1", "q2"]);
    expect(all.pagination.total).toBe(3);
    const quizzes = await list("?type=quiz");
    expect(quizzes.data.map((l: { title: string }) => l.title)).toEqual(["q1", "q2"]);
    expect(quizzes.pagination.total).toBe(2);
    const published = await list("?type=quiz&status=published");
    expect(published.pagination.total).toBe(1);
    expect((await list("?sort=-position&perPage=2")).data.map((l: { title: string }) => l.title)).toEqual([
      "q2",
      "t1",
    ]);
    expect((await call("GET", `/api/institution/modules/${m}/lessons?type=movie`)).statusCode).toBe(400);
    expect((await call("GET", `/api/institution/modules/${randomUUID()}/lessons`)).statusCode).toBe(404);
  });
});

describe("tenant isolation and the shared reader", () => {
  it("answers 404 for another tenant's lessons and modules, and changes nothing", async () => {
    const { modules } = await courseWith(["Deles"], b, keyB);
    const m = modules[0] as string;
    const theirs = await addLesson(m, quiz("Deles"), b, keyB);
    for (const [method, url, body] of [
      ["GET", `/api/institution/lessons/${theirs.id}`],
      ["PATCH", `/api/institution/lessons/${theirs.id}`, { title: "Meu" }],
      ["DELETE", `/api/institution/lessons/${theirs.id}`],
      ["GET", `/api/institution/modules/${m}/lessons`],
      ["POST", `/api/institution/modules/${m}/lessons`, quiz("Intruso")],
      ["PUT", `/api/institution/modules/${m}/lessons/order`, { lessonIds: [theirs.id] }],
      ["GET", "/api/institution/lessons/123"],
    ] as [string, string, object?][]) {
      const res = await call(method, url, body);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
    }
    expect(await titlesIn(m)).toEqual(["Deles"]);
  });

  it("findLesson reads a lesson inside a caller's transaction, scoped to the tenant", async () => {
    const { modules } = await courseWith(["M"]);
    const lesson = await addLesson(modules[0] as string, quiz("Lida"));
    const seen = await h.database.db.transaction(async (tx) => ({
      mine: await findLesson(tx, a.id, lesson.id, { lock: "share" }),
      theirs: await findLesson(tx, b.id, lesson.id),
    }));
    expect(seen.mine).toEqual(lesson);
    expect(seen.theirs).toBeUndefined();
  });
});
