import { type Static, Type } from "typebox";
import { Uuid } from "../../platform/http/schemas.js";
import { Metadata } from "./schemas.js";

export const SearchBody = Type.Object(
  {
    query: Type.String({ minLength: 1, maxLength: 2_000 }),
    topK: Type.Optional(Type.Integer({ minimum: 1, maximum: 50, default: 8 })),
    minScore: Type.Optional(Type.Number({ minimum: 0, maximum: 1, default: 0 })),
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

export const SearchResult = Type.Object(
  {
    chunkId: Uuid,
    documentId: Uuid,
    score: Type.Number({ minimum: 0, maximum: 1 }),
    text: Type.String(),
    metadata: Type.Record(Type.String(), Type.String()),
    citation: Type.Object(
      {
        title: Type.String(),
        lessonId: Type.Union([Uuid, Type.Null()]),
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

export const SearchResults = Type.Object({ data: Type.Array(SearchResult) }, { additionalProperties: false });
