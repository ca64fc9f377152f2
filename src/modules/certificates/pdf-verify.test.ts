import { randomUUID } from "node:crypto";
import { PDFDict, PDFDocument, PDFName } from "pdf-lib";
import { beforeAll, describe, expect, it } from "vitest";
import { AS_WRITTEN, callApi, MANY_STUDENTS, useApi } from "../../test-support/api.js";
import { enrollDirectly, makeCourse } from "../../test-support/catalogue.js";
import { makeKey, type TestTenant } from "../../test-support/harness.js";
import { mediaDir, uploadLocal } from "../../test-support/media-client.js";
import { png } from "../../test-support/media-files.js";
import { pdfText } from "../../test-support/pdf-text.js";
import { createUser } from "../users/service.js";

const { h, tenants, call } = useApi({
  tenants: ["Escola Técnica São João", "Beta University"],
  env: { ...MANY_STUDENTS, MEDIA_DIR: mediaDir() },
});
const [a, b] = tenants;
let keyA: string;
let keyB: string;
let cert: { id: string; serial: string; verificationUrl: string };

const STUDENT = "João Gonçalves";
const COURSE = "Álgebra Linear — Été à Cádiz";

beforeAll(async () => {
  const scopes = ["courses:read", "courses:write", "media:write", "media:read"];
  keyA = await makeKey(h, a, scopes);
  keyB = await makeKey(h, b, scopes);
  const signature = await uploadLocal(h, a, keyA, { contentType: "image/png", bytes: png() });
  expect(signature.completed?.json().status).toBe("ready");
  const { courseId } = await makeCourse(h.database.db, a.id, [{ lessons: [{}] }], COURSE);
  const template = await call(a, keyA, "POST", "/certificate-templates", {
    name: "Conclusão",
    layout: {
      title: "Certificat de réussite",
      body: "Nous certifions que {{student.name}} a terminé le cours {{course.title}} le {{issuedAt}} ({{institution.name}}).",
      footer: "Code de vérification : {{serial}}",
      signatureLabel: "Coordenação acadêmica",
      locale: "fr-FR",
    },
    signatureMediaId: signature.media.id,
    expiresAfterDays: 365,
  });
  expect(template.statusCode, template.body).toBe(201);
  const user = await createUser(
    h.database.db,
    h.config.plans,
    a.id,
    { kind: "system" },
    { name: STUDENT, email: `${randomUUID()}@${a.slug}.test`, role: "student" },
  );
  await enrollDirectly(h.database.db, a.id, user.id, courseId);
  const issued = await call(a, keyA, "POST", "/certificates", {
    templateId: template.json().id,
    userId: user.id,
    courseId,
  });
  expect(issued.statusCode, issued.body).toBe(201);
  cert = issued.json();
});

const pdfOf = (t: TestTenant, key: string, id: string) => call(t, key, "GET", `/certificates/${id}/pdf`);

/** The page's text as Mozilla's PDF.js reads it, runs joined by spaces (a wrapped line reads back as one). */
async function textOf(bytes: Buffer): Promise<string> {
  const pdf = await pdfText(bytes);
  expect(pdf.pages).toBe(1);
  return pdf.text;
}

