import { type Static, Type } from "typebox";
import { ROLES } from "../../platform/auth/types.js";
import { IsoDateTime, StringEnum, Uuid } from "../../platform/http/schemas.js";
import { PageOf, PageQuery } from "../../platform/pagination/pagination.js";

export const USER_STATUSES = ["active", "invited", "suspended"] as const;

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
  },
  { additionalProperties: false },
);
export type UserRecord = Static<typeof User>;

export const CreateUserBody = Type.Object(
  {
    name: Name,
    email: Email,
    role: StringEnum(ROLES),
    classGroupIds: Type.Optional(ClassGroupIds),
    sendInvite: Type.Optional(
      Type.Boolean({ description: "Create the user as `invited`, to be activated through an invitation." }),
    ),
  },
  { additionalProperties: false },
);
export type CreateUserInput = Static<typeof CreateUserBody>;

export const UpdateUserBody = Type.Object(
  {
    name: Type.Optional(Name),
    email: Type.Optional(Email),
    role: Type.Optional(StringEnum(ROLES)),
    classGroupIds: Type.Optional(ClassGroupIds),
    status: Type.Optional(StringEnum(["active", "suspended"] as const)),
  },
  { additionalProperties: false, minProperties: 1 },
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
  },
  { additionalProperties: false },
);
export type ListUsersQueryType = Static<typeof ListUsersQuery>;

export const UserPage = PageOf(User);
