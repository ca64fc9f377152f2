import { type Static, Type } from "typebox";
import { IsoDateTime, StringEnum, Uuid } from "../../platform/http/schemas.js";
import { CappedPageOf } from "../../platform/pagination/capped.js";
import { PageQuery } from "../../platform/pagination/pagination.js";

/** What a tag can be attached to; each names one table of tenant-owned rows (see assignments-repo.ts). */
export const RESOURCE_TYPES = ["user", "course", "class", "question"] as const;
export type ResourceType = (typeof RESOURCE_TYPES)[number];

export const MAX_IDS = 1000;

const Name = Type.String({
  minLength: 1,
  maxLength: 64,
  pattern: "\\S",
  description: "Unique in the institution, ignoring case; surrounding spaces are dropped.",
});
const Color = Type.String({ pattern: "^#[0-9A-Fa-f]{6}$", description: "`#RRGGBB`." });
const AppliesTo = Type.Array(StringEnum(RESOURCE_TYPES), {
  minItems: 1,
  maxItems: RESOURCE_TYPES.length,
  uniqueItems: true,
  description: "The resource types the tag may be attached to.",
});

export const Tag = Type.Object(
  {
    id: Uuid,
    name: Type.String(),
    slug: Type.String({ description: "Derived from the name: lowercase ASCII, digits and hyphens." }),
    color: Type.Union([Type.String(), Type.Null()]),
    appliesTo: Type.Array(StringEnum(RESOURCE_TYPES)),
    usageCount: Type.Integer({ minimum: 0, description: "Resources the tag is attached to." }),
    createdAt: IsoDateTime,
    updatedAt: IsoDateTime,
  },
  {
    additionalProperties: false,
    examples: [
      {
        id: "6a1d0c52-3f7e-4b8a-9c21-5e4f3a2b1c0d",
        name: "Turma A",
        slug: "turma-a",
        color: "#1E88E5",
        appliesTo: ["user", "class"],
        usageCount: 42,
        createdAt: "2026-02-01T10:00:00.000Z",
        updatedAt: "2026-02-01T10:00:00.000Z",
      },
    ],
  },
);
export type TagRecord = Static<typeof Tag>;

export const CreateTagBody = Type.Object(
  {
    name: Name,
    color: Type.Optional(Type.Union([Color, Type.Null()])),
    appliesTo: AppliesTo,
  },
  {
    additionalProperties: false,
    examples: [{ name: "Turma A", color: "#1E88E5", appliesTo: ["user", "class"] }],
  },
);
export type CreateTagInput = Static<typeof CreateTagBody>;

export const UpdateTagBody = Type.Object(
  {
    name: Type.Optional(Name),
    color: Type.Optional(Type.Union([Color, Type.Null()])),
    appliesTo: Type.Optional(AppliesTo),
  },
  { additionalProperties: false, minProperties: 1, examples: [{ name: "Turma B", color: null }] },
);
export type UpdateTagInput = Static<typeof UpdateTagBody>;

export const TAG_SORTS = ["createdAt", "-createdAt", "name", "-name"] as const;
export type TagSort = (typeof TAG_SORTS)[number];

export const ListTagsQuery = Type.Object(
  {
    ...PageQuery,
    appliesTo: Type.Optional(StringEnum(RESOURCE_TYPES, { description: "Tags that may go on this type." })),
    search: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 64,
        description: "Matches the name, ignoring case and accents.",
      }),
    ),
    sort: Type.Optional(
      StringEnum(TAG_SORTS, { default: "-createdAt", description: "`-` sorts descending. Newest first." }),
    ),
  },
  { additionalProperties: false },
);
export type ListTagsQueryType = Static<typeof ListTagsQuery>;

export const TagPage = CappedPageOf(Tag);

export const Assignment = Type.Object(
  {
    resourceType: StringEnum(RESOURCE_TYPES),
    resourceId: Uuid,
    createdAt: IsoDateTime,
  },
  {
    additionalProperties: false,
    examples: [
      {
        resourceType: "user",
        resourceId: "2c4e6a8b-0d1f-4a3b-8c5d-7e9f1a2b3c4d",
        createdAt: "2026-02-02T08:15:00.000Z",
      },
    ],
  },
);
export type AssignmentRecord = Static<typeof Assignment>;

export const ASSIGNMENT_SORTS = ["createdAt", "-createdAt"] as const;
export type AssignmentSort = (typeof ASSIGNMENT_SORTS)[number];

export const ListAssignmentsQuery = Type.Object(
  {
    ...PageQuery,
    resourceType: Type.Optional(StringEnum(RESOURCE_TYPES)),
    sort: Type.Optional(
      StringEnum(ASSIGNMENT_SORTS, { default: "-createdAt", description: "Most recently attached first." }),
    ),
  },
  { additionalProperties: false },
);
export type ListAssignmentsQueryType = Static<typeof ListAssignmentsQuery>;

export const AssignmentPage = CappedPageOf(Assignment);

const Ids = Type.Array(Uuid, {
  minItems: 1,
  maxItems: MAX_IDS,
  description: `1 to ${MAX_IDS} ids; a repeated id counts once.`,
});

export const AttachBody = Type.Object(
  { resourceType: StringEnum(RESOURCE_TYPES), ids: Ids },
  {
    additionalProperties: false,
    examples: [{ resourceType: "user", ids: ["2c4e6a8b-0d1f-4a3b-8c5d-7e9f1a2b3c4d"] }],
  },
);
export type AttachInput = Static<typeof AttachBody>;

export const Attached = Type.Object(
  {
    attached: Type.Integer({ minimum: 0, description: "Newly attached." }),
    alreadyAttached: Type.Integer({ minimum: 0 }),
    notFound: Type.Array(Uuid, { description: "Ids with no such resource in this institution." }),
  },
  { additionalProperties: false, examples: [{ attached: 1, alreadyAttached: 0, notFound: [] }] },
);
export type AttachedRecord = Static<typeof Attached>;

export const RemoveBody = Type.Object(
  { resourceType: StringEnum(RESOURCE_TYPES), ids: Ids },
  {
    additionalProperties: false,
    examples: [{ resourceType: "user", ids: ["2c4e6a8b-0d1f-4a3b-8c5d-7e9f1a2b3c4d"] }],
  },
);
export type RemoveInput = Static<typeof RemoveBody>;

export const Removed = Type.Object(
  { removed: Type.Integer({ minimum: 0, description: "Assignments that existed and are gone." }) },
  { additionalProperties: false, examples: [{ removed: 1 }] },
);
