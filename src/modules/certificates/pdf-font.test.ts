import fontkit from "@pdf-lib/fontkit";
import { decodePDFRawStream, PDFDict, PDFDocument, PDFName, PDFRawStream } from "pdf-lib";
import { getDocument } from "pdfjs-dist/legacy/build/pdf.mjs";
import { describe, expect, it } from "vitest";
import { renderCertificate } from "./pdf-task.js";

const INPUT = {
  orientation: "landscape",
  accentColor: "#1d4ed8",
  institution: "Escola Técnica São João",
  title: "Certificado de conclusão",
  studentName: "João Gonçalves",
  body: "Certificamos que João Gonçalves concluiu Álgebra Linear — Été à Cádiz. Œuvre, façade, niño, señor, ação.",
  footer: "Código 7K3M-Q9XD-2HPA-W4TB",
  signatureLabel: "Coordenação acadêmica",
  serial: "7K3M-Q9XD-2HPA-W4TB",
  verificationUrl: "http://acme.localhost:3000/verify/7K3M-Q9XD-2HPA-W4TB",
  issuedAt: "2026-03-10T15:00:00.000Z",
  background: null,
  signature: null,
};

/** The embedded font programs of a PDF, each parsed back with fontkit. */
async function embeddedFonts(bytes: Uint8Array) {
  const doc = await PDFDocument.load(bytes);
  const fonts = [];
  for (const [, object] of doc.context.enumerateIndirectObjects()) {
    if (!(object instanceof PDFDict)) continue;
    const file = object.lookup(PDFName.of("FontFile2"));
    if (!(file instanceof PDFRawStream)) continue;
    fonts.push(fontkit.create(Buffer.from(decodePDFRawStream(file).decode())));
  }
  return fonts;
}

describe("the certificate's drawing (the worker thread's task, called directly)", () => {
  it("maps every glyph to its text on every page, whatever the thread drew before", async () => {
    // First in this file, so nothing drew a bold n or u on this thread before. Drawing ñ and ú makes a subset take
    // n and u as parts of composite glyphs, without their characters; a page drawn after it on the same thread must
    // still map its own n and u to text. The title is bold too: one without n or u, so the name draws them first.
    const input = { ...INPUT, title: "Certificado" };
    await renderCertificate({ ...input, studentName: "Carla Núñez" });
    const bytes = await renderCertificate({ ...input, studentName: "Bruno Çelik" });
    const doc = await getDocument({ data: new Uint8Array(bytes), isEvalSupported: false }).promise;
    const content = await (await doc.getPage(1)).getTextContent();
    await doc.destroy();
    const text = content.items.map((item) => ("str" in item ? item.str : "")).join(" ");
    expect(text).toContain("Bruno Çelik");
  });

  it("embeds subsets of Noto Sans whose every glyph has its outline (no misplaced glyph data)", async () => {
    const fonts = await embeddedFonts(await renderCertificate(INPUT));
    expect(fonts).toHaveLength(2);
    for (const font of fonts) {
      expect(font.numGlyphs).toBeGreaterThan(20);
      const empty = [];
      for (let id = 0; id < font.numGlyphs; id++) {
        const glyph = font.getGlyph(id);
        if (glyph.path.toSVG() === "") empty.push(id);
      }
      // Only the space has no outline.
      expect(empty.length, `glyphs without an outline: ${empty.join(", ")}`).toBeLessThanOrEqual(1);
    }
  });

  it("stays bounded whatever the texts' length: one page, cut to its lines", async () => {
    const long = "Pneumoultramicroscopicossilicovulcanoconiótico ".repeat(90).slice(0, 4000);
    const started = performance.now();
    const bytes = await renderCertificate({
      ...INPUT,
      title: long,
      body: long,
      studentName: long,
      footer: long,
    });
    const elapsed = performance.now() - started;
    const doc = await PDFDocument.load(bytes);
    expect(doc.getPageCount()).toBe(1);
    expect(elapsed).toBeLessThan(2000);
  });

  it("takes tens of milliseconds per page on a warm thread", async () => {
    await renderCertificate(INPUT);
    const runs = 10;
    const started = performance.now();
    for (let i = 0; i < runs; i++) await renderCertificate(INPUT);
    const each = (performance.now() - started) / runs;
    console.log(`certificate PDF on a warm thread: ${each.toFixed(1)} ms each`);
    expect(each).toBeLessThan(1000);
  });
});