describe("a certificate's PDF", () => {
  it("names the student and the course with their accents, in an embedded font, with the code", async () => {
    const res = await pdfOf(a, keyA, cert.id);
    expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
    expect(res.headers["content-type"]).toBe("application/pdf");
    expect(res.headers["content-disposition"]).toBe(`inline; filename="certificate-${cert.serial}.pdf"`);
    const bytes = res.rawPayload;
    expect(bytes.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    const text = await textOf(bytes);
    expect(text).toContain(STUDENT);
    expect(text).toContain("Certificat de réussite");
    expect(text).toContain(COURSE);
    expect(text).toContain("Escola Técnica São João");
    expect(text).toContain(cert.serial);
    expect(text).toContain("Coordenação acadêmica");
    // The font travels inside the file (subsets of Noto Sans), so any reader draws the same glyphs.
    const loaded = await PDFDocument.load(bytes);
    const embedded = loaded.context
      .enumerateIndirectObjects()
      .flatMap(([, object]) =>
        object instanceof PDFDict && object.get(PDFName.of("FontFile2")) !== undefined
          ? [String(object.get(PDFName.of("FontName")))]
          : [],
      );
    expect(embedded).toHaveLength(2);
    for (const name of embedded) expect(name).toMatch(/^\/NotoSans-(Regular|Bold)/);
  });

  it("is drawn off the event loop, in bounded time per page", async () => {
    const runs = 10;
    const started = performance.now();
    for (let i = 0; i < runs; i++) expect((await pdfOf(a, keyA, cert.id)).statusCode).toBe(200);
    const perPdf = (performance.now() - started) / runs;
    console.log(`certificate PDF: ${perPdf.toFixed(1)} ms each over ${runs} sequential requests`);
    expect(perPdf).toBeLessThan(2000);
  });

  it("is 404 to another tenant and for an unknown id", async () => {
    const foreign = await pdfOf(b, keyB, cert.id);
    const unknown = await pdfOf(b, keyB, randomUUID());
    expect(foreign.statusCode).toBe(404);
    expect(foreign.body).toBe(unknown.body);
  });
});

const page = (t: TestTenant, code: string, language = "en-US") =>
  callApi(h, t, {}, "GET", `/verify/${code}`, undefined, { prefix: "", language });
const json = (t: TestTenant, code: string) =>
  callApi(h, t, {}, "GET", `/api/verify/${code}`, undefined, AS_WRITTEN);

describe("the public verification", () => {
  it("resolves the code of the certificate's QR code, revealing only what the certificate shows", async () => {
    expect(new URL(cert.verificationUrl).pathname).toBe(`/verify/${cert.serial}`);
    const res = await json(a, cert.serial.toLowerCase().replaceAll("-", ""));
    expect(res.statusCode).toBe(200);
    expect(Object.keys(res.json()).sort()).toEqual([
      "courseTitle",
      "expiresAt",
      "issuedAt",
      "learningPathTitle",
      "serial",
      "status",
      "studentName",
    ]);
    expect(res.json()).toMatchObject({
      serial: cert.serial,
      status: "valid",
      studentName: STUDENT,
      courseTitle: COURSE,
      learningPathTitle: null,
    });
    const html = await page(a, cert.serial);
    expect(html.statusCode).toBe(200);
    expect(html.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(html.headers["content-security-policy"]).toContain("default-src 'none'");
    expect(html.body).toContain("<h1>Certificate verification</h1>");
    expect(html.body).toContain(STUDENT);
    expect(html.body).toContain('data-status="valid"');
    const french = await page(a, cert.serial, "fr-FR");
    expect(french.body).toContain("<h1>Vérification de certificat</h1>");
    expect(french.body).toContain("Valide");
  });

  it("is 404 for an unknown code, a malformed one, and on another institution's host, alike", async () => {
    const unknown = await json(a, "0000-0000-0000-0000");
    const malformed = await json(a, "not-a-code");
    const foreign = await json(b, cert.serial);
    for (const res of [unknown, malformed, foreign]) {
      expect(res.statusCode).toBe(404);
      expect(res.body).toBe(unknown.body);
      expect(res.body).not.toContain(STUDENT);
    }
    const html = await page(b, cert.serial);
    expect(html.statusCode).toBe(404);
    expect(html.body).toContain("No certificate has this code.");
    expect(html.body).not.toContain(STUDENT);
    // One indexed lookup either way: an unknown code costs what a known one does (no timing worth noting).
    const time = async (code: string) => {
      const start = performance.now();
      for (let i = 0; i < 20; i++) await json(a, code);
      return (performance.now() - start) / 20;
    };
    const known = await time(cert.serial);
    const missing = await time("ZZZZ-ZZZZ-ZZZZ-ZZZZ");
    console.log(`verification: ${known.toFixed(2)} ms known, ${missing.toFixed(2)} ms unknown`);
  });

  it("shows a revocation at once", async () => {
    const revoked = await call(a, keyA, "POST", `/certificates/${cert.id}/revoke`, { reason: "Fraude" });
    expect(revoked.statusCode).toBe(200);
    expect((await json(a, cert.serial)).json().status).toBe("revoked");
    const html = await page(a, cert.serial, "pt-BR");
    expect(html.body).toContain('data-status="revoked"');
    expect(html.body).toContain("Revogado");
    expect(html.body).not.toContain("Fraude");
  });
});
