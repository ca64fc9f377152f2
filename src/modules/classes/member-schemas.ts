import { type Static, Type } from "typebox";
import { BulkStatusSchema, BulkSummary, ItemError } from "../../platform/http/bulk.js";
import { IsoDateTime, StringEnum, Uuid } from "../../platform/http/schemas.js";
import { CappedPageOf } from "../../platform/pagination/capped.js";
import { PageQuery } from "../../platform/pagination/pagination.js";

export const MEMBER_ROLES = ["student", "teacher", "leader"] as const;
export type MemberRole = (typeof MEMBER_ROLES)[number];

export const MEMBER_SORTS = ["joinedAt", "-joinedAt", "name", "-name"] as const;
export type MemberSort = (typeof MEMBER_SORTS)[number];

export const MAX_MEMBERS_PER_REQUEST = 1000;

const SAMPLE = {
  userId: "7d3e9f10-2b4c-4a5d-8e6f-9a0b1c2d3e4f",
  name: "Ana Souza",
  email: "ana.souza@escola.edu.br",
  role: "student",
  joinedAt: "2026-02-02T11:00:00.000Z",
};

export const ClassMember = Type.Object(
  {
    userId: Uuid,
    name: Type.String(),
    email: Type.String(),
    role: StringEnum(MEMBER_ROLES),
    joinedAt: IsoDateTime,
  },
  { additionalProperties: false, examples: [SAMPLE] },
);
export type ClassMemberRecord = Static<typeof ClassMember>;

export const ClassMemberPage = CappedPageOf(ClassMember);

export const ListMembersQuery = Type.Object(
  {
    ...PageQuery,
    role: Type.Optional(StringEnum(MEMBER_ROLES)),
    sort: Type.Optional(
      StringEnum(MEMBER_SORTS, {
        default: "-joinedAt",
        description: "`-` sorts descending. Most recently joined first.",
      }),
    ),
  },
  { additionalProperties: false },
);
export type ListMembersQueryType = Static<typeof ListMembersQuery>;

export const AddMembersBody = Type.Object(
  {
    userIds: Type.Array(Uuid, { minItems: 1, maxItems: MAX_MEMBERS_PER_REQUEST, uniqueItems: true }),
    role: Type.Optional(
      StringEnum(MEMBER_ROLES, { default: "student", description: "The role of every member added." }),
    ),
  },
  { additionalProperties: false, examples: [{ userIds: [SAMPLE.userId], role: "student" }] },
);
export type AddMembersInput = Static<typeof AddMembersBody>;

export const MemberResult = Type.Object(
  {
    index: Type.Integer({ minimum: 0 }),
    userId: Uuid,
    status: BulkStatusSchema,
    member: Type.Optional(ClassMember),
    reason: Type.Optional(StringEnum(["already_member"] as const)),
    error: Type.Optional(ItemError),
  },
  { additionalProperties: false },
);

export const AddMembersResponse = Type.Object(
  { results: Type.Array(MemberResult), summary: BulkSummary },
  {
    additionalProperties: false,
    examples: [
      {
        results: [
          { index: 0, userId: SAMPLE.userId, status: "created", member: SAMPLE },
          {
            index: 1,
            userId: "1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
            status: "skipped",
            reason: "already_member",
          },
          {
            index: 2,
            userId: "9e8d7c6b-5a4f-4e3d-8c2b-1a0f9e8d7c6b",
            status: "failed",
            error: { error: "conflict", message: "The class is full: it admits at most 40 members." },
          },
        ],
        summary: { total: 3, created: 1, skipped: 1, failed: 1 },
      },
    ],
  },
);

export const MemberParams = Type.Object({
  id: Type.String({ maxLength: 64 }),
  userId: Type.String({ maxLength: 64 }),
});
