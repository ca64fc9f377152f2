import { type Static, Type } from "typebox";
import { StringEnum, Uuid } from "../../platform/http/schemas.js";
import { Metadata } from "./schemas.js";

export const SearchBody = Type.Object(
  {
    query: Type.String({ minLength: 1, maxLength: 2_000 }),
    topK: Type.Optional(Type.Integer({ minimum: 1, maximum: 50, default: 8 })),
    minScore: Type.Optional(Type.Number({ minimum: 0, maximum: 1, default: 0 })),
    answer: Type.Optional(
      Type.Boolean({
        default: false,
        description:
          "Also generate an answer from the chunks found, through the institution's AI provider, citing them. " +
          "This one calls a model: it counts against the AI limits and is written to the usage ledger.",
      }),
    ),
    stream: Type.Optional(
      Type.Boolean({
        default: false,
        description:
          "With `answer: true` (400 on `answer` otherwise): answer `text/event-stream` — `results` `{rank, data}`, " +
          "`delta` `{text}` events, then `done` (the answer less its text, or null when nothing was found) or " +
          "`error` `{error}` when the provider fails part-way. Closing the connection stops the provider's call.",
      }),
    ),
    filters: Type.Optional(
      Type.Object(
        {
          courseId: Type.Optional(Type.String({ format: "uuid" })),
          metadata: Type.Optional(Metadata),
        },
        { additionalProperties: false },
      ),
    ),
  },
  {
    additionalProperties: false,
    examples: [{ query: "O que é uma base de um espaço vetorial?", topK: 5 }],
  },
);
export type SearchInput = Static<typeof SearchBody>;

const RESULT_EXAMPLE = {
  chunkId: "4d5e6f7a-8b9c-4d0e-9f1a-2b3c4d5e6f7a",
  documentId: "7b2d8e1f-3a4c-4d5e-8f60-718293a4b5c6",
  score: 0.31,
  text: "Uma base de um espaço vetorial é um conjunto linearmente independente que gera o espaço.",
  metadata: { unidade: "1" },
  citation: {
    title: "Espaços vetoriais",
    lessonId: "0f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f0",
    mediaId: null,
    page: null,
    start: 0,
    end: 88,
  },
};

export const SearchResult = Type.Object(
  {
    chunkId: Uuid,
    documentId: Uuid,
    score: Type.Number({
      minimum: 0,
      maximum: 1,
      description:
        "`text` rank: ts_rank / (ts_rank + 1). `hybrid` rank: the reciprocal rank fusion of the full-text and " +
        "the similarity ranks over its best (1 = first by both).",
    }),
    similarity: Type.Optional(
      Type.Union([Type.Number({ minimum: -1, maximum: 1 }), Type.Null()], {
        description:
          "`hybrid` rank only: the cosine similarity of the chunk's embedding to the query's; null when the " +
          "chunk has none of the provider's current embeddings model (ranked by full text alone).",
      }),
    ),
    text: Type.String(),
    metadata: Type.Record(Type.String(), Type.String()),
    citation: Type.Object(
      {
        title: Type.String(),
        lessonId: Type.Union([Uuid, Type.Null()]),
        mediaId: Type.Union([Uuid, Type.Null()], { description: "The file of a `media` document." }),
        page: Type.Union([Type.Integer({ minimum: 1 }), Type.Null()], {
          description: "The PDF page the chunk starts on (1-based); null for other sources.",
        }),
        start: Type.Integer({
          minimum: 0,
          description: "Offset of the chunk in the document's text (UTF-16).",
        }),
        end: Type.Integer({ minimum: 0 }),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);
export type SearchResultRecord = Static<typeof SearchResult>;

const Answer = Type.Object(
  {
    text: Type.String(),
    model: Type.String(),
    citations: Type.Array(
      Type.Object(
        {
          source: Type.Integer({
            minimum: 1,
            description: "The [n] the answer cites: the n-th result of `data`.",
          }),
          chunkId: Uuid,
          documentId: Uuid,
          title: Type.String(),
          lessonId: Type.Union([Uuid, Type.Null()]),
          mediaId: Type.Union([Uuid, Type.Null()]),
          page: Type.Union([Type.Integer({ minimum: 1 }), Type.Null()]),
          start: Type.Integer({ minimum: 0 }),
          end: Type.Integer({ minimum: 0 }),
        },
        { additionalProperties: false },
      ),
      { description: "The chunks the answer cites, in the order first cited." },
    ),
    usage: Type.Object(
      {
        inputTokens: Type.Integer({ minimum: 0 }),
        outputTokens: Type.Integer({ minimum: 0 }),
        credits: Type.Integer({ minimum: 0 }),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);

export const SearchResults = Type.Object(
  {
    rank: StringEnum(["text", "hybrid"] as const, {
      description:
        "`text`: full-text rank alone (no embeddings model, no chunk of the candidates embedded with it, or the " +
        "query's embedding could not be had). `hybrid`: full-text candidates re-ranked by meaning as well.",
    }),
    data: Type.Array(SearchResult),
    answer: Type.Optional(
      Type.Union([Answer, Type.Null()], {
        description:
          "With `answer: true`: the generated answer, or null when nothing was found (no model is called).",
      }),
    ),
  },
  {
    additionalProperties: false,
    examples: [
      {
        rank: "text",
        data: [RESULT_EXAMPLE],
        answer: {
          text: "Uma base é um conjunto linearmente independente que gera o espaço [1].",
          model: "gpt-4o-mini",
          citations: [
            {
              source: 1,
              chunkId: RESULT_EXAMPLE.chunkId,
              documentId: RESULT_EXAMPLE.documentId,
              ...RESULT_EXAMPLE.citation,
            },
          ],
          usage: { inputTokens: 412, outputTokens: 28, credits: 1 },
        },
      },
    ],
  },
);
