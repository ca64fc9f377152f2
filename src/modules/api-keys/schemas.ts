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
  { additionalProperties: false },
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

export const CreatedApiKey = Type.Object(
  {
    ...common,
    secret: Type.String({ pattern: "^mia_[0-9a-f]{40}$", description: "Shown in this response only." }),
  },
  { additionalProperties: false },
);
export type CreatedApiKeyRecord = Static<typeof CreatedApiKey>;

export const ApiKey = Type.Object(
  { ...common, lastUsedAt: Type.Union([IsoDateTime, Type.Null()]) },
  { additionalProperties: false },
);
export type ApiKeyRecord = Static<typeof ApiKey>;

export const ListApiKeysQuery = Type.Object({ ...PageQuery }, { additionalProperties: false });
export const ApiKeyPage = PageOf(ApiKey);
