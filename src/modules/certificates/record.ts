import type * as repo from "./repo.js";
import type { CertificateRecord } from "./schemas.js";

/** The status a reader sees: a valid certificate past its expiry is expired even before the worker records it. */
export function effectiveStatus(c: repo.StoredCertificate, now = Date.now()): CertificateRecord["status"] {
  return c.status === "valid" && c.expiresAt !== null && Date.parse(c.expiresAt) <= now
    ? "expired"
    : c.status;
}

export function toRecord(c: repo.StoredCertificate, origin: string): CertificateRecord {
  return { ...c, status: effectiveStatus(c), verificationUrl: `${origin}/verify/${c.serial}` };
}
