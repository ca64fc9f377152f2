// Draws a certificate: one A4 page of a fixed layout, with an embedded font that covers Portuguese, Spanish and
// French (Noto Sans, shipped by an npm package, never the machine's fonts) and a QR code of the verification page.
// Plain JavaScript: it runs on a worker thread of src/platform/workers (see pdf.ts), loaded with Node's import().
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import fontkit from "@pdf-lib/fontkit";
import { PDFDocument, rgb } from "pdf-lib";
import QRCode from "qrcode";

const require = createRequire(import.meta.url);

/** The font files of the package, read once per thread. */
const FONT_PACKAGE = "@expo-google-fonts/noto-sans";
const FONTS = { regular: "400Regular/NotoSans_400Regular.ttf", bold: "700Bold/NotoSans_700Bold.ttf" };

/** A file of the package, found where Node would look for the package (its exports may not list font files). */
function packageFile(file) {
  for (const dir of require.resolve.paths(FONT_PACKAGE) ?? []) {
    const path = join(dir, FONT_PACKAGE, file);
    if (existsSync(path)) return path;
  }
  throw new Error(`${FONT_PACKAGE}/${file} is not installed`);
}

/**
 * @pdf-lib/fontkit 1.1.1 writes a subset's `loca` in the short format (offsets halved) whenever it is small, but
 * copies each glyph's bytes unpadded: a font whose glyphs have odd lengths, as Google's builds of Noto Sans do,
 * comes out with every glyph after the first odd one misplaced (blank in PDF.js and Chrome, though the text still
 * extracts). Each glyph the subset takes is padded to an even length here, as the TrueType format recommends.
 * pdf-font.test.ts draws the embedded subset's glyphs back, so an upgrade that changes these internals fails there.
 */
function padGlyphs(font) {
  const createSubset = font.createSubset.bind(font);
  font.createSubset = () => {
    const subset = createSubset();
    const addGlyph = subset._addGlyph;
    if (typeof addGlyph !== "function") return subset;
    subset._addGlyph = function (gid) {
      const index = addGlyph.call(this, gid);
      const data = this.glyf[index];
      if (data.length % 2 === 1) {
        const even = new data.constructor(data.length + 1);
        even.set(data);
        this.glyf[index] = even;
        this.offset += 1;
      }
      return index;
    };
    return subset;
  };
  return font;
}

/**
 * fontkit as pdf-lib asks for it, keeping each parsed font: laying text out with a font of this size first builds
 * its substitution and positioning tables (about 200 ms), which a thread then pays once rather than per page.
 */
const parsed = new Map();
const cachingFontkit = {
  create(bytes, postscriptName) {
    let font = parsed.get(bytes);
    if (font === undefined) {
      font = padGlyphs(fontkit.create(bytes, postscriptName));
      parsed.set(bytes, font);
    }
    // fontkit keeps each glyph object with the characters it was first made for, and a subset makes the parts of a
    // composite glyph (the n of ñ, the u of ú) with none: kept across documents, a later page's n and u then map to
    // no text in its ToUnicode table (PDF.js read "Bruno" as "Br o"). Each document starts with no glyph objects;
    // the costly part kept, the layout tables, stays.
    font._glyphs = [];
    return font;
  },
};

let fontBytes;
function fonts() {
  fontBytes ??= {
    regular: readFileSync(packageFile(FONTS.regular)),
    bold: readFileSync(packageFile(FONTS.bold)),
  };
  return fontBytes;
}

const GREY = rgb(0.3, 0.32, 0.36);
const INK = rgb(0.1, 0.1, 0.12);
const ELLIPSIS = "…";

function colour(hex) {
  const n = Number.parseInt(hex.slice(1), 16);
  return rgb(((n >> 16) & 255) / 255, ((n >> 8) & 255) / 255, (n & 255) / 255);
}

/** Control characters would draw as nothing useful: spaces (new lines are kept by the callers that wrap). */
const clean = (text) => text.replace(/[^\P{Cc}\n]/gu, " ");

/**
 * More characters than a line of `width` can hold at `size`, whatever the glyphs (none is narrower than a fifth
 * of the size): text past this is cut before anything is measured, so measuring never grows with the input.
 */
const roomFor = (width, size) => Math.ceil(width / (size * 0.2));

/** Cuts `text` to fit `width`, ending with an ellipsis when anything was cut. */
function cutToWidth(whole, font, size, width) {
  const text = whole.slice(0, roomFor(width, size));
  if (text.length === whole.length && font.widthOfTextAtSize(text, size) <= width) return text;
  let lo = 0;
  let hi = text.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (font.widthOfTextAtSize(text.slice(0, mid) + ELLIPSIS, size) <= width) lo = mid;
    else hi = mid - 1;
  }
  return text.slice(0, lo).trimEnd() + ELLIPSIS;
}

/**
 * Words into at most `maxLines` lines of `width`; a word longer than a line is cut to fit, and the last line
 * ends with an ellipsis when text was left over. The work stops with the lines: it never grows with the text.
 */
function wrap(text, font, size, width, maxLines) {
  const lines = [];
  const room = maxLines * roomFor(width, size);
  let truncated = text.length > room;
  for (const paragraph of clean(text.slice(0, room)).split("\n")) {
    let line = "";
    for (const word of paragraph.split(/\s+/).filter(Boolean)) {
      const candidate = line === "" ? word : `${line} ${word}`;
      if (font.widthOfTextAtSize(candidate, size) <= width) {
        line = candidate;
        continue;
      }
      if (line !== "") lines.push(line);
      if (lines.length >= maxLines) {
        truncated = true;
        break;
      }
      line = cutToWidth(word, font, size, width);
    }
    if (lines.length >= maxLines) {
      truncated = true;
      break;
    }
    if (line !== "") lines.push(line);
  }
  if (lines.length > maxLines) {
    lines.length = maxLines;
    truncated = true;
  }
  if (truncated && lines.length > 0) {
    const last = lines.length - 1;
    lines[last] = cutToWidth(`${lines[last]}${ELLIPSIS}`, font, size, width);
  }
  return lines;
}

