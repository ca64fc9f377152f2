import { Readable } from "node:stream";
import { Type } from "typebox";
import { signedIn, staff } from "../../platform/auth/access.js";
import { principalOf, tenantOf } from "../../platform/auth/request.js";
import type { AppContext } from "../../platform/context.js";
import { AppError } from "../../platform/errors/app-error.js";
import { requireUuid } from "../../platform/http/schemas.js";
import type { App } from "../../platform/http/types.js";
import type { OutboundClient } from "../../platform/outbound/client.js";
import { cappedTotalNote } from "../../platform/pagination/capped.js";
import { streamAnswer } from "./answer-stream.js";
import * as documents from "./documents.js";
import { reindexKnowledgeBase } from "./reindex.js";
import {
  AddDocumentsBody,
  AddedDocuments,
  CreateKnowledgeBaseBody,
  DocumentParams,
  KbDocumentPage,
  KbParams,
  KnowledgeBase,
  KnowledgeBasePage,
  ListDocumentsQuery,
  ListKnowledgeBasesQuery,
  ReindexJob,
  UpdateKnowledgeBaseBody,
} from "./schemas.js";
import { search, searchAndAnswer } from "./search.js";
import { SearchBody, SearchResults } from "./search-schemas.js";
import * as service from "./service.js";

const tags = ["rag"];
const BASE = "/api/institution/rag/knowledge-bases";
// RAG uses the ai:* scopes (CONTRACT.md). Teachers manage their courses' material, so writes are staff's, not
// administrators' alone as for prompts; search is any signed-in user's (a student's within their courses).
const read = staff("ai:read");
const write = staff("ai:write");
const searcher = signedIn("ai:read");

