import { type Static, Type } from "typebox";
import { LOCALES } from "../../locales/index.js";
import { ROLES } from "../../platform/auth/types.js";
import { IsoDateTime, StringEnum, Uuid } from "../../platform/http/schemas.js";
import { CappedPageOf } from "../../platform/pagination/capped.js";
import { PageQuery } from "../../platform/pagination/pagination.js";
import { User } from "../users/schemas.js";

export const INVITE_STATUSES = ["pending", "accepted", "expired", "revoked"] as const;
export type InviteStatus = (typeof INVITE_STATUSES)[number];

export const INVITE_SORTS = [
  "createdAt",
  "-createdAt",
  "expiresAt",
  "-expiresAt",
  "email",
  "-email",
] as const;
export type InviteSort = (typeof INVITE_SORTS)[number];

export const DEFAULT_TTL_DAYS = 14;
export const MAX_TTL_DAYS = 90;

const Ids = (what: string) =>
  Type.Array(Uuid, {
    uniqueItems: true,
    maxItems: 100,
    description: `${what}; each must exist in this institution. Applied when the invitation is accepted.`,
  });

const SAMPLE = {
  id: "3c9a1f2e-4b5d-4e6f-8a7b-9c0d1e2f3a4b",
  email: "carla.mendes@example.com",
  name: "Carla Mendes",
  role: "student",
  courseIds: ["0f8e2d1c-3b4a-4e5f-8a9b-0c1d2e3f4a5b"],
  classGroupIds: ["5b0c7a4e-8f1d-4c2a-9e3b-1a2b3c4d5e6f"],
  message: "Bem-vinda à turma de 2026!",
  status: "pending",
  expiresAt: "2026-02-16T12:00:00.000Z",
  sentAt: "2026-02-02T12:00:00.000Z",
  acceptedAt: null,
  acceptedUserId: null,
  createdAt: "2026-02-02T12:00:00.000Z",
  updatedAt: "2026-02-02T12:00:00.000Z",
};

const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);

export const Invite = Type.Object(
  {
    id: Uuid,
    email: Type.String(),
    name: Nullable(Type.String()),
    role: StringEnum(ROLES),
    courseIds: Type.Array(Uuid),
    classGroupIds: Type.Array(Uuid),
    message: Nullable(Type.String()),
    status: StringEnum(INVITE_STATUSES, {
      description: "A pending invitation past `expiresAt` reads as `expired`.",
    }),
    expiresAt: IsoDateTime,
    sentAt: Nullable(IsoDateTime),
    acceptedAt: Nullable(IsoDateTime),
    acceptedUserId: Type.Union([Uuid, Type.Null()]),
    createdAt: IsoDateTime,
    updatedAt: IsoDateTime,
  },
  { additionalProperties: false, examples: [SAMPLE] },
);
export type InviteRecord = Static<typeof Invite>;

const TOKEN_EXAMPLE = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";

/** The creation and resend answers: the record plus the token, which no other answer ever shows again. */
export const IssuedInvite = Type.Object(
  {
    ...Invite.properties,
    token: Type.String({ pattern: "^[0-9a-f]{64}$", description: "Shown only in this response." }),
    acceptUrl: Type.String({ description: "The page the invitee opens; carries the token." }),
  },
  {
    additionalProperties: false,
    examples: [
      {
        ...SAMPLE,
        token: TOKEN_EXAMPLE,
        acceptUrl: `https://escola.aula.app/invites/accept?token=${TOKEN_EXAMPLE}`,
      },
    ],
  },
);
export type IssuedInviteRecord = Static<typeof IssuedInvite>;

export const CreateInviteBody = Type.Object(
  {
    email: Type.String({ format: "email", maxLength: 254 }),
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    role: Type.Optional(StringEnum(ROLES, { default: "student" })),
    courseIds: Type.Optional(Ids("Courses to enroll the new user in")),
    classGroupIds: Type.Optional(Ids("Classes the new user joins")),
    message: Type.Optional(Type.String({ maxLength: 2000 })),
    locale: Type.Optional(
      StringEnum(LOCALES, { description: "The invitation mail's language; default: the institution's." }),
    ),
    expiresAt: Type.Optional(
      Type.String({
        format: "date-time",
        description: `In the future and at most ${MAX_TTL_DAYS} days ahead; default ${DEFAULT_TTL_DAYS} days from now.`,
      }),
    ),
  },
  {
    additionalProperties: false,
    examples: [
      {
        email: SAMPLE.email,
        name: SAMPLE.name,
        role: "student",
        courseIds: SAMPLE.courseIds,
        classGroupIds: SAMPLE.classGroupIds,
        message: SAMPLE.message,
      },
    ],
  },
);
export type CreateInviteInput = Static<typeof CreateInviteBody>;

export const ListInvitesQuery = Type.Object(
  {
    ...PageQuery,
    status: Type.Optional(StringEnum(INVITE_STATUSES)),
    email: Type.Optional(
      Type.String({ minLength: 1, maxLength: 254, description: "Exact e-mail address, ignoring case." }),
    ),
    sort: Type.Optional(
      StringEnum(INVITE_SORTS, { default: "-createdAt", description: "`-` sorts descending. Newest first." }),
    ),
  },
  { additionalProperties: false },
);
export type ListInvitesQueryType = Static<typeof ListInvitesQuery>;

export const InvitePage = CappedPageOf(Invite);

export const AcceptInviteBody = Type.Object(
  {
    token: Type.String({ minLength: 1, maxLength: 128 }),
    name: Type.Optional(
      Type.String({ minLength: 1, maxLength: 200, description: "Defaults to the name on the invitation." }),
    ),
    password: Type.String({ minLength: 8, maxLength: 1024 }),
  },
  {
    additionalProperties: false,
    examples: [{ token: TOKEN_EXAMPLE, name: "Carla Mendes", password: "uma senha longa e boa" }],
  },
);
export type AcceptInviteInput = Static<typeof AcceptInviteBody>;

export const AcceptedInvite = Type.Object(
  { user: User },
  {
    additionalProperties: false,
    examples: [
      {
        user: {
          id: "7d3e9f10-2b4c-4a5d-8e6f-9a0b1c2d3e4f",
          name: SAMPLE.name,
          email: SAMPLE.email,
          role: "student",
          classGroupIds: SAMPLE.classGroupIds,
          status: "active",
          createdAt: "2026-02-03T08:15:00.000Z",
          profileFields: {},
        },
      },
    ],
  },
);
