import { and, desc, eq, gte, type SQL, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import { parentValueCounter, readCounter } from "../../db/counters.js";
import { type Bindable, runPageQuery } from "../../db/page-query.js";
import { certificates } from "../../db/schema/index.js";
import { type CappedTotal, countCapped, exactTotal } from "../../platform/pagination/capped.js";
import type { PageWindow } from "../../platform/pagination/pagination.js";
import type { CertificateRecord, CertificateSource, CertificateStatus } from "./schemas.js";

/** A certificate as stored: the record less its URL, which depends on the host that answers. */
export type StoredCertificate = Omit<CertificateRecord, "verificationUrl">;

const columns = {
  id: certificates.id,
  templateId: certificates.templateId,
  userId: certificates.userId,
  courseId: certificates.courseId,
  enrollmentId: certificates.enrollmentId,
  learningPathId: certificates.learningPathId,
  serial: certificates.serial,
  status: certificates.status,
  source: certificates.source,
  studentName: certificates.studentName,
  courseTitle: certificates.courseTitle,
  learningPathTitle: certificates.learningPathTitle,
  issuedAt: certificates.issuedAt,
  expiresAt: certificates.expiresAt,
  revokedAt: certificates.revokedAt,
  revocationReason: certificates.revocationReason,
  createdAt: certificates.createdAt,
  updatedAt: certificates.updatedAt,
};

export interface CertificateFilter {
  userId?: string;
  courseId?: string;
  learningPathId?: string;
  status?: CertificateStatus;
  issuedSince?: string;
}

function where(tenantId: Bindable, f: { [K in keyof CertificateFilter]?: Bindable }): SQL {
  return and(
    eq(certificates.tenantId, tenantId),
    f.userId === undefined ? undefined : eq(certificates.userId, f.userId),
    f.courseId === undefined ? undefined : eq(certificates.courseId, f.courseId),
    f.learningPathId === undefined ? undefined : eq(certificates.learningPathId, f.learningPathId),
    f.status === undefined ? undefined : eq(certificates.status, f.status),
    f.issuedSince === undefined ? undefined : gte(certificates.issuedAt, sql`${f.issuedSince}::timestamptz`),
  ) as SQL;
}

const NEWEST_FIRST = [desc(certificates.issuedAt), desc(certificates.id)];

/**
 * Newest first. Each filter shape walks its own index backwards (migration 0051): the tenant's, the status's, a
 * user's, a course's, a course's by status (and a path's, a path's by status: migration 0055); `issuedSince`
 * bounds the walk of any of them.
 */
export async function listCertificates(
  db: Executor,
  tenantId: string,
  filter: CertificateFilter,
  window: PageWindow,
): Promise<StoredCertificate[]> {
  const rows = await runPageQuery(db, "certificates", tenantId, { ...filter }, window, (p, name) =>
    db
      .select(columns)
      .from(certificates)
      .where(where(p.tenantId, p))
      .orderBy(...NEWEST_FIRST)
      .limit(p.limit)
      .offset(p.offset)
      .prepare(name),
  );
  return rows as StoredCertificate[];
}

/**
 * Exact from the counters for the tenant, a status, a user, a course or a path, and any one of those with a
 * status; otherwise (`issuedSince`, two of user, course and path together) counted up to the cap.
 */
export async function countCertificates(
  db: Executor,
  tenantId: string,
  filter: CertificateFilter,
): Promise<CappedTotal> {
  const counter = counterOf(filter);
  if (counter !== undefined) return exactTotal(await readCounter(db, tenantId, counter));
  return countCapped(db, certificates, where(tenantId, filter), NEWEST_FIRST);
}

function counterOf(filter: CertificateFilter): string | undefined {
  const { userId, courseId, learningPathId, status, issuedSince } = filter;
  const parents = [
    courseId === undefined ? undefined : { column: "course_id", id: courseId.toLowerCase() },
    learningPathId === undefined
      ? undefined
      : { column: "learning_path_id", id: learningPathId.toLowerCase() },
    userId === undefined ? undefined : { column: "user_id", id: userId.toLowerCase() },
  ].filter((p) => p !== undefined);
  if (issuedSince !== undefined || parents.length > 1) return undefined;
  const parent = parents[0];
  if (parent === undefined) return status === undefined ? "certificates" : `certificates:status:${status}`;
  if (status === undefined) return `certificates:${parent.column}:${parent.id}`;
  return parentValueCounter("certificates", parent, "status", status);
}

export async function findCertificate(
  db: Executor,
  tenantId: string,
  id: string,
  lock?: "no key update",
): Promise<StoredCertificate | undefined> {
  const query = db
    .select(columns)
    .from(certificates)
    .where(and(eq(certificates.tenantId, tenantId), eq(certificates.id, id)));
  const rows = lock === undefined ? await query : await query.for(lock);
  return rows[0] as StoredCertificate | undefined;
}

/** The certificate a verification code names on this tenant's host (certificates_serial_key). */
export async function findBySerial(
  db: Executor,
  tenantId: string,
  serial: string,
): Promise<StoredCertificate | undefined> {
  const rows = await db
    .select(columns)
    .from(certificates)
    .where(and(eq(certificates.tenantId, tenantId), eq(certificates.serial, serial)));
  return rows[0] as StoredCertificate | undefined;
}

/** A course's certificate (course, enrollment, title) or a path's (path, title): exactly one of them. */
export type CertificateSubject =
  | { courseId: string; enrollmentId: string; courseTitle: string }
  | { learningPathId: string; learningPathTitle: string };

export type NewCertificate = CertificateSubject & {
  templateId: string;
  userId: string;
  serial: string;
  source: CertificateSource;
  studentName: string;
  expiresAfterDays: number | null;
};

/**
 * Inserts a valid certificate, or nothing when the enrollment (a course's, or the path and user) holds a valid one
 * already (certificates_valid_enrollment_key, certificates_valid_path_key): the caller answers 409, or issues
 * nothing on completion.
 */
export async function insertCertificate(
  db: Executor,
  tenantId: string,
  row: NewCertificate,
): Promise<StoredCertificate | undefined> {
  const { expiresAfterDays, ...values } = row;
  const rows = await db
    .insert(certificates)
    .values({
      tenantId,
      ...values,
      expiresAt: expiresAfterDays === null ? null : sql`now() + ${expiresAfterDays}::int * interval '1 day'`,
    })
    .onConflictDoNothing()
    .returning(columns);
  return rows[0] as StoredCertificate | undefined;
}

export async function revokeCertificate(
  db: Executor,
  tenantId: string,
  id: string,
  reason: string,
): Promise<StoredCertificate | undefined> {
  const rows = await db
    .update(certificates)
    .set({ status: "revoked", revokedAt: sql`now()`, revocationReason: reason, updatedAt: sql`now()` })
    .where(and(eq(certificates.tenantId, tenantId), eq(certificates.id, id)))
    .returning(columns);
  return rows[0] as StoredCertificate | undefined;
}
