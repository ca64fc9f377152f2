import { type Static, Type } from "typebox";
import { IsoDateTime, StringEnum, Uuid } from "../../platform/http/schemas.js";
import { CappedPageOf } from "../../platform/pagination/capped.js";
import { PageQuery } from "../../platform/pagination/pagination.js";

export const KB_SCOPES = ["institution", "course"] as const;
export const KB_STATUSES = ["ready", "indexing", "error"] as const;
export const CHUNKING_STRATEGIES = ["auto", "fixed"] as const;
export const DOCUMENT_STATUSES = ["pending", "processing", "ready", "failed"] as const;
export type DocumentStatus = (typeof DOCUMENT_STATUSES)[number];
export const SOURCE_TYPES = ["text", "lesson", "media"] as const;
/** The languages a document is indexed in: each has a text search configuration (migration 0062). */
export const LANGUAGES = ["pt", "en", "es", "fr"] as const;
export type Language = (typeof LANGUAGES)[number];

export const MAX_TEXT_CHARS = 200_000;
export const MAX_DOCUMENTS_PER_REQUEST = 100;
export const MAX_METADATA_PAIRS = 16;

const Name = Type.String({ minLength: 1, maxLength: 100 });
const Description = Type.Union([Type.String({ maxLength: 2_000 }), Type.Null()]);
const Count = Type.Integer({ minimum: 0 });

export const Chunking = Type.Object(
  {
    strategy: StringEnum(CHUNKING_STRATEGIES, {
      description: "`auto`: 800 tokens with an overlap of 400. `fixed`: the sizes given.",
    }),
    maxChunkTokens: Type.Integer({ minimum: 100, maximum: 4_000 }),
    overlapTokens: Type.Integer({ minimum: 0, maximum: 2_000, description: "At most maxChunkTokens / 2." }),
  },
  { additionalProperties: false },
);

const ChunkingInput = Type.Object(
  {
    strategy: StringEnum(CHUNKING_STRATEGIES),
    maxChunkTokens: Type.Optional(Type.Integer({ minimum: 100, maximum: 4_000 })),
    overlapTokens: Type.Optional(Type.Integer({ minimum: 0, maximum: 2_000 })),
  },
  {
    additionalProperties: false,
    description:
      "A token is a whitespace-separated word (a run over 50 characters counts one token per 50). `fixed` needs " +
      "maxChunkTokens (100–4000) and overlapTokens (0 to maxChunkTokens / 2); `auto` takes neither.",
  },
);
export type ChunkingInputType = Static<typeof ChunkingInput>;

const AutoSync = Type.Object(
  {
    courseContent: Type.Boolean({
      description: "Re-index the lesson documents of this knowledge base when their lesson is published.",
    }),
  },
  { additionalProperties: false },
);

const KB_EXAMPLE = {
  id: "2f1c7a4e-5b6d-4e8f-9a0b-1c2d3e4f5a6b",
  name: "Álgebra Linear — material",
  description: "Notas de aula e listas.",
  scope: "course",
  courseId: "6a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d",
  status: "ready",
  chunking: { strategy: "auto", maxChunkTokens: 800, overlapTokens: 400 },
  autoSync: { courseContent: true },
  documentCount: 12,
  chunkCount: 48,
  tokenCount: 21_300,
  lastIndexedAt: "2026-03-02T09:30:00.000Z",
  createdAt: "2026-03-01T12:00:00.000Z",
  updatedAt: "2026-03-02T09:30:00.000Z",
};

export const KnowledgeBase = Type.Object(
  {
    id: Uuid,
    name: Type.String(),
    description: Type.Union([Type.String(), Type.Null()]),
    scope: StringEnum(KB_SCOPES),
    courseId: Type.Union([Uuid, Type.Null()]),
    status: StringEnum(KB_STATUSES, {
      description:
        "`indexing` while documents wait or are being indexed; `error` when one failed (its `error` says why) " +
        "and none waits; `ready` otherwise.",
    }),
    chunking: Chunking,
    autoSync: AutoSync,
    documentCount: Count,
    chunkCount: Count,
    tokenCount: Count,
    lastIndexedAt: Type.Union([IsoDateTime, Type.Null()]),
    createdAt: IsoDateTime,
    updatedAt: IsoDateTime,
  },
  { additionalProperties: false, examples: [KB_EXAMPLE] },
);
export type KnowledgeBaseRecord = Static<typeof KnowledgeBase>;