export function ragRoutes(app: App, ctx: AppContext, client: OutboundClient): void {
  const db = ctx.database.db;
  const deps = { ctx, client, config: ctx.config.ai };

  app.get(
    BASE,
    {
      config: { access: read },
      schema: {
        tags,
        summary: "List knowledge bases",
        description: `Newest first (ties by id); \`courseId\` narrows to one course's. ${cappedTotalNote("unfiltered")}`,
        querystring: ListKnowledgeBasesQuery,
        response: { 200: KnowledgeBasePage },
      },
    },
    (request) => service.listKnowledgeBases(db, tenantOf(request).id, request.query),
  );

  app.post(
    BASE,
    {
      config: { access: write },
      schema: {
        tags,
        summary: "Create a knowledge base",
        description:
          "Institution-wide, or of one course (`scope: course` with `courseId`). Chunking `auto` is 800 tokens " +
          "overlapping by 400; `fixed` takes maxChunkTokens 100–4000 and overlapTokens up to half of it.",
        body: CreateKnowledgeBaseBody,
        response: { 201: KnowledgeBase },
      },
    },
    async (request, reply) => {
      reply.code(201);
      return service.createKnowledgeBase(db, tenantOf(request).id, request.body);
    },
  );

  app.get(
    `${BASE}/:kbId`,
    {
      config: { access: read },
      schema: { tags, summary: "Get a knowledge base", params: KbParams, response: { 200: KnowledgeBase } },
    },
    (request) => service.getKnowledgeBase(db, tenantOf(request).id, requireUuid(request.params.kbId)),
  );

  app.patch(
    `${BASE}/:kbId`,
    {
      config: { access: write },
      schema: {
        tags,
        summary: "Update a knowledge base",
        description:
          "A new chunking applies to documents indexed from then on. Scope and course do not change.",
        params: KbParams,
        body: UpdateKnowledgeBaseBody,
        response: { 200: KnowledgeBase },
      },
    },
    (request) =>
      service.updateKnowledgeBase(db, tenantOf(request).id, requireUuid(request.params.kbId), request.body),
  );

  app.delete(
    `${BASE}/:kbId`,
    {
      config: { access: write },
      schema: {
        tags,
        summary: "Delete a knowledge base",
        description: "With its documents and chunks.",
        params: KbParams,
        response: { 204: Type.Null() },
      },
    },
    async (request, reply) => {
      await service.deleteKnowledgeBase(db, tenantOf(request).id, requireUuid(request.params.kbId));
      reply.code(204).send(null);
    },
  );

  app.get(
    `${BASE}/:kbId/documents`,
    {
      config: { access: read },
      schema: {
        tags,
        summary: "List a knowledge base's documents",
        description: "Newest first (ties by id); the total is the knowledge base's document count.",
        params: KbParams,
        querystring: ListDocumentsQuery,
        response: { 200: KbDocumentPage },
      },
    },
    (request) =>
      documents.listDocuments(db, tenantOf(request).id, requireUuid(request.params.kbId), request.query),
  );

  app.post(
    `${BASE}/:kbId/documents`,
    {
      config: { access: write },
      schema: {
        tags,
        summary: "Add documents",
        description:
          "One document, or `{documents: [...]}` with up to 100. `text` (up to 200,000 characters), `lesson` " +
          "(`sourceId`: a lesson of this institution; a text lesson's body is indexed as text, read when indexed) " +
          "or `media` (`sourceId`: a ready file of this institution, a PDF or plain text of at most 10 MB; its text " +
          "is extracted when indexed, within 500 pages, 2,097,152 characters and 20 s). The same text, lesson or " +
          "file twice in a knowledge base is one document (answered as it is). Answers 202 with the documents " +
          "`pending` and the indexing job; each is `processing` while indexed and ends `ready` (emitting " +
          "`kb_document_indexed`) or `failed` with its `error` (emitting `kb_document_failed`).",
        params: KbParams,
        body: AddDocumentsBody,
        response: { 202: AddedDocuments },
      },
    },
    async (request, reply) => {
      reply.code(202);
      return documents.addDocuments(
        db,
        tenantOf(request).id,
        requireUuid(request.params.kbId),
        request.body,
        principalOf(request),
      );
    },
  );

  app.delete(
    `${BASE}/:kbId/documents/:docId`,
    {
      config: { access: write },
      schema: {
        tags,
        summary: "Delete a document",
        description: "With its chunks; the knowledge base's counts drop by its own.",
        params: DocumentParams,
        response: { 204: Type.Null() },
      },
    },
    async (request, reply) => {
      await documents.deleteDocument(
        db,
        tenantOf(request).id,
        requireUuid(request.params.kbId),
        requireUuid(request.params.docId),
      );
      reply.code(204).send(null);
    },
  );

  app.post(
    `${BASE}/:kbId/reindex`,
    {
      config: { access: write },
      schema: {
        tags,
        summary: "Re-index a knowledge base",
        description:
          "Puts every document back to `pending` and queues one indexing job (202), which re-reads lessons and " +
          "files and re-chunks with the knowledge base's current chunking.",
        params: KbParams,
        response: { 202: ReindexJob },
      },
    },
    async (request, reply) => {
      reply.code(202);
      return reindexKnowledgeBase(
        db,
        tenantOf(request).id,
        requireUuid(request.params.kbId),
        principalOf(request),
      );
    },
  );

  app.post(
    `${BASE}/:kbId/search`,
    {
      config: { access: searcher, errors: [429, 502, 503] },
      schema: {
        tags,
        summary: "Search a knowledge base",
        description:
          "Ranked chunks with citations. Ranking is PostgreSQL full-text search: each chunk is matched in its " +
          "document's language (case and accents folded, words stemmed) against any word of the query, and scored " +
          "by ts_rank normalised to 0–1 (rank / (rank + 1)); `minScore` drops lower scores. When the institution's " +
          "AI provider names an `embeddingModel` and the chunks found were embedded with it, the rank is `hybrid`: " +
          "the first 100 full-text matches are re-ranked by reciprocal rank fusion of their full-text rank and the " +
          "cosine similarity of their embedding to the query's (one embeddings call, within the AI limits and " +
          "written to the usage ledger as `rag_search`; when it cannot be made, the rank is `text`). " +
          "`filters.courseId` keeps the knowledge base only if it is that course's; `filters.metadata` keeps chunks " +
          "whose document holds every pair given. A student's session searches only institution-wide knowledge " +
          "bases and those of the published courses it is enrolled in (others are 404). `answer: true` also " +
          "generates an answer citing the chunks it used ([n] = the n-th result) through the institution's " +
          "provider (503 `ai_not_configured` without one), within the AI limits (429 when used up), written to the " +
          "usage ledger as feature `rag_search`; with `stream: true` it comes as Server-Sent Events.",
        params: KbParams,
        body: SearchBody,
        response: {
          200: {
            description:
              "The ranked chunks (and the answer), or with `stream: true` their Server-Sent Events.",
            content: {
              "application/json": {
                schema: SearchResults,
                example: (SearchResults as { examples?: unknown[] }).examples?.[0],
              },
              "text/event-stream": { schema: Type.String() },
            },
          },
        },
      },
    },
    async (request, reply) => {
      const tenantId = tenantOf(request).id;
      const kbId = requireUuid(request.params.kbId);
      const principal = principalOf(request);
      const body = request.body;
      if (body.stream !== true) return searchAndAnswer(deps, tenantId, kbId, body, principal);
      if (body.answer !== true) {
        throw new AppError("validation_failed", { details: [{ field: "answer", key: "field.required" }] });
      }
      const found = await search(deps, tenantId, kbId, body, principal);
      // The client going away aborts the provider's request (answer-stream.ts settles what it used).
      const gone = new AbortController();
      reply.raw.on("close", () => {
        if (!reply.raw.writableFinished) gone.abort();
      });
      const events = await streamAnswer(deps, { tenantId, principal, text: body.query, found }, gone.signal);
      reply.header("content-type", "text/event-stream; charset=utf-8").header("cache-control", "no-cache");
      return reply.send(Readable.from(events) as never);
    },
  );
}
