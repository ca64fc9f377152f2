import { type Static, Type } from "typebox";
import { ROLES } from "../../platform/auth/types.js";
import { BulkStatusSchema, BulkSummary, ItemError } from "../../platform/http/bulk.js";
import { IsoDateTime, StringEnum, Uuid } from "../../platform/http/schemas.js";
import { CappedPageOf } from "../../platform/pagination/capped.js";
import { PageQuery } from "../../platform/pagination/pagination.js";
import { KEY_PATTERN, ProfileFieldsInput, ProfileFieldsOutput } from "../profile-fields/schemas.js";

export const USER_STATUSES = ["active", "invited", "suspended"] as const;
export const USER_SORTS = ["createdAt", "-createdAt", "name", "-name"] as const;
export type UserSort = (typeof USER_SORTS)[number];
export const MAX_BULK_USERS = 1000;

const SAMPLE = {
  id: "7d3e9f10-2b4c-4a5d-8e6f-9a0b1c2d3e4f",
  name: "Ana Souza",
  email: "ana.souza@escola.edu.br",
  role: "student",
  classGroupIds: ["5b0c7a4e-8f1d-4c2a-9e3b-1a2b3c4d5e6f"],
  status: "active",
  createdAt: "2026-02-02T11:00:00.000Z",
  profileFields: { student_number: "20260001", shift: "evening" },
};

const Name = Type.String({ minLength: 1, maxLength: 200 });
const Email = Type.String({ format: "email", maxLength: 254 });
const ClassGroupIds = Type.Array(Uuid, {
  uniqueItems: true,
  maxItems: 100,
  description: "Class groups the user belongs to; each must exist in this institution.",
});

export const User = Type.Object(
  {
    id: Uuid,
    name: Type.String(),
    email: Type.String(),
    role: StringEnum(ROLES),
    classGroupIds: Type.Array(Uuid),
    status: StringEnum(USER_STATUSES),
    createdAt: IsoDateTime,
    profileFields: ProfileFieldsOutput,
  },
  { additionalProperties: false, examples: [SAMPLE] },
);
export type UserRecord = Static<typeof User>;

/**
 * How a user created by `POST /users` first signs in: `invitation` (with `sendInvite`: the mailed link sets the
 * password and activates the account) or `password_reset` (the account is active without a password: the user
 * asks `POST /api/auth/password-reset` with this e-mail, and the mailed link sets one).
 */
export const SignIn = Type.Object(
  {
    method: StringEnum(["invitation", "password_reset"] as const),
    via: Type.String({
      description:
        "The public route that starts it: the mailed link's page posts to it, or the user asks it.",
    }),
  },
  {
    additionalProperties: false,
    description:
      "How this user first signs in. `invitation`: the invitation mailed now (`sendInvite: true`) links to a " +
      "page that sets the password (`POST /api/invites/accept`). `password_reset`: the account is active " +
      "without a password; the user asks `POST /api/auth/password-reset` with this e-mail and the mailed " +
      "link sets one. Only in this answer.",
  },
);

/** The answer of `POST /users`: the user, and how they will sign in. */
export const CreatedUser = Type.Object(
  { ...User.properties, signIn: SignIn },
  {
    additionalProperties: false,
    examples: [{ ...SAMPLE, signIn: { method: "password_reset", via: "POST /api/auth/password-reset" } }],
  },
);

export const CreateUserBody = Type.Object(
  {
    name: Name,
    email: Email,
    role: StringEnum(ROLES),
    classGroupIds: Type.Optional(ClassGroupIds),
    sendInvite: Type.Optional(
      Type.Boolean({
        description:
          "Create the user as `invited` and mail an invitation whose link sets the password. Without it the " +
          "user is `active` without a password and signs in after a password reset (see `signIn`).",
      }),
    ),
    profileFields: Type.Optional(ProfileFieldsInput),
  },
  {
    additionalProperties: false,
    examples: [
      { name: SAMPLE.name, email: SAMPLE.email, role: "student", classGroupIds: SAMPLE.classGroupIds },
    ],
  },
);
export type CreateUserInput = Static<typeof CreateUserBody>;

