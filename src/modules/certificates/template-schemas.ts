import { type Static, Type } from "typebox";
import { IsoDateTime, StringEnum, Uuid } from "../../platform/http/schemas.js";
import { CappedPageOf } from "../../platform/pagination/capped.js";
import { PageQuery } from "../../platform/pagination/pagination.js";
import { PLACEHOLDERS } from "./layout.js";

export const TEMPLATE_STATUSES = ["active", "archived"] as const;
export type TemplateStatus = (typeof TEMPLATE_STATUSES)[number];
export const ORIENTATIONS = ["landscape", "portrait"] as const;
export const LAYOUT_LOCALES = ["pt-BR", "en-US", "es-ES", "fr-FR"] as const;
/** A template names at most this many courses (one request's link set; a course names one template). */
export const MAX_TEMPLATE_COURSES = 100;

const placeholders = PLACEHOLDERS.map((p) => `\`{{${p}}}\``).join(", ");

export const Layout = Type.Object(
  {
    title: Type.String({
      minLength: 1,
      maxLength: 200,
      description: `The heading. May use ${placeholders}.`,
    }),
    body: Type.String({
      maxLength: 2000,
      description: `The text under the student's name, wrapped to at most 8 lines. May use ${placeholders}.`,
    }),
    footer: Type.Optional(
      Type.String({ maxLength: 300, description: "A line at the bottom; placeholders too." }),
    ),
    signatureLabel: Type.Optional(
      Type.String({
        maxLength: 120,
        description: "Under the signature line (e.g. the signer's name and role).",
      }),
    ),
    locale: Type.Optional(
      StringEnum(LAYOUT_LOCALES, { default: "pt-BR", description: "The language dates are printed in." }),
    ),
    accentColor: Type.Optional(
      Type.String({ pattern: "^#[0-9a-fA-F]{6}$", description: "`#RRGGBB` of the heading and the frame." }),
    ),
  },
  { additionalProperties: false },
);

const LAYOUT_EXAMPLE = {
  title: "Certificado de conclusão",
  body: "Certificamos que {{student.name}} concluiu o curso {{course.title}} em {{issuedAt}}.",
  footer: "Código de verificação: {{serial}}",
  signatureLabel: "Coordenação acadêmica",
  locale: "pt-BR" as const,
  accentColor: "#1d4ed8",
};

const TEMPLATE_EXAMPLE = {
  id: "0d1f2e3c-4b5a-4678-9abc-def012345678",
  name: "Conclusão de curso",
  layout: LAYOUT_EXAMPLE,
  orientation: "landscape" as const,
  backgroundMediaId: null,
  signatureMediaId: "1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
  expiresAfterDays: 730,
  status: "active" as const,
  courseIds: ["6a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d"],
  learningPathIds: [] as string[],
  createdAt: "2026-03-01T12:00:00.000Z",
  updatedAt: "2026-03-01T12:00:00.000Z",
};

const NullableUuid = Type.Union([Uuid, Type.Null()]);
const ImageId = (what: string) =>
  Type.Union([Uuid, Type.Null()], {
    description: `A ready PNG or JPEG image of the institution's media (at most 2 MB): ${what}.`,
  });
const ExpiresAfterDays = Type.Union([Type.Integer({ minimum: 1, maximum: 36_500 }), Type.Null()], {
  description: "Certificates issued from this template expire this many days after issue; null: never.",
});
const CourseIds = Type.Array(Uuid, {
  maxItems: MAX_TEMPLATE_COURSES,
  uniqueItems: true,
  description:
    "The courses whose completion issues this template's certificate (a course names one template: 409 when " +
    "another names it). Replaces the whole set.",
});

const LearningPathIds = Type.Array(Uuid, {
  maxItems: MAX_TEMPLATE_COURSES,
  uniqueItems: true,
  description:
    "The learning paths whose completion issues this template's certificate (a path names one template: 409 " +
    "when another names it). Replaces the whole set.",
});

export const CertificateTemplate = Type.Object(
  {
    id: Uuid,
    name: Type.String(),
    layout: Layout,
    orientation: StringEnum(ORIENTATIONS),
    backgroundMediaId: NullableUuid,
    signatureMediaId: NullableUuid,
    expiresAfterDays: Type.Union([Type.Integer(), Type.Null()]),
    status: StringEnum(TEMPLATE_STATUSES),
    courseIds: Type.Array(Uuid),
    learningPathIds: Type.Array(Uuid),
    createdAt: IsoDateTime,
    updatedAt: IsoDateTime,
  },
  { additionalProperties: false, examples: [TEMPLATE_EXAMPLE] },
);
export type TemplateRecord = Static<typeof CertificateTemplate>;

export const CreateTemplateBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    layout: Layout,
    orientation: Type.Optional(StringEnum(ORIENTATIONS, { default: "landscape" })),
    backgroundMediaId: Type.Optional(ImageId("drawn under the whole page")),
    signatureMediaId: Type.Optional(ImageId("drawn above the signature line")),
    expiresAfterDays: Type.Optional(ExpiresAfterDays),
    status: Type.Optional(StringEnum(TEMPLATE_STATUSES, { default: "active" })),
    courseIds: Type.Optional(CourseIds),
    learningPathIds: Type.Optional(LearningPathIds),
  },
  {
    additionalProperties: false,
    examples: [{ name: "Conclusão de curso", layout: LAYOUT_EXAMPLE, expiresAfterDays: 730 }],
  },
);
export type CreateTemplateInput = Static<typeof CreateTemplateBody>;

export const UpdateTemplateBody = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    layout: Type.Optional(Layout),
    orientation: Type.Optional(StringEnum(ORIENTATIONS)),
    backgroundMediaId: Type.Optional(ImageId("drawn under the whole page")),
    signatureMediaId: Type.Optional(ImageId("drawn above the signature line")),
    expiresAfterDays: Type.Optional(ExpiresAfterDays),
    status: Type.Optional(StringEnum(TEMPLATE_STATUSES)),
    courseIds: Type.Optional(CourseIds),
    learningPathIds: Type.Optional(LearningPathIds),
  },
  { additionalProperties: false, minProperties: 1, examples: [{ status: "archived" }] },
);
export type UpdateTemplateInput = Static<typeof UpdateTemplateBody>;

export const ListTemplatesQuery = Type.Object(
  { ...PageQuery, status: Type.Optional(StringEnum(TEMPLATE_STATUSES)) },
  { additionalProperties: false },
);
export type ListTemplatesQueryType = Static<typeof ListTemplatesQuery>;

export const TemplatePage = CappedPageOf(CertificateTemplate);
