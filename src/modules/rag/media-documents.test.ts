import { randomBytes } from "node:crypto";
import { PDFDocument, PDFHexString, PDFName, StandardFonts } from "pdf-lib";
import { beforeAll, describe, expect, it } from "vitest";
import { callerFor, fieldsOf, useApi } from "../../test-support/api.js";
import { makeKey, UNLIMITED_KEY } from "../../test-support/harness.js";
import { mediaDir, uploadLocal } from "../../test-support/media-client.js";
import { png } from "../../test-support/media-files.js";
import { eventsOf, runJobs } from "../../test-support/reports.js";
import { kbIndexJobHandler } from "./indexing.js";
import { MEDIA_LIMITS } from "./media-source.js";

const { h, tenants } = useApi({ tenants: 2, env: { MEDIA_DIR: mediaDir() } });
const [a, b] = tenants;
let keyA: string;
let keyB: string;
const call = callerFor(h, () => ({ tenant: a, credential: keyA }));
const index = () => runJobs(h, a, { kb_index: kbIndexJobHandler });
const SCOPES = ["ai:read", "ai:write", "media:read", "media:write"];

beforeAll(async () => {
  keyA = await makeKey(h, a, SCOPES, UNLIMITED_KEY);
  keyB = await makeKey(h, b, SCOPES, UNLIMITED_KEY);
});

/** A ready file of tenant A (or B), uploaded through the media routes. */
async function upload(contentType: string, bytes: Buffer, filename?: string, tenant = a, key = keyA) {
  const { media, completed } = await uploadLocal(h, tenant, key, { contentType, bytes, filename });
  expect(completed?.json().status, completed?.body).toBe("ready");
  return media.id as string;
}

/** A PDF with one text per page, in Helvetica, wrapped to the page (PDF.js skips text outside it). */
async function pdf(pages: string[]): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const text of pages)
    doc.addPage().drawText(text, { x: 50, y: 700, size: 12, font, maxWidth: 500, lineHeight: 14 });
  return Buffer.from(await doc.save());
}

/** A PDF locked by a password (the standard handler's check values are not the empty password's). */
async function encryptedPdf(): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  doc.addPage().drawText("segredo", { x: 50, y: 700, size: 12, font });
  const hex = (n: number) => PDFHexString.of("ab".repeat(n));
  const encrypt = doc.context.obj({ Filter: "Standard", V: 1, R: 2, O: hex(32), U: hex(32), P: -4 });
  doc.context.trailerInfo.Encrypt = doc.context.register(encrypt);
  doc.context.trailerInfo.ID = doc.context.obj([hex(16), hex(16)]);
  return Buffer.from(await doc.save({ useObjectStreams: false }));
}

/** One page whose content stream is `size` bytes of text-showing operators (uncompressed). */
async function hugeStreamPdf(size: number): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage();
  const name = page.node.newFontDictionary(font.name, font.ref);
  const line = `BT /${name.asString().slice(1)} 8 Tf 10 10 Td (lorem ipsum dolor sit amet consectetur) Tj ET\n`;
  const contents = doc.context.stream(line.repeat(Math.ceil(size / line.length)));
  page.node.set(PDFName.of("Contents"), doc.context.register(contents));
  return Buffer.from(await doc.save({ useObjectStreams: false }));
}

async function kb() {
  const res = await call("POST", "/rag/knowledge-bases", { name: "Arquivos" });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as string;
}

async function add(kbId: string, body: Record<string, unknown>) {
  return call("POST", `/rag/knowledge-bases/${kbId}/documents`, body);
}

async function documentOf(kbId: string, id: string) {
  const list = await call("GET", `/rag/knowledge-bases/${kbId}/documents?perPage=100`);
  return list.json().data.find((d: { id: string }) => d.id === id);
}

/**
 * Runs the jobs, answering how long it took, the longest the event loop was held meanwhile, and the statuses the
 * document showed through the API while they ran.
 */
