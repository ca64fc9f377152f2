// The text of a knowledge base's media document: a PDF's pages through PDF.js (its legacy build, the one made for
// Node) or a text file decoded as UTF-8. Plain JavaScript: it runs on a worker thread of src/platform/workers (see
// media-source.ts), loaded with Node's own import(), so a slow or hostile file holds that thread, never the event
// loop; the pool ends a task past its time. Every failure is answered as a value with a code, never thrown, so
// the document fails with that code whatever PDF.js throws.
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

const require = createRequire(import.meta.url);
let pdfjs;

/** PDF.js's own files for the standard fonts and character maps, read from disk (never fetched). */
function pdfjsData() {
  const root = dirname(require.resolve("pdfjs-dist/package.json"));
  return { cMapUrl: `${join(root, "cmaps")}/`, standardFontDataUrl: `${join(root, "standard_fonts")}/` };
}

/** What PDF.js's errors mean for the document. */
function pdfError(error) {
  const name = error?.name ?? "";
  if (name === "PasswordException") return "pdf_encrypted";
  return "pdf_unreadable";
}

/**
 * A PDF's text, page after page (a line break between lines, a blank line between pages), and where each page
 * starts in it. Answers `{ error }` past `maxPages` pages or `maxChars` characters, or for a file PDF.js cannot read.
 * @param {Uint8Array} bytes
 * @param {{ maxPages: number, maxChars: number }} limits
 */
export async function extractPdf(bytes, limits) {
  pdfjs ??= await import("pdfjs-dist/legacy/build/pdf.mjs");
  let doc;
  try {
    doc = await pdfjs.getDocument({
      data: bytes,
      ...pdfjsData(),
      isEvalSupported: false,
      disableFontFace: true,
      useSystemFonts: false,
      isOffscreenCanvasSupported: false,
      verbosity: 0,
    }).promise;
  } catch (error) {
    return { error: pdfError(error) };
  }
  try {
    if (doc.numPages > limits.maxPages) return { error: "too_many_pages", pages: doc.numPages };
    let text = "";
    const pageStarts = [];
    for (let n = 1; n <= doc.numPages; n += 1) {
      const page = await doc.getPage(n);
      const content = await page.getTextContent({ disableNormalization: false });
      page.cleanup();
      let pageText = "";
      for (const item of content.items) {
        if (!("str" in item)) continue;
        pageText += item.str;
        if (item.hasEOL) pageText += "\n";
        if (text.length + 2 + pageText.length > limits.maxChars) return { error: "text_too_long" };
      }
      if (text !== "") text += "\n\n";
      pageStarts.push(text.length);
      text += pageText;
    }
    return { text, pageStarts };
  } catch (error) {
    return { error: pdfError(error) };
  } finally {
    await doc.destroy().catch(() => {});
  }
}

/**
 * A text file as UTF-8 (a byte order mark dropped, invalid bytes replaced by U+FFFD), at most `maxChars`.
 * @param {Uint8Array} bytes
 * @param {{ maxChars: number }} limits
 */
export function decodeText(bytes, limits) {
  const text = new TextDecoder("utf-8", { fatal: false, ignoreBOM: false }).decode(bytes);
  if (text.length > limits.maxChars) return { error: "text_too_long" };
  return { text, pageStarts: null };
}
