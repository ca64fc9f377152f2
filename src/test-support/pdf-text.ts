import { getDocument } from "pdfjs-dist/legacy/build/pdf.mjs";

/** A PDF turned back into text by PDF.js (its first page, whitespace folded), and how many pages it has. */
export async function pdfText(bytes: Buffer): Promise<{ pages: number; text: string }> {
  const doc = await getDocument({ data: new Uint8Array(bytes), isEvalSupported: false }).promise;
  const content = await (await doc.getPage(1)).getTextContent();
  const pages = doc.numPages;
  await doc.destroy();
  const text = content.items
    .map((item) => ("str" in item ? item.str : ""))
    .join(" ")
    .replace(/\s+/g, " ");
  return { pages, text };
}