async function timedIndex(kbId: string, docId: string) {
  const seen = new Set<string>();
  let done = false;
  const watching = (async () => {
    while (!done) {
      seen.add((await documentOf(kbId, docId)).status);
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  let last = performance.now();
  let maxLagMs = 0;
  const tick = setInterval(() => {
    const now = performance.now();
    maxLagMs = Math.max(maxLagMs, now - last - 10);
    last = now;
  }, 10);
  const started = performance.now();
  try {
    await index();
  } finally {
    clearInterval(tick);
    done = true;
  }
  const ms = performance.now() - started;
  await watching;
  return { ms, maxLagMs, seen };
}

describe("media documents", () => {
  it("indexes a PDF's pages in the worker and cites the file and the page", async () => {
    const kbId = await kb();
    const mediaId = await upload(
      "application/pdf",
      await pdf(["Photosynthesis turns light into sugar.", "Mitochondria release energy from glucose."]),
      "biology.pdf",
    );
    const added = await add(kbId, { sourceType: "media", sourceId: mediaId, language: "en" });
    expect(added.statusCode, added.body).toBe(202);
    const [doc] = added.json().data;
    expect(doc).toMatchObject({
      sourceType: "media",
      sourceId: mediaId,
      title: "biology.pdf",
      status: "pending",
    });
    await index();
    expect(await documentOf(kbId, doc.id)).toMatchObject({ status: "ready", error: null, chunkCount: 1 });
    const [event] = (await eventsOf(h, a, "kb_document_indexed")).filter(
      (e) => (e.data as { documentId: string }).documentId === doc.id,
    );
    expect(event?.data).toMatchObject({ sourceType: "media", sourceId: mediaId });

    const search = async (query: string) => {
      const res = await call("POST", `/rag/knowledge-bases/${kbId}/search`, { query });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data;
    };
    const [mito] = await search("mitochondria");
    expect(mito.text).toContain("Mitochondria release energy");
    // The document is one chunk: it starts on page 1 (a chunk cites the page it starts on).
    expect(mito.citation).toMatchObject({ title: "biology.pdf", lessonId: null, mediaId, page: 1 });

    // The same file again is the same document, and nothing is queued.
    const again = await add(kbId, { sourceType: "media", sourceId: mediaId.toUpperCase() });
    expect(again.json()).toEqual({ data: [expect.objectContaining({ id: doc.id })], jobId: null });
  });

  it("cites the page each chunk starts on", async () => {
    const small = await call("POST", "/rag/knowledge-bases", {
      name: "Páginas",
      chunking: { strategy: "fixed", maxChunkTokens: 100, overlapTokens: 0 },
    });
    const kbId = small.json().id as string;
    const words = (w: string) => Array.from({ length: 100 }, () => w).join(" ");
    const mediaId = await upload("application/pdf", await pdf([words("alpha"), words("omega")]));
    expect((await add(kbId, { sourceType: "media", sourceId: mediaId, language: "en" })).statusCode).toBe(
      202,
    );
    await index();
    const found = await call("POST", `/rag/knowledge-bases/${kbId}/search`, { query: "omega" });
    expect(found.json().data[0].citation).toMatchObject({ mediaId, page: 2 });
  });

  it("indexes plain text as UTF-8, invalid bytes replaced", async () => {
    const kbId = await kb();
    // The upload checks the first 64 KiB are UTF-8; a bad byte past them reaches the indexer.
    const bytes = Buffer.concat([
      Buffer.from(`Revolução Francesa começou em 1789. ${"texto ".repeat(12_000)}`),
      Buffer.from([0xff, 0xfe]),
      Buffer.from(" fim do arquivo"),
    ]);
    const mediaId = await upload("text/plain", bytes, "notas.txt");
    const added = await add(kbId, { sourceType: "media", sourceId: mediaId, title: "Notas" });
    expect(added.statusCode, added.body).toBe(202);
    const docId = added.json().data[0].id as string;
    await index();
    expect(await documentOf(kbId, docId)).toMatchObject({ status: "ready", title: "Notas" });
    const found = await call("POST", `/rag/knowledge-bases/${kbId}/search`, { query: "revolucao 1789" });
    expect(found.json().data[0].citation).toMatchObject({ mediaId, page: null, start: 0 });
    const end = await call("POST", `/rag/knowledge-bases/${kbId}/search`, { query: "fim arquivo" });
    expect(end.json().data[0].text).toContain("\uFFFD\uFFFD fim do arquivo");
  });

  it("refuses files without text, of another institution, unknown, too large, or with text", async () => {
    const kbId = await kb();
    const image = await upload("image/png", png());
    const theirs = await upload("text/plain", Buffer.from("segredo de B"), undefined, b, keyB);
    const big = await upload(
      "application/pdf",
      Buffer.concat([Buffer.from("%PDF-1.7\n"), Buffer.alloc(MEDIA_LIMITS.maxBytes)]),
    );
    const cases: [Record<string, unknown>, string][] = [
      [{ sourceId: image }, "field.media_not_indexable"],
      [{ sourceId: theirs }, "field.unknown_media"],
      [{ sourceId: "6a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d" }, "field.unknown_media"],
      [{ sourceId: big }, "field.media_too_large"],
    ];
    for (const [body, key] of cases) {
      const res = await add(kbId, { sourceType: "media", ...body });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().details, key).toEqual([expect.objectContaining({ field: "sourceId" })]);
      expect(JSON.stringify(res.json()), key).toContain(String(body.sourceId));
    }
    const both = await add(kbId, { sourceType: "media", sourceId: image, text: "x" });
    expect(both.statusCode).toBe(400);
    expect(fieldsOf(both)).toEqual(["text"]);
    const none = await add(kbId, { sourceType: "media" });
    expect(fieldsOf(none)).toEqual(["sourceId"]);
    expect((await call("GET", `/rag/knowledge-bases/${kbId}`)).json().documentCount).toBe(0);
  });

  it("fails a file deleted before indexing, with kb_document_failed", async () => {
    const kbId = await kb();
    const mediaId = await upload("text/plain", Buffer.from("efêmero"));
    const docId = (await add(kbId, { sourceType: "media", sourceId: mediaId })).json().data[0].id;
    expect((await call("DELETE", `/media/${mediaId}`)).statusCode).toBe(204);
    await index();
    expect((await documentOf(kbId, docId)).error).toMatch(/^media_deleted: /);
    const failed = (await eventsOf(h, a, "kb_document_failed")).filter(
      (e) => (e.data as { documentId: string }).documentId === docId,
    );
    expect(failed).toHaveLength(1);
    expect((await call("GET", `/rag/knowledge-bases/${kbId}`)).json()).toMatchObject({ status: "error" });
  });

  it("stops serving a file's chunks once the file is deleted, before any reindex", async () => {
    const kbId = await kb();
    const mediaId = await upload("text/plain", Buffer.from("Um texto efêmero sobre fotossíntese."));
    await add(kbId, { sourceType: "media", sourceId: mediaId });
    await index();
    const search = () => call("POST", `/rag/knowledge-bases/${kbId}/search`, { query: "fotossíntese" });
    expect((await search()).json().data).toHaveLength(1);
    expect((await call("DELETE", `/media/${mediaId}`)).statusCode).toBe(204);
    const after = await search();
    expect(after.statusCode).toBe(200);
    expect(after.json().data).toEqual([]);
    // The delete queued the document, whose indexing then fails it and drops its chunks from the counts.
    expect((await call("GET", `/rag/knowledge-bases/${kbId}`)).json().status).toBe("indexing");
    await index();
    const [doc] = (await call("GET", `/rag/knowledge-bases/${kbId}/documents`)).json().data;
    expect(doc).toMatchObject({ status: "failed", chunkCount: 0 });
    expect((await call("GET", `/rag/knowledge-bases/${kbId}`)).json()).toMatchObject({
      status: "error",
      chunkCount: 0,
      documentCount: 1,
    });
  });
});

describe("hostile media", () => {
  it("fails a garbage file named PDF, an encrypted one and one of too many pages, cleanly", async () => {
    const kbId = await kb();
    const garbage = await upload(
      "application/pdf",
      Buffer.concat([Buffer.from("%PDF-1.7\n"), randomBytes(200_000)]),
    );
    const pages = await upload(
      "application/pdf",
      await pdf(Array.from({ length: MEDIA_LIMITS.maxPages + 1 }, (_, i) => `p${i}`)),
    );
    const locked = await upload("application/pdf", await encryptedPdf());
    const fine = await upload("application/pdf", await pdf(["Depois dos arquivos ruins, um bom."]));
    const added = await add(kbId, {
      documents: [garbage, locked, pages, fine].map((sourceId) => ({ sourceType: "media", sourceId })),
    });
    const [one, two, three, four] = added.json().data;
    await index();
    expect((await documentOf(kbId, one.id)).error).toMatch(/^pdf_unreadable: /);
    expect((await documentOf(kbId, two.id)).error).toMatch(/^pdf_encrypted: /);
    expect((await documentOf(kbId, three.id)).error).toMatch(/^too_many_pages: /);
    // The extraction thread (and the job) carried on after them.
    expect(await documentOf(kbId, four.id)).toMatchObject({ status: "ready", error: null });
    expect((await call("GET", `/rag/knowledge-bases/${kbId}`)).json()).toMatchObject({
      status: "error",
      documentCount: 4,
    });
  });

  it("ends a 10 MB PDF within the time budget without holding the event loop, processing meanwhile", async () => {
    const kbId = await kb();
    const bytes = await hugeStreamPdf(MEDIA_LIMITS.maxBytes - 200_000);
    expect(bytes.length).toBeLessThanOrEqual(MEDIA_LIMITS.maxBytes);
    const mediaId = await upload("application/pdf", bytes);
    const docId = (await add(kbId, { sourceType: "media", sourceId: mediaId })).json().data[0].id;
    const { ms, maxLagMs, seen } = await timedIndex(kbId, docId);
    expect(ms).toBeLessThan(MEDIA_LIMITS.timeoutMs + 10_000);
    expect(maxLagMs).toBeLessThan(1_000);
    // Extraction runs on its thread for seconds: the API meanwhile answers, and shows the document processing.
    expect(seen).toContain("processing");
    const doc = await documentOf(kbId, docId);
    expect(doc.status).toBe("failed");
    expect(doc.error).toMatch(/^(text_too_long|extraction_timeout): /);
  }, 60_000);

  it("indexes a file of one 2 MB word within budget, and answers a 2,000-character query", async () => {
    const kbId = await kb();
    const mediaId = await upload("text/plain", Buffer.from("a".repeat(2_000_000)));
    const docId = (await add(kbId, { sourceType: "media", sourceId: mediaId })).json().data[0].id;
    const { ms } = await timedIndex(kbId, docId);
    expect(ms).toBeLessThan(30_000);
    expect(await documentOf(kbId, docId)).toMatchObject({ status: "ready", chunkCount: 99 });
    const res = await call("POST", `/rag/knowledge-bases/${kbId}/search`, { query: "a ".repeat(1_000) });
    expect(res.statusCode, res.body).toBe(200);
    const over = await call("POST", `/rag/knowledge-bases/${kbId}/search`, { query: "a".repeat(2_001) });
    expect(over.statusCode).toBe(400);
  }, 60_000);
});
