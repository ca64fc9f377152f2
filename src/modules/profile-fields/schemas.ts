import { type Static, Type } from "typebox";
import { IsoDateTime, StringEnum, Uuid } from "../../platform/http/schemas.js";
import { CappedPageOf } from "../../platform/pagination/capped.js";
import { PageQuery } from "../../platform/pagination/pagination.js";

export const FIELD_TYPES = [
  "text",
  "textarea",
  "number",
  "date",
  "select",
  "multiselect",
  "checkbox",
  "url",
  "phone",
  "email",
] as const;
export type FieldType = (typeof FIELD_TYPES)[number];
export const FIELD_STATUSES = ["active", "archived"] as const;
/** Definitions per institution, archived ones included (creations count under the tenant's lock). */
export const MAX_PROFILE_FIELDS = 100;
export const KEY_PATTERN = "^[a-z][a-z0-9_]{1,49}$";

const Key = Type.String({
  pattern: KEY_PATTERN,
  description: "Lowercase letters, digits and `_`, starting with a letter; 2–50 characters. Never changes.",
});
const Label = Type.String({ minLength: 1, maxLength: 100 });
const Option = Type.Object(
  {
    value: Type.String({ minLength: 1, maxLength: 100 }),
    label: Type.String({ minLength: 1, maxLength: 100 }),
  },
  { additionalProperties: false },
);
const Options = Type.Array(Option, {
  minItems: 1,
  maxItems: 200,
  description:
    "The choices of `select` and `multiselect` fields (required for them, refused for other types).",
});
const Validation = Type.Object(
  {
    min: Type.Optional(
      Type.Number({ description: "`number`: the smallest value; `multiselect`: fewest choices." }),
    ),
    max: Type.Optional(
      Type.Number({ description: "`number`: the largest value; `multiselect`: most choices." }),
    ),
    minLength: Type.Optional(Type.Integer({ minimum: 0, maximum: 2000 })),
    maxLength: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 2000,
        description: "Text types; at most 2000 (the default, 200 for text).",
      }),
    ),
    pattern: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description:
          "A regular expression the whole value must match (`^`/`$` optional); `text`, `textarea` and `phone` only. " +
          "JavaScript syntax with the `u` flag and no other flag (case-sensitive), run by a linear-time engine " +
          "(RE2's semantics), so no pattern can make a value slow to check. Accepted: literals, `.`, classes " +
          "`[…]`, `\\d \\w \\s \\b` and negations (`\\d \\w \\b` ASCII, `\\s` Unicode white space), " +
          "`\\p{L}`, `\\p{Lu}`, `\\p{Nd}`… (short category names) and scripts (`\\p{Greek}` or " +
          "`\\p{Script=Greek}`), `\\uXXXX`, `\\u{…}`, groups, named groups `(?<name>…)`, `|`, `* + ? {n,m}` " +
          "(greedy or lazy, counts up to 1000). Refused with `validation_failed` on `validation.pattern`: " +
          "backreferences (`\\1`, `\\k<name>`), lookahead and lookbehind, flag groups (`(?i:…)`), long property " +
          "names (`\\p{Letter}`), `\\S` inside a class, and patterns too large for the field's longest value " +
          "(the compiled size times `maxLength` is bounded).",
      }),
    ),
  },
  { additionalProperties: false },
);
export type ValidationRules = Static<typeof Validation>;
export type FieldOption = Static<typeof Option>;

const SAMPLE = {
  id: "2f7c1e5a-9b3d-4c8e-a1f2-6d5e4c3b2a10",
  key: "student_number",
  label: "Matrícula",
  type: "text",
  options: null,
  required: true,
  unique: true,
  validation: { pattern: "^[0-9]{8}$" },
  position: 1,
  status: "active",
  createdAt: "2026-02-01T10:00:00.000Z",
  updatedAt: "2026-02-01T10:00:00.000Z",
};

export const ProfileField = Type.Object(
  {
    id: Uuid,
    key: Type.String(),
    label: Type.String(),
    type: StringEnum(FIELD_TYPES),
    options: Type.Union([Type.Array(Option), Type.Null()]),
    required: Type.Boolean({
      description: "Every new user needs a value; a user's value cannot be removed.",
    }),
    unique: Type.Boolean({
      description:
        "No two users share a value. Text is compared ignoring case, surrounding and repeated spaces, invisible " +
        "characters (zero-width spaces and joiners, soft hyphens, bidirectional controls) and compatibility forms " +
        "(Unicode NFKC: `Ｓ-1` is `S-1`); the value is stored and shown as typed. `?profile.<key>=` filters compare " +
        "the same way.",
    }),
    validation: Type.Union([Validation, Type.Null()]),
    position: Type.Integer({ minimum: 1 }),
    status: StringEnum(FIELD_STATUSES, {
      description: "`archived` fields keep their values but are neither asked for, shown nor filtered by.",
    }),
    createdAt: IsoDateTime,
    updatedAt: IsoDateTime,
  },
  { additionalProperties: false, examples: [SAMPLE] },
);
export type ProfileFieldRecord = Static<typeof ProfileField>;

