import { type Static, Type } from "typebox";
import { adminSessionOnly, admins } from "../../platform/auth/access.js";
import { tenantOf } from "../../platform/auth/request.js";
import type { AppContext } from "../../platform/context.js";
import { IsoDateTime, StringEnum } from "../../platform/http/schemas.js";
import type { App } from "../../platform/http/types.js";
import { deleteProvider, putProvider, viewProvider } from "./provider.js";

const tags = ["ai-provider"];
const PATH = "/api/institution/ai/provider";
const ModelName = Type.String({ minLength: 1, maxLength: 100, pattern: "^[A-Za-z0-9._:/@-]+$" });

export const ProviderSettings = Type.Object(
  {
    configured: Type.Boolean({ description: "Whether routes that generate text can run." }),
    source: Type.Union([StringEnum(["institution", "environment"] as const), Type.Null()]),
    baseUrl: Type.Union([Type.String(), Type.Null()], { description: "The institution's endpoint only." }),
    defaultModel: Type.Union([Type.String(), Type.Null()]),
    models: Type.Array(Type.String()),
    embeddingModel: Type.Union([Type.String(), Type.Null()], {
      description:
        "The embeddings model knowledge bases use for their hybrid rank (null: full-text rank alone).",
    }),
    apiKeyFingerprint: Type.Union([Type.String(), Type.Null()], {
      description: "Tells two keys apart; the key itself is never returned.",
    }),
    updatedAt: Type.Union([IsoDateTime, Type.Null()]),
  },
  {
    additionalProperties: false,
    examples: [
      {
        configured: true,
        source: "institution",
        baseUrl: "https://api.openai.com/v1",
        defaultModel: "gpt-4o-mini",
        models: ["gpt-4o-mini"],
        embeddingModel: "text-embedding-3-small",
        apiKeyFingerprint: "0123456789abcdef",
        updatedAt: "2026-11-27T12:00:00.000Z",
      },
    ],
  },
);

export const PutProviderBody = Type.Object(
  {
    baseUrl: Type.String({
      minLength: 1,
      maxLength: 2048,
      description: "An OpenAI-compatible API root, e.g. `https://api.openai.com/v1`: a public http(s) host.",
    }),
    apiKey: Type.String({ minLength: 1, maxLength: 500, description: "Write-only; stored encrypted." }),
    defaultModel: ModelName,
    models: Type.Optional(Type.Array(ModelName, { maxItems: 50, uniqueItems: true })),
    embeddingModel: Type.Optional(
      Type.Union([ModelName, Type.Null()], {
        description:
          "An embeddings model of the provider (`POST …/embeddings`): knowledge bases then store a vector per " +
          "chunk when indexing and search re-ranks its full-text candidates by meaning as well. Absent or null: none.",
      }),
    ),
  },
  {
    additionalProperties: false,
    examples: [{ baseUrl: "https://api.openai.com/v1", apiKey: "sk-…", defaultModel: "gpt-4o-mini" }],
  },
);
export type PutProviderInput = Static<typeof PutProviderBody>;

export function aiProviderRoutes(app: App, ctx: AppContext): void {
  app.get(
    PATH,
    {
      config: { access: admins("ai:read") },
      schema: {
        tags,
        summary: "Get the AI provider",
        description:
          "The institution's OpenAI-compatible provider, or the platform's (`source: environment`, whose endpoint " +
          "is not shown), or none (`configured: false`: routes that generate text answer 503 `ai_not_configured`).",
        response: { 200: ProviderSettings },
      },
    },
    (request) => viewProvider(ctx, tenantOf(request).id),
  );

  app.put(
    PATH,
    {
      config: { access: adminSessionOnly() },
      schema: {
        tags,
        summary: "Set the institution's AI provider",
        description:
          "An administrator's session only (a key is 403 `session_required`): the key is a credential, and the " +
          "base URL decides where it is sent. The URL must be a public http(s) host (400 `validation_failed`, " +
          "field `baseUrl`, otherwise); it is checked again at every connection, which goes to the address checked.",
        body: PutProviderBody,
        response: { 200: ProviderSettings },
      },
    },
    (request) => putProvider(ctx, tenantOf(request).id, request.body),
  );

  app.delete(
    PATH,
    {
      config: { access: adminSessionOnly() },
      schema: {
        tags,
        summary: "Remove the institution's AI provider",
        description: "The platform's provider, if any, is used from then on. 404 when none was set.",
        response: { 204: Type.Null() },
      },
    },
    async (request, reply) => {
      await deleteProvider(ctx, tenantOf(request).id);
      reply.code(204).send(null);
    },
  );
}
