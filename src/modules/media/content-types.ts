/**
 * What may be uploaded, per kind: the declared content type decides the kind, and at completion the bytes must
 * be that type by their magic bytes (`file-type`), never by the file's name. Text formats have no magic bytes, so
 * they get an explicit rule instead: valid UTF-8 without NUL and nothing `file-type` recognises, plus the
 * `WEBVTT` signature for captions.
 */
export const MEDIA_KINDS = ["video", "audio", "image", "document", "archive"] as const;
export type MediaKind = (typeof MEDIA_KINDS)[number];

interface Rule {
  kind: MediaKind;
  /** The MIME types `file-type` answers for this format (some formats have more than one name). */
  sniffed?: readonly string[];
  /** Text formats: checked by `textRule` instead. */
  text?: "vtt" | "plain";
}

const OOXML = "application/vnd.openxmlformats-officedocument";

export const ALLOWED: Readonly<Record<string, Rule>> = {
  "video/mp4": { kind: "video", sniffed: ["video/mp4"] },
  "video/webm": { kind: "video", sniffed: ["video/webm"] },
  "video/quicktime": { kind: "video", sniffed: ["video/quicktime"] },
  "video/x-matroska": { kind: "video", sniffed: ["video/x-matroska", "video/matroska"] },
  "audio/mpeg": { kind: "audio", sniffed: ["audio/mpeg"] },
  "audio/mp4": { kind: "audio", sniffed: ["audio/mp4", "audio/x-m4a", "audio/m4a", "video/mp4"] },
  "audio/ogg": { kind: "audio", sniffed: ["audio/ogg", "audio/opus"] },
  "audio/wav": { kind: "audio", sniffed: ["audio/wav", "audio/x-wav", "audio/vnd.wave"] },
  "audio/flac": { kind: "audio", sniffed: ["audio/flac", "audio/x-flac"] },
  "image/png": { kind: "image", sniffed: ["image/png"] },
  "image/jpeg": { kind: "image", sniffed: ["image/jpeg"] },
  "image/gif": { kind: "image", sniffed: ["image/gif"] },
  "image/webp": { kind: "image", sniffed: ["image/webp"] },
  "application/pdf": { kind: "document", sniffed: ["application/pdf"] },
  [`${OOXML}.wordprocessingml.document`]: {
    kind: "document",
    sniffed: [`${OOXML}.wordprocessingml.document`],
  },
  [`${OOXML}.spreadsheetml.sheet`]: { kind: "document", sniffed: [`${OOXML}.spreadsheetml.sheet`] },
  [`${OOXML}.presentationml.presentation`]: {
    kind: "document",
    sniffed: [`${OOXML}.presentationml.presentation`],
  },
  "application/vnd.oasis.opendocument.text": {
    kind: "document",
    sniffed: ["application/vnd.oasis.opendocument.text"],
  },
  "text/vtt": { kind: "document", text: "vtt" },
  "text/csv": { kind: "document", text: "plain" },
  "text/plain": { kind: "document", text: "plain" },
  "application/zip": { kind: "archive", sniffed: ["application/zip"] },
  "application/gzip": { kind: "archive", sniffed: ["application/gzip", "application/x-gzip"] },
  "application/x-7z-compressed": { kind: "archive", sniffed: ["application/x-7z-compressed"] },
};

export const ALLOWED_CONTENT_TYPES = Object.keys(ALLOWED);

export function kindOf(contentType: string): MediaKind | undefined {
  return ALLOWED[contentType]?.kind;
}

/** Why content does not match its declared type, or undefined when it does. */
export type Mismatch = { error: "content_type_mismatch"; detected: string | null };

/** How many leading bytes the text rule reads: enough to judge the encoding and find the signature. */
export const TEXT_SAMPLE_BYTES = 64 * 1024;

function isUtf8WithoutNul(sample: Buffer, complete: boolean): boolean {
  // A sample may cut a multi-byte character in two: drop up to 3 trailing bytes of an unfinished sequence.
  let end = sample.length;
  if (!complete) {
    let back = 0;
    while (back < 3 && end - back - 1 >= 0 && ((sample[end - back - 1] as number) & 0xc0) === 0x80) back++;
    const lead = sample[end - back - 1];
    if (lead !== undefined && lead >= 0xc0) end = end - back - 1;
  }
  const view = sample.subarray(0, end);
  if (view.includes(0)) return false;
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(view);
    return true;
  } catch {
    return false;
  }
}

/**
 * Checks the content against the declared type: `sniffed` is what `file-type` recognised in the leading bytes
 * (undefined when nothing), `sample` the first `TEXT_SAMPLE_BYTES` (or all of a smaller file).
 */
export function checkContent(
  contentType: string,
  sniffed: string | undefined,
  sample: Buffer,
  complete: boolean,
): Mismatch | undefined {
  const rule = ALLOWED[contentType];
  if (rule === undefined) return { error: "content_type_mismatch", detected: sniffed ?? null };
  if (rule.text !== undefined) {
    // `file-type` recognises some text formats (WebVTT); anything else it recognises is not text.
    if (sniffed !== undefined && sniffed !== contentType) {
      return { error: "content_type_mismatch", detected: sniffed };
    }
    const bom = sample[0] === 0xef && sample[1] === 0xbb && sample[2] === 0xbf ? 3 : 0;
    const text = sample.subarray(bom);
    if (!isUtf8WithoutNul(text, complete)) return { error: "content_type_mismatch", detected: null };
    // RFC-less but universal: a WebVTT file starts with "WEBVTT" followed by a space, tab or line break.
    if (rule.text === "vtt" && !/^WEBVTT(?:[ \t\r\n]|$)/.test(text.subarray(0, 16).toString("latin1"))) {
      return { error: "content_type_mismatch", detected: null };
    }
    return undefined;
  }
  if (sniffed === undefined || !(rule.sniffed ?? []).includes(sniffed)) {
    return { error: "content_type_mismatch", detected: sniffed ?? null };
  }
  return undefined;
}