export const CreateProfileFieldBody = Type.Object(
  {
    key: Key,
    label: Label,
    type: StringEnum(FIELD_TYPES),
    options: Type.Optional(Options),
    required: Type.Optional(Type.Boolean()),
    unique: Type.Optional(Type.Boolean()),
    validation: Type.Optional(Validation),
  },
  {
    additionalProperties: false,
    examples: [
      {
        key: "student_number",
        label: "Matrícula",
        type: "text",
        required: true,
        unique: true,
        validation: { pattern: "^[0-9]{8}$" },
      },
      {
        key: "shift",
        label: "Turno",
        type: "select",
        options: [
          { value: "morning", label: "Manhã" },
          { value: "evening", label: "Noite" },
        ],
      },
    ],
  },
);
export type CreateProfileFieldInput = Static<typeof CreateProfileFieldBody>;

export const UpdateProfileFieldBody = Type.Object(
  {
    label: Type.Optional(Label),
    options: Type.Optional(Options),
    required: Type.Optional(Type.Boolean()),
    unique: Type.Optional(Type.Boolean()),
    validation: Type.Optional(Type.Union([Validation, Type.Null()])),
    status: Type.Optional(
      StringEnum(FIELD_STATUSES, { description: "`archived` archives; `active` restores." }),
    ),
  },
  {
    additionalProperties: false,
    minProperties: 1,
    examples: [{ label: "Número de matrícula", required: false }, { status: "archived" }],
  },
);
export type UpdateProfileFieldInput = Static<typeof UpdateProfileFieldBody>;

export const PROFILE_FIELD_SORTS = [
  "position",
  "-position",
  "createdAt",
  "-createdAt",
  "key",
  "-key",
] as const;
export type ProfileFieldSort = (typeof PROFILE_FIELD_SORTS)[number];

export const ListProfileFieldsQuery = Type.Object(
  {
    ...PageQuery,
    status: Type.Optional(StringEnum(FIELD_STATUSES)),
    type: Type.Optional(StringEnum(FIELD_TYPES)),
    sort: Type.Optional(
      StringEnum(PROFILE_FIELD_SORTS, {
        default: "position",
        description: "`-` sorts descending. In order.",
      }),
    ),
  },
  { additionalProperties: false },
);
export type ListProfileFieldsQueryType = Static<typeof ListProfileFieldsQuery>;

export const ProfileFieldPage = CappedPageOf(ProfileField);

export const OrderProfileFieldsBody = Type.Object(
  {
    ids: Type.Array(Uuid, {
      minItems: 1,
      maxItems: MAX_PROFILE_FIELDS,
      uniqueItems: true,
      description: "Every field of the institution (archived ones too), in the new order.",
    }),
  },
  { additionalProperties: false, examples: [{ ids: [SAMPLE.id, "7b1a2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d"] }] },
);

export const ProfileFieldList = Type.Object(
  { data: Type.Array(ProfileField) },
  { additionalProperties: false, examples: [{ data: [SAMPLE] }] },
);

/** A value as a client sends and reads it: text, a number, a boolean, or a list of option values. */
export const ProfileValue = Type.Union([
  Type.String({ maxLength: 2000 }),
  Type.Number(),
  Type.Boolean(),
  Type.Array(Type.String({ maxLength: 100 }), { maxItems: 200 }),
]);
export type ProfileValueType = Static<typeof ProfileValue>;

/** `profileFields` on user bodies: by key; `null` removes a value (refused for required fields). */
export const ProfileFieldsInput = Type.Record(
  Type.String({ pattern: KEY_PATTERN }),
  Type.Union([ProfileValue, Type.Null()]),
  {
    additionalProperties: false,
    maxProperties: MAX_PROFILE_FIELDS,
    description:
      "Custom profile values by field key (`GET /profile-fields`), each checked against its field's type, " +
      "options and validation; required fields must be given on creation, unique values must be free.",
  },
);
export type ProfileFieldsInputType = Static<typeof ProfileFieldsInput>;

/** `profileFields` on user records: the values of active fields, by key. */
export const ProfileFieldsOutput = Type.Record(Type.String(), ProfileValue, {
  description: "The user's custom profile values by field key (active fields only).",
});
