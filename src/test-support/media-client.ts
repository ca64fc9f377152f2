import { randomUUID } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bearer, type Harness, json, type TestTenant } from "./harness.js";

/** A fresh folder for a harness's local media store (`MEDIA_DIR`), so a test can look at what is on disk. */
export function mediaDir(): string {
  return mkdtempSync(join(tmpdir(), "aula-media-test-"));
}

/** Path and query of an absolute URL the API answered (inject takes paths). */
export function pathOf(url: string): string {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
}

/** The three steps over `app.inject` against the local store: start, send the bytes, complete. */
export async function uploadLocal(
  h: Harness,
  tenant: TestTenant,
  key: string,
  file: {
    filename?: string;
    contentType: string;
    bytes: Buffer;
    declaredSize?: number;
    checksumSha256?: string;
  },
  extra: Record<string, unknown> = {},
) {
  const headers = { host: tenant.host, "accept-language": "en-US", ...bearer(key) };
  const started = await h.inject({
    method: "POST",
    url: "/api/institution/media/uploads",
    headers: { ...headers, ...json },
    payload: {
      filename: file.filename ?? `file-${randomUUID()}`,
      contentType: file.contentType,
      sizeBytes: file.declaredSize ?? file.bytes.length,
      ...(file.checksumSha256 === undefined ? {} : { checksumSha256: file.checksumSha256 }),
      ...extra,
    },
  });
  if (started.statusCode !== 201) throw new Error(`upload start: ${started.statusCode} ${started.body}`);
  const { media, upload } = started.json();
  const sent = await h.inject({
    method: "PUT",
    url: pathOf(upload.url),
    headers: { host: tenant.host, ...upload.headers },
    payload: file.bytes,
  });
  const completed =
    sent.statusCode === 204
      ? await h.inject({ method: "POST", url: `/api/institution/media/${media.id}/complete`, headers })
      : undefined;
  return { media, upload, sent, completed };
}
