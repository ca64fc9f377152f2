import { type Static, type TSchema, Type } from "typebox";
import { LOCALES } from "../../locales/index.js";
import { StringEnum } from "../../platform/http/schemas.js";
import { SENDER_NAME_DESCRIPTION, SENDER_NAME_PATTERN } from "./sender-name.js";

/**
 * The institution's settings (RESOURCES 4.19), one TypeBox schema per namespace. From these the service builds
 * the GET answer (every key, defaults filled in), the PATCH body (RFC 7386: every key optional, `null` resets it)
 * and `GET /settings/schema` (the JSON Schema clients render forms from), so the three cannot disagree.
 */

export const DATE_FORMATS = ["DD/MM/YYYY", "MM/DD/YYYY", "YYYY-MM-DD", "DD.MM.YYYY"] as const;
export const INACTIVITY_BASES = ["access", "activity"] as const;

/** A lowercase DNS name of two labels or more (`escola.edu.br`), without a leading `@` or a wildcard. */
const DOMAIN_PATTERN =
  "^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$";

export const GradeBand = Type.Object(
  {
    letter: Type.String({
      minLength: 1,
      maxLength: 10,
      description: "What a percent at or above `minPercent` shows.",
    }),
    minPercent: Type.Number({ minimum: 0, maximum: 100 }),
  },
  { additionalProperties: false },
);

export const DEFAULT_GRADING_SCALE = [
  { letter: "A", minPercent: 90 },
  { letter: "B", minPercent: 80 },
  { letter: "C", minPercent: 70 },
  { letter: "D", minPercent: 60 },
  { letter: "F", minPercent: 0 },
];

export const General = Type.Object(
  {
    locale: StringEnum(LOCALES, {
      default: "pt-BR",
      description:
        "The institution's language (e-mail, calendars); the same value as the profile's `defaultLocale`.",
    }),
    timezone: Type.String({
      minLength: 1,
      maxLength: 64,
      default: "America/Sao_Paulo",
      description:
        "An IANA time zone, stored in its canonical spelling; the same value as the profile's `timezone`.",
    }),
    dateFormat: StringEnum(DATE_FORMATS, { default: "DD/MM/YYYY" }),
  },
  { additionalProperties: false },
);

export const Learning = Type.Object(
  {
    gradingScale: Type.Array(GradeBand, {
      minItems: 1,
      maxItems: 20,
      default: DEFAULT_GRADING_SCALE,
      description:
        "Letter bands from the highest `minPercent` down; strictly descending, the last one at 0. A percent " +
        "gets the letter of the first band whose `minPercent` it reaches (quiz attempts show it as `letterGrade`).",
    }),
  },
  { additionalProperties: false },
);

export const Security = Type.Object(
  {
    allowedEmailDomains: Type.Array(Type.String({ maxLength: 253, pattern: DOMAIN_PATTERN }), {
      maxItems: 100,
      uniqueItems: true,
      default: [],
      description:
        "When not empty, new users and invitations (and e-mail changes) must use an address at one of these " +
        "domains exactly (`escola.edu.br` does not admit `aluno.escola.edu.br`); existing users are kept. " +
        "Lowercase DNS names.",
    }),
    sessionTimeoutMinutes: Type.Union([Type.Integer({ minimum: 15, maximum: 1440 }), Type.Null()], {
      default: null,
      description:
        "A signed-in session ends after this many minutes without activity (no refresh of its cookies). The " +
        "access token never outlives it, and a refresh token unused this long is refused, including those " +
        "issued before the setting changed. null: sessions last as the platform configures them.",
    }),
  },
  { additionalProperties: false },
);

export const Notifications = Type.Object(
  {
    senderName: Type.Union(
      [Type.String({ minLength: 1, maxLength: 100, pattern: SENDER_NAME_PATTERN }), Type.Null()],
      { default: null, description: SENDER_NAME_DESCRIPTION },
    ),
    replyTo: Type.Union([Type.String({ format: "email", maxLength: 254 }), Type.Null()], {
      default: null,
      description: "The Reply-To address of the institution's e-mail; null sends none.",
    }),
  },
  { additionalProperties: false },
);

