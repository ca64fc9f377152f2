import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { certificates, platformEvents } from "../../db/schema/index.js";
import { fieldsOf, MANY_STUDENTS, useApi } from "../../test-support/api.js";
import { enrollDirectly, makeCourse } from "../../test-support/catalogue.js";
import { makeKey, type TestTenant } from "../../test-support/harness.js";
import { createUser } from "../users/service.js";
import { certificateEvents } from "./events.js";
import { expireCertificates } from "./expiry.js";

const { h, tenants, call } = useApi({ tenants: 2, env: MANY_STUDENTS });
const [a, b] = tenants;
let keyA: string;
let keyB: string;
let readOnlyA: string;

const LAYOUT = {
  title: "Certificado de conclusão",
  body: "Certificamos que {{student.name}} concluiu {{course.title}} em {{issuedAt}}.",
  footer: "Código {{serial}}",
};

beforeAll(async () => {
  const scopes = ["courses:read", "courses:write", "enrollments:write"];
  keyA = await makeKey(h, a, scopes);
  keyB = await makeKey(h, b, scopes);
  readOnlyA = await makeKey(h, a, ["courses:read"]);
});

async function student(t: TestTenant, name: string) {
  const email = `${randomUUID()}@${t.slug}.test`;
  return createUser(
    h.database.db,
    h.config.plans,
    t.id,
    { kind: "system" },
    { name, email, role: "student" },
  );
}

