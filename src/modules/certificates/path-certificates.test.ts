import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { platformEvents } from "../../db/schema/index.js";
import { callApi, MANY_STUDENTS, WHOLE_PATHS } from "../../test-support/api.js";
import { makeCourse, type TestCourse } from "../../test-support/catalogue.js";
import { makeUser, type TestTenant } from "../../test-support/harness.js";
import { useMailKit } from "../../test-support/mail-kit.js";
import { pdfText } from "../../test-support/pdf-text.js";

/** Learning paths issue certificates: a template names paths as it names courses. */
const k = useMailKit(MANY_STUDENTS);
const { h, a, b, drain, mailTo } = k;
const call = (t: TestTenant, method: "GET" | "POST" | "PUT" | "PATCH", url: string, payload?: unknown) =>
  callApi(h, t, t === a ? k.keyA : k.keyB, method, url, payload);

const PATH_TITLE = "Trilha de Ciência de Dados — Nível Avançado";
let c1: TestCourse;
let c2: TestCourse;
let pathId: string;
let templateId: string;

async function path(t: TestTenant, title: string, courses: TestCourse[]) {
  const res = await call(t, "POST", "/learning-paths", {
    title,
    status: "published",
    courses: courses.map((c) => ({ courseId: c.courseId })),
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as string;
}

async function enrollInPath(t: TestTenant, id: string, userId: string) {
  const res = await call(t, "POST", `/learning-paths/${id}/enrollments`, { userIds: [userId] });
  expect(res.json().summary.created, res.body).toBe(1);
}

const complete = (t: TestTenant, course: TestCourse, userId: string) =>
  call(t, "PUT", `/lessons/${course.lessonIds[0]}/completions/${userId}`, {});

const textOf = async (bytes: Buffer) => (await pdfText(bytes)).text;

beforeAll(async () => {
  c1 = await makeCourse(h.database.db, a.id, [{ lessons: [{}] }], "Estatística");
  c2 = await makeCourse(h.database.db, a.id, [{ lessons: [{}] }], "Aprendizado de Máquina");
  pathId = await path(a, PATH_TITLE, [c1, c2]);
  const res = await call(a, "POST", "/certificate-templates", {
    name: "Trilha",
    layout: { title: "Certificado de trilha", body: "{{student.name}} concluiu {{course.title}}." },
    learningPathIds: [pathId.toUpperCase()],
  });
  expect(res.statusCode, res.body).toBe(201);
  expect(res.json()).toMatchObject({ courseIds: [], learningPathIds: [pathId] });
  templateId = res.json().id;
});

describe("a template's learning paths", () => {
  it("are the institution's, and a path names one template", async () => {
    const foreignPath = await path(b, "Beta path", [await makeCourse(h.database.db, b.id)]);
    const foreign = await call(a, "POST", "/certificate-templates", {
      name: "X",
      layout: { title: "T", body: "B" },
      learningPathIds: [foreignPath],
    });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().details).toMatchObject([{ field: "learningPathIds" }]);
    const taken = await call(a, "POST", "/certificate-templates", {
      name: "Y",
      layout: { title: "T", body: "B" },
      learningPathIds: [pathId],
    });
    expect(taken.statusCode).toBe(409);
    const got = await call(a, "GET", `/certificate-templates/${templateId}`);
    expect(got.json().learningPathIds).toEqual([pathId]);
  });
});

describe("completing a learning path", () => {
  it("issues the path's certificate in the completing transaction, mails its PDF, and the page names the path", async () => {
    const user = await makeUser(h, a, "student");
    await enrollInPath(a, pathId, user.id);
    expect((await complete(a, c1, user.id)).statusCode).toBe(201);
    expect(
      (await call(a, "GET", `/certificates?learningPathId=${pathId}&userId=${user.id}`)).json().data,
    ).toEqual([]);
    expect((await complete(a, c2, user.id)).statusCode).toBe(201);
    const list = await call(a, "GET", `/certificates?learningPathId=${pathId}`);
    const certs = list.json().data.filter((c: { userId: string }) => c.userId === user.id);
    expect(certs).toHaveLength(1);
    const cert = certs[0];
    expect(cert).toMatchObject({
      templateId,
      learningPathId: pathId,
      learningPathTitle: PATH_TITLE,
      courseId: null,
      courseTitle: null,
      enrollmentId: null,
      source: "completion",
      status: "valid",
    });
    expect(list.json().pagination.total).toBe(list.json().data.length);
    const events = await h.database.db
      .select()
      .from(platformEvents)
      .where(and(eq(platformEvents.tenantId, a.id), eq(platformEvents.type, "certificate_issued")));
    expect(events.map((e) => e.data)).toContainEqual(
      expect.objectContaining({
        certificateId: cert.id,
        learningPathId: pathId,
        learningPathTitle: PATH_TITLE,
      }),
    );
    expect(await drain()).toMatchObject({ sent: 1, failed: 0 });
    const mail = mailTo(user.email);
    expect(mail.subject).toContain(PATH_TITLE);
    const pdf = mail.attachments.find((p) => p.contentType === "application/pdf");
    const text = await textOf(pdf?.content as Buffer);
    expect(text).toContain(user.name);
    expect(text).toContain("Ciência de Dados");
    const page = await callApi(h, a, {}, "GET", `/verify/${cert.serial}`, undefined, WHOLE_PATHS);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('id="certificate-path"');
    expect(page.body).toContain("Trilha de Ciência de Dados");
    const json = await callApi(h, a, {}, "GET", `/api/verify/${cert.serial}`, undefined, WHOLE_PATHS);
    expect(json.json()).toMatchObject({ learningPathTitle: PATH_TITLE, courseTitle: null });
    // One valid certificate per path enrollment: by hand it is 409 now.
    const again = await call(a, "POST", "/certificates", {
      templateId,
      userId: user.id,
      learningPathId: pathId,
    });
    expect(again.statusCode).toBe(409);
  });
});

describe("issuing a path's certificate by hand", () => {
  it("needs the user enrolled in the path, once, and exactly one of course and path", async () => {
    const user = await makeUser(h, a, "student");
    const body = { templateId, userId: user.id, learningPathId: pathId };
    const notEnrolled = await call(a, "POST", "/certificates", body);
    expect(notEnrolled.statusCode).toBe(409);
    await enrollInPath(a, pathId, user.id);
    const issued = await call(a, "POST", "/certificates", body);
    expect(issued.statusCode, issued.body).toBe(201);
    expect(issued.json()).toMatchObject({ learningPathId: pathId, source: "manual", courseId: null });
    expect((await call(a, "POST", "/certificates", body)).statusCode).toBe(409);
    const both = await call(a, "POST", "/certificates", { ...body, courseId: c1.courseId });
    expect(both.statusCode).toBe(400);
    const neither = await call(a, "POST", "/certificates", { templateId, userId: user.id });
    expect(neither.statusCode).toBe(400);
    // Completing the path afterwards issues no second one.
    await complete(a, c1, user.id);
    await complete(a, c2, user.id);
    const mine = await call(a, "GET", `/certificates?userId=${user.id}`);
    expect(mine.json().data).toHaveLength(1);
    expect(mine.json().pagination.total).toBe(1);
    await drain();
  });

  it("treats another institution's path like an unknown one, and its certificates stay its own", async () => {
    const user = await makeUser(h, b, "student");
    const foreignPath = await path(b, "Beta track", [await makeCourse(h.database.db, b.id)]);
    await enrollInPath(b, foreignPath, user.id);
    const res = await call(a, "POST", "/certificates", {
      templateId,
      userId: user.id,
      learningPathId: foreignPath,
    });
    expect(res.statusCode).toBe(400);
    expect(
      res
        .json()
        .details.map((d: { field: string }) => d.field)
        .sort(),
    ).toEqual(["learningPathId", "userId"]);
    const listed = await call(a, "GET", `/certificates?learningPathId=${foreignPath}`);
    expect(listed.json()).toMatchObject({ data: [], pagination: { total: 0 } });
  });
});