export const Inactivity = Type.Object(
  {
    userInactiveDays: Type.Integer({
      minimum: 1,
      maximum: 365,
      default: 30,
      description:
        "Days without activity before `user_inactive`, for automations whose condition names no " +
        "`event.inactiveDays` threshold of its own.",
    }),
    enrollmentInactiveDays: Type.Integer({
      minimum: 1,
      maximum: 365,
      default: 14,
      description: "Days an active enrollment goes without learning activity before `enrollment_inactive`.",
    }),
    basis: StringEnum(INACTIVITY_BASES, {
      default: "access",
      description:
        "What counts as a user's activity for `user_inactive`: `access` (signing in) or `activity` (learning " +
        "in any enrollment: completions, or sign-up if none).",
    }),
  },
  { additionalProperties: false },
);

export const NAMESPACES = {
  general: General,
  learning: Learning,
  security: Security,
  notifications: Notifications,
  inactivity: Inactivity,
} as const;

export type Namespace = keyof typeof NAMESPACES;
export const NAMESPACE_NAMES = Object.keys(NAMESPACES) as Namespace[];

export const Settings = Type.Object(
  {
    general: General,
    learning: Learning,
    security: Security,
    notifications: Notifications,
    inactivity: Inactivity,
  },
  { additionalProperties: false },
);
export type SettingsRecord = Static<typeof Settings>;

/** The defaults of every namespace, read from the schema's own `default`s. */
export const DEFAULT_SETTINGS: SettingsRecord = Object.fromEntries(
  NAMESPACE_NAMES.map((ns) => [
    ns,
    Object.fromEntries(
      Object.entries(NAMESPACES[ns].properties).map(([key, schema]) => [
        key,
        structuredClone((schema as { default: unknown }).default),
      ]),
    ),
  ]),
) as SettingsRecord;

/** `schema` or null: the type list gains `null` (and an enum gains null), so a wrong value gets one clear detail. */
function orNull(schema: TSchema): TSchema {
  const s = schema as Record<string, unknown>;
  const { default: _default, ...rest } = s;
  if (Array.isArray(rest.anyOf)) return Type.Unsafe(rest);
  const types = [rest.type].flat().filter((t) => t !== undefined);
  const out: Record<string, unknown> = { ...rest, type: [...types, "null"] };
  if (Array.isArray(rest.enum)) out.enum = [...rest.enum, null];
  return Type.Unsafe(out);
}

/** A namespace of the merge patch: every key optional and nullable; the namespace itself may be null (all reset). */
function patchOf(ns: (typeof NAMESPACES)[Namespace]): TSchema {
  const properties = Object.fromEntries(
    Object.entries(ns.properties).map(([key, schema]) => [key, Type.Optional(orNull(schema as TSchema))]),
  );
  return Type.Optional(orNull(Type.Object(properties, { additionalProperties: false })));
}

type NullablePartial<T> = { [K in keyof T]?: T[K] | null };
export type SettingsPatch = { [N in keyof SettingsRecord]?: NullablePartial<SettingsRecord[N]> | null };

export const SettingsPatchBody = Type.Unsafe<SettingsPatch>(
  Type.Object(
    Object.fromEntries(NAMESPACE_NAMES.map((ns) => [ns, patchOf(NAMESPACES[ns])])) as Record<string, TSchema>,
    {
      additionalProperties: false,
      minProperties: 1,
      description:
        "A JSON merge patch (RFC 7386) of the settings: the keys given replace the current values, `null` resets " +
        "a key (or a whole namespace) to its default, arrays are replaced whole. Unknown namespaces and keys are " +
        "refused with details naming their path.",
      examples: [
        {
          general: { timezone: "America/Recife" },
          security: { allowedEmailDomains: ["escola.edu.br"], sessionTimeoutMinutes: 60 },
          inactivity: { userInactiveDays: null },
        },
      ],
    },
  ),
);

const EXAMPLE: SettingsRecord = {
  ...DEFAULT_SETTINGS,
  general: { locale: "pt-BR", timezone: "America/Recife", dateFormat: "DD/MM/YYYY" },
  security: { allowedEmailDomains: ["escola.edu.br"], sessionTimeoutMinutes: 60 },
};

export const SettingsResponse = Type.Unsafe<SettingsRecord>({ ...Settings, examples: [EXAMPLE] });

/** `GET /settings/schema`: a JSON Schema document (2020-12), so its shape is open. */
export const JsonSchemaDocument = Type.Unsafe<Record<string, unknown>>({
  type: "object",
  additionalProperties: true,
  description:
    "JSON Schema (draft 2020-12) of the settings document, with every key's default and constraints.",
  examples: [{ $schema: "https://json-schema.org/draft/2020-12/schema", type: "object", properties: {} }],
});
