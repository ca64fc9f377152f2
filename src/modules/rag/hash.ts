import { createHash } from "node:crypto";

/** The content hash of a document's text: SHA-256, hex. */
export const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");
