import { Type } from "typebox";
import { IsoDateTime, StringEnum, Uuid } from "../../platform/http/schemas.js";
import { defineEvent, SAMPLE_TIME } from "../events/define.js";
import {
  CERTIFICATE_EXAMPLE,
  CERTIFICATE_SOURCES,
  CERTIFICATE_STATUSES,
  type CertificateRecord,
} from "./schemas.js";

/** What every certificate event carries: the ids, what the certificate shows, and where it is verified. */
const About = {
  certificateId: Uuid,
  templateId: Uuid,
  userId: Type.String({ format: "uuid", description: "The certified student." }),
  courseId: Type.Union([Uuid, Type.Null()], { description: "Null for a learning path's certificate." }),
  enrollmentId: Type.Union([Uuid, Type.Null()]),
  learningPathId: Type.Union([Uuid, Type.Null()], { description: "Null for a course's certificate." }),
  serial: Type.String({ description: "The public verification code." }),
  status: StringEnum(CERTIFICATE_STATUSES),
  source: StringEnum(CERTIFICATE_SOURCES),
  studentName: Type.String(),
  courseTitle: Type.Union([Type.String(), Type.Null()]),
  learningPathTitle: Type.Union([Type.String(), Type.Null()]),
  issuedAt: IsoDateTime,
  expiresAt: Type.Union([IsoDateTime, Type.Null()]),
  verificationPath: Type.String({
    description: "The verification page's path (`/verify/<code>`) on the institution's host.",
  }),
};

/** The payload fields shared by every certificate event, from the certificate as the API reads it. */
export function certificateAbout(c: Omit<CertificateRecord, "verificationUrl">) {
  return {
    certificateId: c.id,
    templateId: c.templateId,
    userId: c.userId,
    courseId: c.courseId,
    enrollmentId: c.enrollmentId,
    learningPathId: c.learningPathId,
    serial: c.serial,
    status: c.status,
    source: c.source,
    studentName: c.studentName,
    courseTitle: c.courseTitle,
    learningPathTitle: c.learningPathTitle,
    issuedAt: c.issuedAt,
    expiresAt: c.expiresAt,
    verificationPath: `/verify/${c.serial}`,
  };
}

const SAMPLE = certificateAbout(CERTIFICATE_EXAMPLE);

export const certificateEvents = {
  certificate_issued: defineEvent({
    schemaVersion: 1,
    description:
      "A certificate was issued: by hand, or when an enrollment completed a course, or a learning path, that " +
      "names a template.",
    payload: Type.Object(About),
    sample: SAMPLE,
  }),
  certificate_revoked: defineEvent({
    schemaVersion: 1,
    description: "A certificate was revoked; its verification page says so from then on.",
    payload: Type.Object({ ...About, revokedAt: IsoDateTime, reason: Type.String() }),
    sample: { ...SAMPLE, status: "revoked", revokedAt: SAMPLE_TIME, reason: "Issued to the wrong student." },
  }),
  certificate_expiring: defineEvent({
    schemaVersion: 1,
    description: "A valid certificate expires within 30 days; once per certificate.",
    payload: Type.Object({ ...About, expiresAt: IsoDateTime, daysLeft: Type.Integer({ minimum: 0 }) }),
    sample: { ...SAMPLE, expiresAt: CERTIFICATE_EXAMPLE.expiresAt, daysLeft: 30 },
  }),
  certificate_expired: defineEvent({
    schemaVersion: 1,
    description: "A certificate reached its expiry and is no longer valid.",
    payload: Type.Object({ ...About, expiresAt: IsoDateTime }),
    sample: { ...SAMPLE, status: "expired", expiresAt: CERTIFICATE_EXAMPLE.expiresAt },
  }),
};
