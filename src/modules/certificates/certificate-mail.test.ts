import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { certificates, emailMessages } from "../../db/schema/index.js";
import { callApi, MANY_STUDENTS } from "../../test-support/api.js";
import { enrollDirectly, makeCourse } from "../../test-support/catalogue.js";
import type { TestTenant } from "../../test-support/harness.js";
import { useMailKit } from "../../test-support/mail-kit.js";
import { pdfText } from "../../test-support/pdf-text.js";
import { createUser } from "../users/service.js";

const k = useMailKit(MANY_STUDENTS);
const { h, a, b, drain, mailTo } = k;
const call = (t: TestTenant, method: "GET" | "POST" | "PUT", url: string, payload?: unknown) =>
  callApi(h, t, t === a ? k.keyA : k.keyB, method, url, payload);

const textOf = async (bytes: Buffer) => (await pdfText(bytes)).text;

async function student(t: TestTenant, name: string) {
  const email = `s-${randomUUID().slice(0, 8)}@${t.slug}.test`;
  return createUser(
    h.database.db,
    h.config.plans,
    t.id,
    { kind: "system" },
    { name, email, role: "student" },
  );
}

async function template(t: TestTenant, courseIds: string[] = []) {
  const res = await call(t, "POST", "/certificate-templates", {
    name: "Conclusão",
    layout: { title: "Certificado", body: "Certificamos que {{student.name}} concluiu {{course.title}}." },
    courseIds,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as string;
}

/** The one PDF part of the mail to this address, read back as text. */
async function pdfIn(address: string) {
  const mail = mailTo(address);
  const pdfs = mail.attachments.filter((p) => p.contentType === "application/pdf");
  expect(pdfs).toHaveLength(1);
  const pdf = pdfs[0] as (typeof pdfs)[number];
  expect(pdf.content.subarray(0, 5).toString("latin1")).toBe("%PDF-");
  return { mail, pdf, text: await textOf(pdf.content) };
}

const messagesTo = (t: TestTenant, userId: string) =>
  h.database.db
    .select()
    .from(emailMessages)
    .where(and(eq(emailMessages.tenantId, t.id), eq(emailMessages.toUserId, userId)));

describe("the certificate's mail", () => {
  it("is queued with a certificate issued by hand and carries its PDF, rendered when it is sent", async () => {
    const user = await student(a, "Maria Conceição Araújo");
    const { courseId } = await makeCourse(h.database.db, a.id, [{ lessons: [{}] }], "Álgebra Linear");
    await enrollDirectly(h.database.db, a.id, user.id, courseId);
    const res = await call(a, "POST", "/certificates", {
      templateId: await template(a),
      userId: user.id,
      courseId,
    });
    expect(res.statusCode, res.body).toBe(201);
    const cert = res.json();
    // The row names the certificate; it holds no bytes of the PDF and no body yet.
    const [queued] = await messagesTo(a, user.id);
    expect(queued).toMatchObject({
      templateKey: "certificate",
      status: "queued",
      bodySealed: null,
      attachments: [{ kind: "certificate", id: cert.id }],
    });
    expect(queued?.subject).toContain("Álgebra Linear");
    expect(await drain()).toMatchObject({ sent: 1, failed: 0, suppressed: 0 });
    const { mail, pdf, text } = await pdfIn(user.email);
    expect(pdf.filename).toBe(`certificate-${cert.serial}.pdf`);
    expect(text).toContain("Maria Conceição Araújo");
    expect(text).toContain("Álgebra Linear");
    expect(text).toContain(cert.serial);
    expect(mail.subject).toContain("Álgebra Linear");
    expect(mail.text).toContain(`http://${a.host}:${h.config.port}/verify/${cert.serial}`);
    expect(mail.text).toContain("Maria Conceição Araújo");
    const [sent] = await messagesTo(a, user.id);
    expect(sent).toMatchObject({ status: "sent", messageId: expect.stringMatching(/^<.+@mail\.test>$/) });
  });

  it("is queued when completing the course issues the certificate", async () => {
    const user = await student(a, "Zoë Łukasiewicz");
    const course = await makeCourse(h.database.db, a.id, [{ lessons: [{}] }], "Cálculo Diferencial");
    await template(a, [course.courseId]);
    await enrollDirectly(h.database.db, a.id, user.id, course.courseId);
    const done = await call(a, "PUT", `/lessons/${course.lessonIds[0]}/completions/${user.id}`, {});
    expect(done.statusCode, done.body).toBe(201);
    const list = await call(a, "GET", `/certificates?userId=${user.id}`);
    expect(list.json().data).toHaveLength(1);
    expect(await drain()).toMatchObject({ sent: 1, failed: 0 });
    const { text } = await pdfIn(user.email);
    expect(text).toContain("Zoë Łukasiewicz");
    expect(text).toContain("Cálculo Diferencial");
  });

  it("is not sent when the certificate is revoked before the worker gets to it", async () => {
    const user = await student(a, "Revogado Silva");
    const { courseId } = await makeCourse(h.database.db, a.id, [{ lessons: [{}] }]);
    await enrollDirectly(h.database.db, a.id, user.id, courseId);
    const res = await call(a, "POST", "/certificates", {
      templateId: await template(a),
      userId: user.id,
      courseId,
    });
    const revoked = await call(a, "POST", `/certificates/${res.json().id}/revoke`, {
      reason: "Wrong student.",
    });
    expect(revoked.statusCode).toBe(200);
    expect(await drain()).toMatchObject({ sent: 0, failed: 0, suppressed: 1 });
    expect(k.smtp.mails.filter((m) => JSON.stringify(m.to).includes(user.email))).toHaveLength(0);
    const [row] = await messagesTo(a, user.id);
    expect(row?.status).toBe("suppressed");
    const listed = await callApi(h, a, k.keyA, "GET", `/email/messages?status=suppressed&userId=${user.id}`);
    expect(listed.statusCode, listed.body).toBe(200);
    expect(listed.json().data).toHaveLength(1);
  });

  it("is not sent when the certificate expired before the worker got to it", async () => {
    const user = await student(a, "Expirado Costa");
    const { courseId } = await makeCourse(h.database.db, a.id, [{ lessons: [{}] }]);
    await enrollDirectly(h.database.db, a.id, user.id, courseId);
    const res = await call(a, "POST", "/certificates", {
      templateId: await template(a),
      userId: user.id,
      courseId,
    });
    await h.database.db
      .update(certificates)
      .set({ expiresAt: new Date(Date.now() - 1000).toISOString() })
      .where(and(eq(certificates.tenantId, a.id), eq(certificates.id, res.json().id)));
    expect(await drain()).toMatchObject({ sent: 0, suppressed: 1 });
    expect((await messagesTo(a, user.id))[0]?.status).toBe("suppressed");
  });

  it("is written in the issuing transaction: a refused issue queues nothing", async () => {
    const user = await student(a, "Duplicado Souza");
    const { courseId } = await makeCourse(h.database.db, a.id, [{ lessons: [{}] }]);
    await enrollDirectly(h.database.db, a.id, user.id, courseId);
    const body = { templateId: await template(a), userId: user.id, courseId };
    expect((await call(a, "POST", "/certificates", body)).statusCode).toBe(201);
    expect((await call(a, "POST", "/certificates", body)).statusCode).toBe(409);
    expect(await messagesTo(a, user.id)).toHaveLength(1);
    await drain();
  });

  it("follows the institution's own template for the key, and another institution's mail stays its own", async () => {
    const put = await call(b, "PUT", "/email/templates/certificate", {
      locale: "pt-BR",
      subject: "Diploma de {{courseTitle}}",
      bodyHtml: "<p>{{name}}: {{certificateUrl}}</p>",
      bodyText: "{{name}}: {{certificateUrl}}",
    });
    expect(put.statusCode, put.body).toBe(200);
    const user = await student(b, "Beatriz Beta");
    const { courseId } = await makeCourse(h.database.db, b.id, [{ lessons: [{}] }], "Física");
    await enrollDirectly(h.database.db, b.id, user.id, courseId);
    const res = await call(b, "POST", "/certificates", {
      templateId: await template(b),
      userId: user.id,
      courseId,
    });
    expect(await drain(a)).toMatchObject({ sent: 0 });
    expect(await drain(b)).toMatchObject({ sent: 1 });
    const { mail, text } = await pdfIn(user.email);
    expect(mail.subject).toBe("Diploma de Física");
    expect(mail.text).toContain(
      `Beatriz Beta: http://${b.host}:${h.config.port}/verify/${res.json().serial}`,
    );
    expect(text).toContain("Beatriz Beta");
  });
});
