import { type Static, Type } from "typebox";
import { IsoDateTime, StringEnum, Uuid } from "../../platform/http/schemas.js";
import { PageOf, PageQuery } from "../../platform/pagination/pagination.js";

export const RATE_TIER_NAMES = ["standard", "high", "custom"] as const;

const CustomLimits = Type.Object(
  {
    perHour: Type.Integer({ minimum: 1, maximum: 1_000_000 }),
    perMinute: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000, default: 60 })),
  },
  { additionalProperties: false },
);
const CustomLimitsOut = Type.Union([
  Type.Object({ perHour: Type.Integer(), perMinute: Type.Integer() }, { additionalProperties: false }),
  Type.Null(),
]);

export const CreateApiKeyBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 100 }),
    scopes: Type.Array(Type.String({ maxLength: 64 }), {
      uniqueItems: true,
      maxItems: 35,
      description: "Scopes the key holds; an empty array holds every scope (an administrator key).",
    }),
    rateTier: StringEnum(RATE_TIER_NAMES),
    customLimits: Type.Optional(CustomLimits),
  },
  {
    additionalProperties: false,
    examples: [{ name: "ERP sync", scopes: ["users:write", "enrollments:write"], rateTier: "standard" }],
  },
);
export type CreateApiKeyInput = Static<typeof CreateApiKeyBody>;

const common = {
  id: Uuid,
  name: Type.String(),
  scopes: Type.Array(Type.String()),
  rateTier: StringEnum(RATE_TIER_NAMES),
  customLimits: CustomLimitsOut,
  prefix: Type.String({ description: "The first characters of the secret, to tell keys apart." }),
  createdAt: IsoDateTime,
};

const keyExample = {
  id: "3f8a2b1c-6d4e-4a7f-9b0c-2d1e3f4a5b6c",
  name: "ERP sync",
  scopes: ["users:write", "enrollments:write"],
  rateTier: "standard",
  customLimits: null,
  prefix: "mia_4e1a9c7b",
  createdAt: "2026-11-23T12:00:00.000Z",
};

export const CreatedApiKey = Type.Object(
  {
    ...common,
    secret: Type.String({ pattern: "^mia_[0-9a-f]{40}$", description: "Shown in this response only." }),
  },
  {
    additionalProperties: false,
    examples: [{ ...keyExample, secret: "mia_4e1a9c7b2d5f8e0a3b6c9d2e5f8a1b4c7d0e3f6a" }],
  },
);
export type CreatedApiKeyRecord = Static<typeof CreatedApiKey>;

export const ApiKey = Type.Object(
  { ...common, lastUsedAt: Type.Union([IsoDateTime, Type.Null()]) },
  { additionalProperties: false, examples: [{ ...keyExample, lastUsedAt: "2026-11-24T08:15:42.000Z" }] },
);
export type ApiKeyRecord = Static<typeof ApiKey>;

export const ListApiKeysQuery = Type.Object({ ...PageQuery }, { additionalProperties: false });
export const ApiKeyPage = PageOf(ApiKey);