async function template(t: TestTenant, key: string, extra: Record<string, unknown> = {}) {
  const res = await call(t, key, "POST", "/certificate-templates", {
    name: "Conclusão",
    layout: LAYOUT,
    ...extra,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

const eventsOf = (t: TestTenant, type: string) =>
  h.database.db
    .select()
    .from(platformEvents)
    .where(and(eq(platformEvents.tenantId, t.id), eq(platformEvents.type, type)));

describe("certificate templates", () => {
  it("are created, read, listed and changed", async () => {
    const { courseId } = await makeCourse(h.database.db, a.id);
    const created = await template(a, keyA, { courseIds: [courseId.toUpperCase()], expiresAfterDays: 365 });
    expect(created).toMatchObject({
      name: "Conclusão",
      layout: LAYOUT,
      orientation: "landscape",
      backgroundMediaId: null,
      signatureMediaId: null,
      expiresAfterDays: 365,
      status: "active",
      courseIds: [courseId],
    });
    const got = await call(a, readOnlyA, "GET", `/certificate-templates/${created.id}`);
    expect(got.json()).toEqual(created);
    const list = await call(a, readOnlyA, "GET", "/certificate-templates?status=active");
    expect(list.json().data.map((t: { id: string }) => t.id)).toContain(created.id);
    expect(list.json().pagination.total).toBe(list.json().data.length);
    const patched = await call(a, keyA, "PATCH", `/certificate-templates/${created.id}`, {
      status: "archived",
      orientation: "portrait",
      courseIds: [],
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json()).toMatchObject({ status: "archived", orientation: "portrait", courseIds: [] });
    expect(Date.parse(patched.json().updatedAt)).toBeGreaterThanOrEqual(Date.parse(created.updatedAt));
  });

  it("refuse unknown placeholders, foreign courses and media, naming the field", async () => {
    const bad = await call(a, keyA, "POST", "/certificate-templates", {
      name: "x",
      layout: { title: "{{student.email}}", body: "{{ course.title }} {{constructor}}" },
    });
    expect(bad.statusCode).toBe(400);
    expect(fieldsOf(bad)).toEqual(["layout.body", "layout.title"]);
    const { courseId: foreignCourse } = await makeCourse(h.database.db, b.id);
    const foreign = await call(a, keyA, "POST", "/certificate-templates", {
      name: "x",
      layout: LAYOUT,
      courseIds: [foreignCourse],
    });
    const unknown = await call(a, keyA, "POST", "/certificate-templates", {
      name: "x",
      layout: LAYOUT,
      courseIds: [randomUUID()],
    });
    expect(foreign.statusCode).toBe(400);
    expect(fieldsOf(foreign)).toEqual(["courseIds"]);
    expect(unknown.statusCode).toBe(400);
    const media = await call(a, keyA, "POST", "/certificate-templates", {
      name: "x",
      layout: LAYOUT,
      signatureMediaId: randomUUID(),
    });
    expect(media.statusCode).toBe(400);
    expect(fieldsOf(media)).toEqual(["signatureMediaId"]);
  });

  it("let a course name one template only (409), and are 404 to another tenant", async () => {
    const { courseId } = await makeCourse(h.database.db, a.id);
    const first = await template(a, keyA, { courseIds: [courseId] });
    const second = await call(a, keyA, "POST", "/certificate-templates", {
      name: "Other",
      layout: LAYOUT,
      courseIds: [courseId],
    });
    expect(second.statusCode).toBe(409);
    expect(second.json().error).toBe("conflict");
    for (const [method, payload] of [
      ["GET", undefined],
      ["PATCH", { name: "Stolen" }],
    ] as const) {
      const res = await call(b, keyB, method, `/certificate-templates/${first.id}`, payload);
      expect(res.statusCode).toBe(404);
    }
    expect((await call(a, keyA, "GET", `/certificate-templates/${first.id}`)).json().name).toBe("Conclusão");
  });
});

describe("certificates", () => {
  it("are issued by hand once per enrollment, with an unguessable code and certificate_issued", async () => {
    const tpl = await template(a, keyA, { expiresAfterDays: 30 });
    const { courseId } = await makeCourse(h.database.db, a.id, [{ lessons: [{}] }], "Álgebra Linear");
    const user = await student(a, "João Gonçalves");
    const body = { templateId: tpl.id, userId: user.id, courseId };
    expect((await call(a, keyA, "POST", "/certificates", body)).statusCode).toBe(409); // not enrolled
    const enrollmentId = await enrollDirectly(h.database.db, a.id, user.id, courseId);
    const issued = await call(a, keyA, "POST", "/certificates", body);
    expect(issued.statusCode, issued.body).toBe(201);
    const cert = issued.json();
    expect(cert).toMatchObject({
      templateId: tpl.id,
      userId: user.id,
      courseId,
      enrollmentId,
      status: "valid",
      source: "manual",
      studentName: "João Gonçalves",
      courseTitle: "Álgebra Linear",
      revokedAt: null,
    });
    expect(cert.serial).toMatch(/^[0-9A-HJKMNP-TV-Z]{4}(-[0-9A-HJKMNP-TV-Z]{4}){3}$/);
    expect(cert.verificationUrl).toBe(`http://${a.host}/verify/${cert.serial}`);
    expect(Date.parse(cert.expiresAt) - Date.parse(cert.issuedAt)).toBe(30 * 86_400_000);
    const again = await call(a, keyA, "POST", "/certificates", body);
    expect(again.statusCode).toBe(409);
    const events = await eventsOf(a, "certificate_issued");
    expect(events.map((e) => (e.data as { certificateId: string }).certificateId)).toContain(cert.id);
    expect((await call(a, readOnlyA, "GET", `/certificates/${cert.id}`)).json()).toEqual(cert);
  });

  it("refuse another tenant's template, user and course like unknown ones, and archived templates", async () => {
    const tpl = await template(a, keyA);
    const { courseId } = await makeCourse(h.database.db, a.id);
    const user = await student(a, "Maria");
    const foreignTpl = await template(b, keyB);
    const { courseId: foreignCourse } = await makeCourse(h.database.db, b.id);
    const foreignUser = await student(b, "Zé");
    const res = await call(a, keyA, "POST", "/certificates", {
      templateId: foreignTpl.id,
      userId: foreignUser.id,
      courseId: foreignCourse,
    });
    expect(res.statusCode).toBe(400);
    expect(fieldsOf(res)).toEqual(["courseId", "templateId", "userId"]);
    await call(a, keyA, "PATCH", `/certificate-templates/${tpl.id}`, { status: "archived" });
    await enrollDirectly(h.database.db, a.id, user.id, courseId);
    const archived = await call(a, keyA, "POST", "/certificates", {
      templateId: tpl.id,
      userId: user.id,
      courseId,
    });
    expect(archived.statusCode).toBe(409);
  });

  it("are issued when an enrollment completes a course that names a template, in the same transaction", async () => {
    const course = await makeCourse(h.database.db, a.id, [{ lessons: [{}, {}] }], "Cálculo");
    const tpl = await template(a, keyA, { courseIds: [course.courseId] });
    const user = await student(a, "Inês Ribeiro");
    await enrollDirectly(h.database.db, a.id, user.id, course.courseId);
    const complete = (lessonId: string) =>
      call(a, keyA, "PUT", `/lessons/${lessonId}/completions/${user.id}`, {});
    expect((await complete(course.lessonIds[0] as string)).statusCode).toBe(201);
    const none = await call(a, keyA, "GET", `/certificates?userId=${user.id}`);
    expect(none.json().data).toEqual([]);
    expect((await complete(course.lessonIds[1] as string)).statusCode).toBe(201);
    const list = await call(a, keyA, "GET", `/certificates?userId=${user.id}&courseId=${course.courseId}`);
    expect(list.json().data).toHaveLength(1);
    expect(list.json().data[0]).toMatchObject({
      templateId: tpl.id,
      source: "completion",
      courseTitle: "Cálculo",
    });
    const issued = await eventsOf(a, "certificate_issued");
    const mine = issued.filter((e) => (e.data as { userId: string }).userId === user.id);
    expect(mine).toHaveLength(1);
    expect(mine[0]?.subject).toMatchObject({ id: user.id, name: "Inês Ribeiro" });
    // Exactly the documented payload: the fields of the event's schema, no more.
    expect(Object.keys(mine[0]?.data as object).sort()).toEqual(
      Object.keys(certificateEvents.certificate_issued.payload.properties).sort(),
    );
    expect(mine[0]?.data).toMatchObject({ verificationPath: `/verify/${list.json().data[0].serial}` });
  });

  it("are listed with filters, flat totals, and revoked once with certificate_revoked", async () => {
    const tpl = await template(a, keyA);
    const { courseId } = await makeCourse(h.database.db, a.id);
    const user = await student(a, "Ana Lúcia");
    await enrollDirectly(h.database.db, a.id, user.id, courseId);
    const since = new Date().toISOString();
    const cert = (
      await call(a, keyA, "POST", "/certificates", { templateId: tpl.id, userId: user.id, courseId })
    ).json();
    const byCourse = await call(a, readOnlyA, "GET", `/certificates?courseId=${courseId}&status=valid`);
    expect(byCourse.json().data.map((c: { id: string }) => c.id)).toEqual([cert.id]);
    expect(byCourse.json().pagination).toMatchObject({ total: 1, totalRelation: "eq" });
    const recent = await call(a, readOnlyA, "GET", `/certificates?issuedSince=${since}`);
    expect(recent.json().data.map((c: { id: string }) => c.id)).toContain(cert.id);
    const revoke = (t: TestTenant, key: string) =>
      call(t, key, "POST", `/certificates/${cert.id}/revoke`, { reason: "Emitido por engano" });
    expect((await revoke(b, keyB)).statusCode).toBe(404);
    expect((await call(b, keyB, "GET", `/certificates/${cert.id}`)).statusCode).toBe(404);
    const revoked = await revoke(a, keyA);
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json()).toMatchObject({ status: "revoked", revocationReason: "Emitido por engano" });
    expect((await revoke(a, keyA)).statusCode).toBe(409);
    const events = await eventsOf(a, "certificate_revoked");
    expect(
      events.find((e) => (e.data as { certificateId: string }).certificateId === cert.id)?.data,
    ).toMatchObject({
      reason: "Emitido por engano",
      status: "revoked",
    });
    const revokedList = await call(a, readOnlyA, "GET", `/certificates?courseId=${courseId}&status=revoked`);
    expect(revokedList.json().pagination.total).toBe(1);
    // A new certificate may be issued once the valid one is revoked.
    const reissued = await call(a, keyA, "POST", "/certificates", {
      templateId: tpl.id,
      userId: user.id,
      courseId,
    });
    expect(reissued.statusCode).toBe(201);
  });

  it("expire in the worker's pass, warned 30 days ahead", async () => {
    const tpl = await template(a, keyA, { expiresAfterDays: 10 });
    const { courseId } = await makeCourse(h.database.db, a.id);
    const user = await student(a, "Noé");
    await enrollDirectly(h.database.db, a.id, user.id, courseId);
    const cert = (
      await call(a, keyA, "POST", "/certificates", { templateId: tpl.id, userId: user.id, courseId })
    ).json();
    await expireCertificates(h.database.db);
    const warned = await eventsOf(a, "certificate_expiring");
    expect(warned.some((e) => (e.data as { certificateId: string }).certificateId === cert.id)).toBe(true);
    await expireCertificates(h.database.db);
    expect((await eventsOf(a, "certificate_expiring")).length).toBe(warned.length);
    await h.database.db
      .update(certificates)
      .set({ expiresAt: new Date(Date.now() - 1000).toISOString() })
      .where(and(eq(certificates.tenantId, a.id), eq(certificates.id, cert.id)));
    await expireCertificates(h.database.db);
    expect((await call(a, keyA, "GET", `/certificates/${cert.id}`)).json().status).toBe("expired");
    const expired = await eventsOf(a, "certificate_expired");
    expect(expired.some((e) => (e.data as { certificateId: string }).certificateId === cert.id)).toBe(true);
  });
});
