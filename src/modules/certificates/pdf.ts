/**
 * A certificate as a PDF. Drawing is CPU work (laying out text with the embedded font, the QR code, images), so it
 * runs on a small pool of worker threads (src/platform/workers/pool.ts) rather than on the event loop, and is
 * bounded on every side: one page of a fixed layout, texts cut to the lines they have room for (pdf-task.js),
 * images only PNG or JPEG of at most 2 MB, two threads, 16 waiting (then 429), 10 s each at most.
 */
import type { Config } from "../../config/index.js";
import type { Executor } from "../../db/client.js";
import type { Tenant } from "../../platform/auth/types.js";
import { notFound } from "../../platform/errors/app-error.js";
import { TaskTimeoutError, WorkerPool } from "../../platform/workers/pool.js";
import { findRow } from "../media/service.js";
import { storesFor } from "../media/storage/index.js";
import { type CertificateReader, mayRead } from "./access.js";
import { fill, formatDate, type Layout } from "./layout.js";
import { findCertificate } from "./repo.js";
import { findTemplate } from "./template-repo.js";
import { IMAGE_TYPES, MAX_IMAGE_BYTES } from "./template-service.js";

const pool = new WorkerPool({
  module: new URL("./pdf-task.js", import.meta.url),
  size: 2,
  maxQueue: 16,
  timeoutMs: 10_000,
});

export interface PdfDeps {
  db: Executor;
  config: Config;
}

/** What the task draws: every text already filled and capped, images as bytes. */
export interface PdfInput {
  orientation: string;
  accentColor: string;
  institution: string;
  title: string;
  studentName: string;
  body: string;
  footer: string;
  signatureLabel: string;
  serial: string;
  verificationUrl: string;
  issuedAt: string;
  background: { type: string; bytes: Uint8Array } | null;
  signature: { type: string; bytes: Uint8Array } | null;
}

/** The bytes of a ready PNG or JPEG of the tenant, or null (deleted since, or not drawable): the page goes without. */
async function imageOf(deps: PdfDeps, tenantId: string, id: string | null): Promise<PdfInput["background"]> {
  if (id === null) return null;
  const row = await findRow(deps.db, tenantId, id);
  if (row === undefined || row.status !== "ready" || !IMAGE_TYPES.has(row.contentType)) return null;
  if (row.sizeBytes > MAX_IMAGE_BYTES) return null;
  const stream = await storesFor(deps.config.media).of(row.storage).read(row.storageKey);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += (chunk as Buffer).length;
    if (size > MAX_IMAGE_BYTES) {
      stream.destroy();
      return null;
    }
    chunks.push(chunk as Buffer);
  }
  return { type: row.contentType, bytes: new Uint8Array(Buffer.concat(chunks)) };
}

export async function renderPdf(
  deps: PdfDeps,
  tenant: Tenant,
  id: string,
  origin: string,
  reader: CertificateReader = { kind: "staff" },
): Promise<{ serial: string; bytes: Buffer }> {
  const certificate = await findCertificate(deps.db, tenant.id, id);
  if (certificate === undefined || !mayRead(reader, certificate.userId)) throw notFound();
  const template = await findTemplate(deps.db, tenant.id, certificate.templateId);
  if (template === undefined) throw notFound();
  const layout = template.layout as Layout;
  const locale = layout.locale ?? "pt-BR";
  const values = {
    "student.name": certificate.studentName,
    // A path's certificate fills `{{course.title}}` with the path's title: the layout names what was completed.
    "course.title": certificate.courseTitle ?? certificate.learningPathTitle ?? "",
    issuedAt: formatDate(certificate.issuedAt, locale),
    expiresAt: formatDate(certificate.expiresAt, locale),
    serial: certificate.serial,
    "institution.name": tenant.name,
  };
  const [background, signature] = await Promise.all([
    imageOf(deps, tenant.id, template.backgroundMediaId),
    imageOf(deps, tenant.id, template.signatureMediaId),
  ]);
  const input: PdfInput = {
    orientation: template.orientation,
    accentColor: layout.accentColor ?? "#1d4ed8",
    institution: tenant.name,
    title: fill(layout.title, values),
    studentName: certificate.studentName,
    body: fill(layout.body, values),
    footer: fill(layout.footer ?? "", values),
    signatureLabel: fill(layout.signatureLabel ?? "", values),
    serial: certificate.serial,
    verificationUrl: `${origin}/verify/${certificate.serial}`,
    issuedAt: certificate.issuedAt,
    background,
    signature,
  };
  try {
    const bytes = await pool.run<Uint8Array>("renderCertificate", input);
    return {
      serial: certificate.serial,
      bytes: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
    };
  } catch (error) {
    // A page that takes this long is an image the library struggles with: the server's failure, logged as one.
    if (error instanceof TaskTimeoutError) throw new Error("certificate PDF timed out", { cause: error });
    throw error;
  }
}