export const CreateKnowledgeBaseBody = Type.Object(
  {
    name: Name,
    description: Type.Optional(Description),
    scope: Type.Optional(StringEnum(KB_SCOPES, { default: "institution" })),
    courseId: Type.Optional(Type.Union([Uuid, Type.Null()])),
    chunking: Type.Optional(ChunkingInput),
    autoSync: Type.Optional(AutoSync),
  },
  {
    additionalProperties: false,
    examples: [{ name: "Álgebra Linear — material", scope: "course", courseId: KB_EXAMPLE.courseId }],
  },
);
export type CreateKnowledgeBaseInput = Static<typeof CreateKnowledgeBaseBody>;

export const UpdateKnowledgeBaseBody = Type.Object(
  {
    name: Type.Optional(Name),
    description: Type.Optional(Description),
    chunking: Type.Optional(ChunkingInput),
    autoSync: Type.Optional(AutoSync),
  },
  { additionalProperties: false, minProperties: 1, examples: [{ name: "Material de apoio" }] },
);
export type UpdateKnowledgeBaseInput = Static<typeof UpdateKnowledgeBaseBody>;

export const ListKnowledgeBasesQuery = Type.Object(
  {
    ...PageQuery,
    courseId: Type.Optional(
      Type.String({ format: "uuid", description: "Only this course's knowledge bases." }),
    ),
  },
  { additionalProperties: false },
);
export type ListKnowledgeBasesQueryType = Static<typeof ListKnowledgeBasesQuery>;
export const KnowledgeBasePage = CappedPageOf(KnowledgeBase);

export const KbParams = Type.Object({ kbId: Type.String({ maxLength: 64 }) });
export const DocumentParams = Type.Object({
  kbId: Type.String({ maxLength: 64 }),
  docId: Type.String({ maxLength: 64 }),
});

export const Metadata = Type.Record(
  Type.String({ minLength: 1, maxLength: 64 }),
  Type.String({ maxLength: 512 }),
  {
    maxProperties: MAX_METADATA_PAIRS,
    propertyNames: { minLength: 1, maxLength: 64 },
    description: "At most 16 pairs; keys up to 64 characters, values up to 512.",
  },
);

const DOCUMENT_EXAMPLE = {
  id: "7b2d8e1f-3a4c-4d5e-8f60-718293a4b5c6",
  knowledgeBaseId: KB_EXAMPLE.id,
  sourceType: "lesson",
  sourceId: "0f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f0",
  title: "Espaços vetoriais",
  language: "pt",
  metadata: { unidade: "1" },
  status: "ready",
  error: null,
  chunkCount: 4,
  tokenCount: 2_310,
  contentHash: "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
  embeddingModel: "text-embedding-3-small",
  indexedAt: "2026-03-02T09:30:00.000Z",
  createdAt: "2026-03-02T09:29:58.000Z",
};