function centred(page, text, font, size, y, color, centre) {
  const width = font.widthOfTextAtSize(text, size);
  page.drawText(text, { x: centre - width / 2, y, size, font, color });
}

/** The largest size from `size` down to `min` at which `text` fits one line; cut to fit at `min`. */
function oneLine(whole, font, size, min, width) {
  const text = whole.slice(0, roomFor(width, min) + 1);
  let s = size;
  while (s > min && font.widthOfTextAtSize(text, s) > width) s -= 1;
  return { text: cutToWidth(text, font, s, width), size: s };
}

/** The QR code as one SVG path of its dark modules, one unit each. */
function qrPath(url) {
  const { modules } = QRCode.create(url, { errorCorrectionLevel: "M" });
  let path = "";
  for (let row = 0; row < modules.size; row++) {
    for (let col = 0; col < modules.size; col++) {
      if (modules.get(row, col)) path += `M${col} ${row}h1v1h-1z`;
    }
  }
  return { path, size: modules.size };
}

async function embedImage(doc, image) {
  if (image === null) return null;
  try {
    return image.type === "image/png" ? await doc.embedPng(image.bytes) : await doc.embedJpg(image.bytes);
  } catch {
    return null; // not an image the PDF format can carry after all: the page goes without it
  }
}

/** The certificate's PDF bytes (see pdf.ts for the input). */
export async function renderCertificate(input) {
  const doc = await PDFDocument.create();
  doc.registerFontkit(cachingFontkit);
  const bytes = fonts();
  const regular = await doc.embedFont(bytes.regular, { subset: true });
  const bold = await doc.embedFont(bytes.bold, { subset: true });
  const issued = new Date(input.issuedAt);
  doc.setTitle(clean(input.title).slice(0, 200));
  doc.setSubject(input.serial);
  doc.setCreator("Aula");
  doc.setProducer("Aula");
  doc.setCreationDate(issued);
  doc.setModificationDate(issued);

  const [W, H] = input.orientation === "portrait" ? [595.28, 841.89] : [841.89, 595.28];
  const page = doc.addPage([W, H]);
  const accent = colour(input.accentColor);
  const centre = W / 2;
  const textWidth = W - 160;

  const background = await embedImage(doc, input.background);
  if (background !== null) page.drawImage(background, { x: 0, y: 0, width: W, height: H });
  page.drawRectangle({ x: 20, y: 20, width: W - 40, height: H - 40, borderColor: accent, borderWidth: 3 });
  page.drawRectangle({ x: 28, y: 28, width: W - 56, height: H - 56, borderColor: accent, borderWidth: 0.75 });

  let y = H - 80;
  const institution = oneLine(clean(input.institution), regular, 13, 9, textWidth);
  centred(page, institution.text, regular, institution.size, y, GREY, centre);

  y -= 52;
  for (const line of wrap(input.title, bold, 28, textWidth, 2)) {
    centred(page, line, bold, 28, y, accent, centre);
    y -= 34;
  }

  y -= 26;
  const name = oneLine(clean(input.studentName), bold, 26, 14, textWidth);
  centred(page, name.text, bold, name.size, y, INK, centre);
  page.drawLine({
    start: { x: centre - 180, y: y - 10 },
    end: { x: centre + 180, y: y - 10 },
    thickness: 0.75,
    color: GREY,
  });

  y -= 44;
  const bodyLines = input.orientation === "portrait" ? 12 : 8;
  for (const line of wrap(input.body, regular, 13, textWidth, bodyLines)) {
    centred(page, line, regular, 13, y, INK, centre);
    y -= 19;
  }

  // Signature: the image above a line, the label under it.
  const lineY = 118;
  const signature = await embedImage(doc, input.signature);
  if (signature !== null) {
    const { width, height } = signature.scaleToFit(170, 56);
    page.drawImage(signature, { x: centre - width / 2, y: lineY + 4, width, height });
  }
  page.drawLine({
    start: { x: centre - 110, y: lineY },
    end: { x: centre + 110, y: lineY },
    thickness: 0.75,
    color: INK,
  });
  if (input.signatureLabel !== "") {
    const label = oneLine(clean(input.signatureLabel), regular, 10, 7, 260);
    centred(page, label.text, regular, label.size, lineY - 14, GREY, centre);
  }

  // The footer, clear of the QR code.
  const footerLines = wrap(input.footer, regular, 9, W - 320, 2);
  footerLines.forEach((line, i) => {
    centred(page, line, regular, 9, 62 - i * 12, GREY, centre);
  });

  // The QR code of the verification page, its code under it.
  const qr = qrPath(input.verificationUrl);
  const side = 78;
  const qrX = W - 48 - side;
  const qrY = 52;
  page.drawRectangle({ x: qrX - 6, y: qrY - 6, width: side + 12, height: side + 12, color: rgb(1, 1, 1) });
  page.drawSvgPath(qr.path, { x: qrX, y: qrY + side, scale: side / qr.size, color: INK });
  centred(page, input.serial, regular, 7.5, 40, GREY, qrX + side / 2);

  return doc.save();
}
