import { type Static, Type } from "typebox";
import { BulkStatusSchema, BulkSummary, ItemError } from "../../platform/http/bulk.js";
import { IsoDateTime, StringEnum, Uuid } from "../../platform/http/schemas.js";
import { ENROLLMENT_EXAMPLE, ENROLLMENT_ROLES, Enrollment } from "./schemas.js";

export const MAX_BULK_ITEMS = 1000;

const BulkItem = Type.Object(
  {
    userId: Type.Optional(Uuid),
    email: Type.Optional(
      Type.String({
        format: "email",
        maxLength: 254,
        description: "Matched ignoring case; instead of userId.",
      }),
    ),
    courseId: Uuid,
    role: Type.Optional(StringEnum(ENROLLMENT_ROLES, { default: "student" })),
    classGroupId: Type.Optional(Type.Union([Uuid, Type.Null()])),
    expiresAt: Type.Optional(
      Type.Union([IsoDateTime, Type.Null()], { description: "Must be in the future." }),
    ),
  },
  { additionalProperties: false, description: "Exactly one of `userId` and `email`." },
);
export type BulkItemInput = Static<typeof BulkItem>;

export const BulkEnrollBody = Type.Object(
  { items: Type.Array(BulkItem, { minItems: 1, maxItems: MAX_BULK_ITEMS }) },
  {
    additionalProperties: false,
    examples: [
      {
        items: [
          {
            userId: "9b2e7c1a-4f3d-4e8b-a6c5-1d2f3e4a5b6c",
            courseId: "3f9a1b2c-7d6e-4f5a-8b9c-0d1e2f3a4b5c",
          },
          {
            email: "maria@example.com",
            courseId: "3f9a1b2c-7d6e-4f5a-8b9c-0d1e2f3a4b5c",
            role: "assistant",
            expiresAt: "2026-12-31T23:59:59.000Z",
          },
        ],
      },
    ],
  },
);
export type BulkEnrollInput = Static<typeof BulkEnrollBody>;

const BulkResult = Type.Object(
  {
    index: Type.Integer({ minimum: 0, description: "The item's position in `items`." }),
    status: BulkStatusSchema,
    enrollment: Type.Optional(Enrollment),
    reason: Type.Optional(
      StringEnum(["already_enrolled"] as const, {
        description: "Why an item was skipped: a current enrollment exists, or an earlier item made it.",
      }),
    ),
    error: Type.Optional(ItemError),
  },
  { additionalProperties: false },
);

export const BulkEnrollResponse = Type.Object(
  { results: Type.Array(BulkResult), summary: BulkSummary },
  {
    additionalProperties: false,
    examples: [
      {
        results: [
          { index: 0, status: "created", enrollment: ENROLLMENT_EXAMPLE },
          { index: 1, status: "skipped", reason: "already_enrolled" },
          {
            index: 2,
            status: "failed",
            error: {
              error: "validation_failed",
              message: "The request is not valid. See details for each field.",
              details: [{ field: "email", message: "No user with the e-mail ana@example.com." }],
            },
          },
        ],
        summary: { total: 3, created: 1, skipped: 1, failed: 1 },
      },
    ],
  },
);