export const UpdateUserBody = Type.Object(
  {
    name: Type.Optional(Name),
    email: Type.Optional(Email),
    role: Type.Optional(StringEnum(ROLES)),
    classGroupIds: Type.Optional(ClassGroupIds),
    status: Type.Optional(StringEnum(["active", "suspended"] as const)),
    profileFields: Type.Optional(ProfileFieldsInput),
  },
  {
    additionalProperties: false,
    minProperties: 1,
    examples: [{ name: "Ana Souza Lima", status: "suspended" }],
  },
);
export type UpdateUserInput = Static<typeof UpdateUserBody>;

export const ListUsersQuery = Type.Object(
  {
    ...PageQuery,
    search: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description: "Matches name and e-mail, ignoring case and accents.",
      }),
    ),
    role: Type.Optional(StringEnum(ROLES)),
    status: Type.Optional(StringEnum(USER_STATUSES)),
    classGroupId: Type.Optional(Type.String({ format: "uuid", description: "Members of this class group." })),
    tag: Type.Optional(Type.String({ format: "uuid", description: "Users carrying this tag (a tag id)." })),
    email: Type.Optional(
      Type.String({ minLength: 1, maxLength: 254, description: "Exact e-mail address, ignoring case." }),
    ),
    createdSince: Type.Optional(
      Type.String({ format: "date-time", description: "Users created at or after this instant." }),
    ),
    sort: Type.Optional(
      StringEnum(USER_SORTS, { default: "-createdAt", description: "`-` sorts descending. Newest first." }),
    ),
  },
  {
    additionalProperties: false,
    // `profile.<key>=value`: users whose custom profile field has this value (see the route's description).
    patternProperties: {
      [`^profile\\.${KEY_PATTERN.slice(1)}`]: Type.String({ minLength: 1, maxLength: 200 }),
    },
  },
);
export type ListUsersQueryType = Static<typeof ListUsersQuery> &
  Record<`profile.${string}`, string | undefined>;

export const UserPage = CappedPageOf(User);

/** One user of a bulk creation: the fields of `POST /users` without `sendInvite`. */
const BulkUserItem = Type.Object(
  {
    name: Name,
    email: Email,
    role: StringEnum(ROLES),
    classGroupIds: Type.Optional(ClassGroupIds),
    profileFields: Type.Optional(ProfileFieldsInput),
  },
  { additionalProperties: false },
);
export type BulkUserItemInput = Static<typeof BulkUserItem>;

export const BulkCreateUsersBody = Type.Object(
  { items: Type.Array(BulkUserItem, { minItems: 1, maxItems: MAX_BULK_USERS }) },
  {
    additionalProperties: false,
    examples: [
      {
        items: [
          {
            name: SAMPLE.name,
            email: SAMPLE.email,
            role: "student",
            classGroupIds: SAMPLE.classGroupIds,
            profileFields: SAMPLE.profileFields,
          },
          { name: "Bruno Lima", email: "bruno.lima@escola.edu.br", role: "teacher" },
        ],
      },
    ],
  },
);
export type BulkCreateUsersInput = Static<typeof BulkCreateUsersBody>;

export const BulkUserResult = Type.Object(
  {
    index: Type.Integer({ minimum: 0 }),
    status: BulkStatusSchema,
    user: Type.Optional(User),
    reason: Type.Optional(
      StringEnum(["email_taken"] as const, {
        description:
          "Why an item was skipped: its e-mail belongs to a user, or to an earlier item of the batch.",
      }),
    ),
    error: Type.Optional(ItemError),
  },
  { additionalProperties: false },
);

export const BulkCreateUsersResponse = Type.Object(
  { results: Type.Array(BulkUserResult), summary: BulkSummary },
  {
    additionalProperties: false,
    examples: [
      {
        results: [
          { index: 0, status: "created", user: SAMPLE },
          { index: 1, status: "skipped", reason: "email_taken" },
          {
            index: 2,
            status: "failed",
            error: {
              error: "student_limit_reached",
              message:
                "The free plan admits 10 students and has no seat left. An administrator can move the " +
                "institution to a paid plan with POST /api/institution/billing/checkout.",
              details: [
                { field: "plan", message: "The institution's plan is free." },
                { field: "limit", message: "The plan admits at most 10 students." },
              ],
            },
          },
        ],
        summary: { total: 3, created: 1, skipped: 1, failed: 1 },
      },
    ],
  },
);