export const KbDocument = Type.Object(
  {
    id: Uuid,
    knowledgeBaseId: Uuid,
    sourceType: StringEnum(SOURCE_TYPES),
    sourceId: Type.Union([Uuid, Type.Null()]),
    title: Type.String(),
    language: StringEnum(LANGUAGES),
    metadata: Type.Record(Type.String(), Type.String()),
    status: StringEnum(DOCUMENT_STATUSES, {
      description:
        "`pending` until the indexing job reaches it, `processing` while it reads and chunks it, then `ready` or " +
        "`failed`.",
    }),
    error: Type.Union([Type.String(), Type.Null()], {
      description:
        "Why a `failed` document could not be indexed. A media document's starts with a code: `media_deleted`, " +
        "`media_not_indexable`, `media_too_large`, `pdf_unreadable`, `pdf_encrypted`, `too_many_pages` (over 500), " +
        "`text_too_long` (over 2,097,152 characters), `extraction_timeout` (over 20 s) or `extraction_failed`.",
    }),
    chunkCount: Count,
    tokenCount: Count,
    contentHash: Type.Union([
      Type.String({ description: "SHA-256 of the indexed text (hex); the dedupe key of text documents." }),
      Type.Null(),
    ]),
    embeddingModel: Type.Union([Type.String(), Type.Null()], {
      description:
        "The model the chunks' embeddings were computed with when indexed (the provider's `embeddingModel`); " +
        "null: none (no embeddings model then, or the call could not be made): full-text rank alone.",
    }),
    indexedAt: Type.Union([IsoDateTime, Type.Null()]),
    createdAt: IsoDateTime,
  },
  { additionalProperties: false, examples: [DOCUMENT_EXAMPLE] },
);
export type KbDocumentRecord = Static<typeof KbDocument>;

const DocumentInput = Type.Object(
  {
    sourceType: StringEnum(SOURCE_TYPES, {
      description:
        "`text`: the text given. `lesson`: a text lesson's body, read when indexed. `media`: a ready file of the " +
        "institution, a PDF or plain text (text/plain, text/csv) of at most 10 MB, its text extracted when indexed.",
    }),
    text: Type.Optional(
      Type.String({ minLength: 1, maxLength: MAX_TEXT_CHARS, description: "Required for `text`." }),
    ),
    sourceId: Type.Optional(
      Type.String({
        format: "uuid",
        description: "A lesson's id, required for `lesson`; a file's (media) id, required for `media`.",
      }),
    ),
    title: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 255,
        description: "Default: the lesson's title, the file's name, or the text's start.",
      }),
    ),
    language: Type.Optional(StringEnum(LANGUAGES, { default: "pt" })),
    metadata: Type.Optional(Metadata),
  },
  { additionalProperties: false },
);
export type DocumentInputType = Static<typeof DocumentInput>;

export const AddDocumentsBody = Type.Union(
  [
    DocumentInput,
    Type.Object(
      { documents: Type.Array(DocumentInput, { minItems: 1, maxItems: MAX_DOCUMENTS_PER_REQUEST }) },
      { additionalProperties: false },
    ),
  ],
  {
    examples: [
      { sourceType: "text", title: "Bases", text: "Uma base de um espaço vetorial é…", language: "pt" },
      {
        documents: [
          { sourceType: "lesson", sourceId: DOCUMENT_EXAMPLE.sourceId },
          { sourceType: "media", sourceId: "5e6f7a8b-9c0d-4e1f-8a2b-3c4d5e6f7a8b", language: "en" },
        ],
      },
    ],
  },
);
export type AddDocumentsInput = Static<typeof AddDocumentsBody>;

export const AddedDocuments = Type.Object(
  {
    data: Type.Array(KbDocument, {
      description:
        "In the order sent; a document already in the knowledge base (same text, same lesson) is answered as it is.",
    }),
    jobId: Type.Union([Uuid, Type.Null()], {
      description: "The indexing job (GET /jobs/{jobId}); null when every document was already there.",
    }),
  },
  {
    additionalProperties: false,
    examples: [
      {
        data: [
          {
            ...DOCUMENT_EXAMPLE,
            status: "pending",
            chunkCount: 0,
            tokenCount: 0,
            embeddingModel: null,
            indexedAt: null,
          },
        ],
        jobId: "3c4d5e6f-7a8b-4c9d-8e0f-1a2b3c4d5e6f",
      },
    ],
  },
);

export const ReindexJob = Type.Object(
  { jobId: Type.String({ format: "uuid", description: "The indexing job (GET /jobs/{jobId})." }) },
  { additionalProperties: false, examples: [{ jobId: "3c4d5e6f-7a8b-4c9d-8e0f-1a2b3c4d5e6f" }] },
);

export const ListDocumentsQuery = Type.Object({ ...PageQuery }, { additionalProperties: false });
export const KbDocumentPage = CappedPageOf(KbDocument);
