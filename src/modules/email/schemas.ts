import { type Static, Type } from "typebox";
import { LOCALES } from "../../locales/index.js";
import { IsoDateTime, StringEnum } from "../../platform/http/schemas.js";
import { PageOf, PageQuery } from "../../platform/pagination/pagination.js";

export const MAX_RECIPIENTS = 1000;

export const Locale = StringEnum(LOCALES, { description: "One of the contract's four languages." });
export const Subject = Type.String({ minLength: 1, maxLength: 200, pattern: "^[^\\r\\n]*$" });
export const BodyHtml = Type.String({
  minLength: 1,
  maxLength: 200_000,
  description: "Sanitised when stored.",
});
export const BodyText = Type.String({ minLength: 1, maxLength: 200_000 });

export const KeyParams = Type.Object(
  {
    key: Type.String({
      maxLength: 100,
      description:
        "A built-in key (`invite`, `invite_reminder`, `enrollment`, `password_reset`, `certificate`, " +
        "`report_ready`) or the institution's own `custom.<name>`.",
    }),
  },
  { additionalProperties: false },
);

const SAMPLE_HTML =
  '<p>Olá, {{name}}!</p>\n<p>Você foi convidado(a) para participar de {{institutionName}}.</p>\n<p><a href="{{acceptUrl}}">Aceitar o convite</a></p>';

export const Template = Type.Object(
  {
    key: Type.String(),
    locale: Locale,
    subject: Type.String(),
    bodyHtml: Type.String(),
    bodyText: Type.String(),
    variables: Type.Array(Type.String(), {
      description: "The placeholders (`{{name}}`) this key is rendered with.",
    }),
    customized: Type.Boolean({ description: "The institution's own version, not the built-in one." }),
    updatedAt: Type.Union([IsoDateTime, Type.Null()], {
      description: "When the institution last changed it.",
    }),
  },
  {
    additionalProperties: false,
    examples: [
      {
        key: "invite",
        locale: "pt-BR",
        subject: "Convite para {{institutionName}}",
        bodyHtml: SAMPLE_HTML,
        bodyText: "Olá, {{name}}!\n\nAceitar o convite: {{acceptUrl}}\n",
        variables: ["name", "email", "institutionName", "acceptUrl", "expiresAt", "role"],
        customized: false,
        updatedAt: null,
      },
    ],
  },
);
export type TemplateRecord = Static<typeof Template>;

export const TemplatePage = PageOf(Template);

export const ListTemplatesQuery = Type.Object(
  {
    ...PageQuery,
    locale: Type.Optional(Locale),
    customized: Type.Optional(
      Type.Boolean({ description: "Only the institution's own versions (or only defaults)." }),
    ),
  },
  { additionalProperties: false },
);
export type ListTemplatesQueryType = Static<typeof ListTemplatesQuery>;

export const GetTemplateQuery = Type.Object(
  { locale: Type.Optional(Locale) },
  { additionalProperties: false },
);

export const TemplateSet = Type.Object(
  {
    key: Type.String(),
    variables: Type.Array(Type.String()),
    locales: Type.Array(Template, { description: "One entry per locale the key exists in." }),
  },
  {
    additionalProperties: false,
    examples: [
      {
        key: "invite",
        variables: ["name", "email", "institutionName", "acceptUrl", "expiresAt", "role"],
        locales: [
          {
            key: "invite",
            locale: "pt-BR",
            subject: "Convite para {{institutionName}}",
            bodyHtml: SAMPLE_HTML,
            bodyText: "Olá, {{name}}!\n\nAceitar o convite: {{acceptUrl}}\n",
            variables: ["name", "email", "institutionName", "acceptUrl", "expiresAt", "role"],
            customized: false,
            updatedAt: null,
          },
        ],
      },
    ],
  },
);

export const PutTemplateBody = Type.Object(
  { locale: Locale, subject: Subject, bodyHtml: BodyHtml, bodyText: BodyText },
  {
    additionalProperties: false,
    examples: [
      {
        locale: "pt-BR",
        subject: "Bem-vindo(a) a {{institutionName}}",
        bodyHtml: '<p>Olá, {{name}}!</p><p><a href="{{acceptUrl}}">Entrar</a></p>',
        bodyText: "Olá, {{name}}! Entrar: {{acceptUrl}}",
      },
    ],
  },
);
export type PutTemplateInput = Static<typeof PutTemplateBody>;

export const CreateTemplateBody = Type.Object(
  {
    key: Type.String({
      maxLength: 71,
      description: "`custom.` and 1–64 of `a-z 0-9 _ -`, starting with a letter or digit.",
    }),
    locale: Locale,
    subject: Subject,
    bodyHtml: BodyHtml,
    bodyText: BodyText,
  },
  {
    additionalProperties: false,
    examples: [
      {
        key: "custom.weekly_digest",
        locale: "pt-BR",
        subject: "Resumo da semana {{week}}",
        bodyHtml: "<p>Olá, {{name}}! Semana {{week}}.</p>",
        bodyText: "Olá, {{name}}! Semana {{week}}.",
      },
    ],
  },
);

export const DeleteTemplateQuery = Type.Object(
  {
    locale: Type.Optional(
      StringEnum(LOCALES, { description: "Only this locale; every locale when absent." }),
    ),
  },
  { additionalProperties: false },
);

export const VariableValues = Type.Record(
  Type.String({ pattern: "^[A-Za-z_][A-Za-z0-9_]{0,63}$" }),
  Type.String({ maxLength: 2000 }),
  {
    maxProperties: 50,
    description: "Values for the template's placeholders; HTML-escaped in the HTML part.",
  },
);

export const PreviewBody = Type.Object(
  {
    locale: Locale,
    variables: Type.Optional(VariableValues),
    subject: Type.Optional(Subject),
    bodyHtml: Type.Optional(BodyHtml),
    bodyText: Type.Optional(BodyText),
  },
  {
    additionalProperties: false,
    examples: [
      {
        locale: "en-US",
        variables: { name: "Ana", acceptUrl: "https://acme.example.com/invites/accept?token=…" },
      },
    ],
  },
);
export type PreviewInput = Static<typeof PreviewBody>;

export const Rendered = Type.Object(
  { subject: Type.String(), bodyHtml: Type.String(), bodyText: Type.String() },
  {
    additionalProperties: false,
    examples: [
      { subject: "Convite para Colégio Aurora", bodyHtml: "<p>Olá, Ana!</p>", bodyText: "Olá, Ana!\n" },
    ],
  },
);
