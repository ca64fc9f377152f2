import { type Static, Type } from "typebox";
import { IsoDateTime, StringEnum, Uuid } from "../../platform/http/schemas.js";
import { CappedPageOf } from "../../platform/pagination/capped.js";
import { PageQuery } from "../../platform/pagination/pagination.js";

export const CERTIFICATE_STATUSES = ["valid", "revoked", "expired"] as const;
export type CertificateStatus = (typeof CERTIFICATE_STATUSES)[number];
export const CERTIFICATE_SOURCES = ["manual", "completion"] as const;
export type CertificateSource = (typeof CERTIFICATE_SOURCES)[number];

const NullableTime = Type.Union([IsoDateTime, Type.Null()]);
const Serial = Type.String({
  description: "The public verification code: 16 random characters in four groups (Crockford's base 32).",
  examples: ["7K3M-Q9XD-2HPA-W4TB"],
});

export const CERTIFICATE_EXAMPLE = {
  id: "2c4e6a8b-0d1f-4a3b-9c5d-7e9f1a3b5c7d",
  templateId: "0d1f2e3c-4b5a-4678-9abc-def012345678",
  userId: "9b2e7c1a-4f3d-4e8b-a6c5-1d2f3e4a5b6c",
  courseId: "6a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d" as string | null,
  enrollmentId: "5d0c2f4e-3b7a-4c11-9e52-0a7f6c1d2e31" as string | null,
  learningPathId: null as string | null,
  serial: "7K3M-Q9XD-2HPA-W4TB",
  status: "valid" as const,
  source: "completion" as const,
  studentName: "João Gonçalves",
  courseTitle: "Álgebra Linear" as string | null,
  learningPathTitle: null as string | null,
  issuedAt: "2026-03-10T15:00:00.000Z",
  expiresAt: "2028-03-09T15:00:00.000Z",
  revokedAt: null,
  revocationReason: null,
  verificationUrl: "https://acme.example.com/verify/7K3M-Q9XD-2HPA-W4TB",
  createdAt: "2026-03-10T15:00:00.000Z",
  updatedAt: "2026-03-10T15:00:00.000Z",
};

export const Certificate = Type.Object(
  {
    id: Uuid,
    templateId: Uuid,
    userId: Uuid,
    courseId: Type.Union([Uuid, Type.Null()], { description: "The course certified; null for a path's." }),
    enrollmentId: Type.Union([Uuid, Type.Null()]),
    learningPathId: Type.Union([Uuid, Type.Null()], {
      description:
        "The learning path certified (its enrollment is the path and the user); null for a course's.",
    }),
    serial: Serial,
    status: StringEnum(CERTIFICATE_STATUSES, {
      description: "`expired` once `expiresAt` has passed (the worker records it within the hour).",
    }),
    source: StringEnum(CERTIFICATE_SOURCES, {
      description:
        "`completion`: issued when the enrollment (in the course, or in the learning path) completed; `manual`: " +
        "`POST /certificates`.",
    }),
    studentName: Type.String({ description: "As it was at issue: the certificate shows what it showed." }),
    courseTitle: Type.Union([Type.String(), Type.Null()], {
      description: "As it was at issue; null for a path's.",
    }),
    learningPathTitle: Type.Union([Type.String(), Type.Null()], {
      description: "As it was at issue; null for a course's.",
    }),
    issuedAt: IsoDateTime,
    expiresAt: NullableTime,
    revokedAt: NullableTime,
    revocationReason: Type.Union([Type.String(), Type.Null()]),
    verificationUrl: Type.String({ description: "The public page that verifies the code, on this host." }),
    createdAt: IsoDateTime,
    updatedAt: IsoDateTime,
  },
  { additionalProperties: false, examples: [CERTIFICATE_EXAMPLE] },
);
export type CertificateRecord = Static<typeof Certificate>;

export const IssueCertificateBody = Type.Object(
  {
    templateId: Uuid,
    userId: Uuid,
    courseId: Type.Optional(Uuid),
    learningPathId: Type.Optional({
      ...Uuid,
      description: "Instead of `courseId`: a learning path's certificate.",
    }),
  },
  {
    additionalProperties: false,
    examples: [
      {
        templateId: CERTIFICATE_EXAMPLE.templateId,
        userId: CERTIFICATE_EXAMPLE.userId,
        courseId: CERTIFICATE_EXAMPLE.courseId,
      },
    ],
  },
);
export type IssueCertificateInput = Static<typeof IssueCertificateBody>;

export const RevokeCertificateBody = Type.Object(
  { reason: Type.String({ minLength: 1, maxLength: 1000 }) },
  { additionalProperties: false, examples: [{ reason: "Issued to the wrong student." }] },
);

export const ListCertificatesQuery = Type.Object(
  {
    ...PageQuery,
    userId: Type.Optional(Type.String({ format: "uuid" })),
    courseId: Type.Optional(Type.String({ format: "uuid" })),
    learningPathId: Type.Optional(Type.String({ format: "uuid" })),
    status: Type.Optional(StringEnum(CERTIFICATE_STATUSES)),
    issuedSince: Type.Optional(
      Type.String({ format: "date-time", description: "Only certificates issued at or after this time." }),
    ),
  },
  { additionalProperties: false },
);
export type ListCertificatesQueryType = Static<typeof ListCertificatesQuery>;

export const CertificatePage = CappedPageOf(Certificate);

export const CodeParams = Type.Object({ code: Type.String({ maxLength: 64 }) });

/** What the public verification reveals: only what the certificate itself shows. */
export const Verification = Type.Object(
  {
    serial: Serial,
    status: StringEnum(CERTIFICATE_STATUSES),
    studentName: Type.String(),
    courseTitle: Type.Union([Type.String(), Type.Null()]),
    learningPathTitle: Type.Union([Type.String(), Type.Null()]),
    issuedAt: IsoDateTime,
    expiresAt: NullableTime,
  },
  {
    additionalProperties: false,
    examples: [
      {
        serial: CERTIFICATE_EXAMPLE.serial,
        status: "valid",
        studentName: CERTIFICATE_EXAMPLE.studentName,
        courseTitle: CERTIFICATE_EXAMPLE.courseTitle,
        learningPathTitle: null,
        issuedAt: CERTIFICATE_EXAMPLE.issuedAt,
        expiresAt: CERTIFICATE_EXAMPLE.expiresAt,
      },
    ],
  },
);
export type VerificationRecord = Static<typeof Verification>;
