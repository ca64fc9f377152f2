import { Type } from "typebox";
import { StringEnum, Uuid } from "../../platform/http/schemas.js";
import { defineEvent, SAMPLE_ID } from "../events/define.js";
import { SOURCE_TYPES } from "./schemas.js";

const Document = {
  knowledgeBaseId: Uuid,
  documentId: Uuid,
  sourceType: StringEnum(SOURCE_TYPES),
  sourceId: Type.Union([Uuid, Type.Null()]),
  title: Type.String(),
  courseId: Type.Union([Uuid, Type.Null()]),
};

export const ragEvents = {
  kb_document_indexed: defineEvent({
    schemaVersion: 1,
    description:
      "A knowledge base's document was chunked and indexed by the worker (added, re-indexed, or its lesson " +
      "published); its chunks are searchable from this transaction on.",
    payload: Type.Object({
      ...Document,
      chunkCount: Type.Integer({ minimum: 0 }),
      tokenCount: Type.Integer({ minimum: 0 }),
      contentHash: Type.String(),
    }),
    sample: {
      knowledgeBaseId: SAMPLE_ID,
      documentId: SAMPLE_ID,
      sourceType: "lesson",
      sourceId: SAMPLE_ID,
      title: "Espaços vetoriais",
      courseId: SAMPLE_ID,
      chunkCount: 4,
      tokenCount: 2310,
      contentHash: "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
    },
  }),
  kb_document_failed: defineEvent({
    schemaVersion: 1,
    description: "A knowledge base's document could not be indexed; `error` says why (also on the document).",
    payload: Type.Object({ ...Document, error: Type.String() }),
    sample: {
      knowledgeBaseId: SAMPLE_ID,
      documentId: SAMPLE_ID,
      sourceType: "lesson",
      sourceId: SAMPLE_ID,
      title: "Espaços vetoriais",
      courseId: SAMPLE_ID,
      error: "the lesson was deleted",
    },
  }),
};
