import type { Executor } from "../../db/client.js";
import { AppError, type DetailKey, notFound } from "../../platform/errors/app-error.js";
import { cappedPageEnvelope, exactTotal } from "../../platform/pagination/capped.js";
import { pageWindow } from "../../platform/pagination/pagination.js";
import type { Actor } from "../events/actor.js";
import { enqueueJob } from "../jobs/service.js";
import * as docs from "./documents-repo.js";
import { sha256 } from "./hash.js";
import { lockMediaSources, mediaProblem } from "./media-source.js";
import * as repo from "./repo.js";
import type { AddDocumentsInput, DocumentInputType } from "./schemas.js";
import { findKnowledgeBaseRow } from "./service.js";

/** A text document's default title: its first words, up to 80 characters. */
function titleOf(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= 80 ? flat : `${flat.slice(0, 79)}…`;
}

export async function listDocuments(
  db: Executor,
  tenantId: string,
  kbId: string,
  query: { page?: number; perPage?: number },
) {
  const kb = await findKnowledgeBaseRow(db, tenantId, kbId);
  const window = pageWindow(query);
  const rows = await docs.listDocuments(db, tenantId, kbId, window);
  return cappedPageEnvelope(rows.map(docs.toDocumentRecord), exactTotal(Number(kb.documentCount)), window);
}

/** What each input needs (text, or a lesson's or file's id; not both), checked before anything is read. */
function shapeDetails(inputs: DocumentInputType[], prefix: (i: number) => string): DetailKey[] {
  const details: DetailKey[] = [];
  inputs.forEach((input, i) => {
    const [needed, other] =
      input.sourceType === "text" ? (["text", "sourceId"] as const) : (["sourceId", "text"] as const);
    if (input[needed] === undefined) details.push({ field: `${prefix(i)}${needed}`, key: "field.required" });
    if (input[other] !== undefined) {
      details.push({
        field: `${prefix(i)}${other}`,
        key: "field.not_for_type",
        params: { type: input.sourceType },
      });
    }
  });
  return details;
}

/** A document's dedupe key: `text:<sha-256>`, `lesson:<id>` or `media:<id>`. */
const keyOf = (input: DocumentInputType) =>
  input.sourceType === "text"
    ? `text:${sha256(input.text as string)}`
    : `${input.sourceType}:${(input.sourceId as string).toLowerCase()}`;
const rowKey = (row: docs.DocumentRow) =>
  row.sourceType === "text" ? `text:${row.contentHash}` : `${row.sourceType}:${row.sourceId}`;

/** The documents holding these keys already. */
function existing(tx: Executor, tenantId: string, kbId: string, keys: string[]) {
  const of = (type: string) =>
    keys.filter((k) => k.startsWith(`${type}:`)).map((k) => k.slice(type.length + 1));
  return docs.existingDocuments(tx, tenantId, kbId, {
    hashes: of("text"),
    lessonIds: of("lesson"),
    mediaIds: of("media"),
  });
}

/** The ids the inputs of one source type name, lowercased, once each. */
const idsOf = (inputs: DocumentInputType[], type: string) => [
  ...new Set(
    inputs.flatMap((x) =>
      x.sourceType !== type || x.sourceId === undefined ? [] : [x.sourceId.toLowerCase()],
    ),
  ),
];

/**
 * Adds documents to a knowledge base and queues one indexing job for the new ones, in one transaction. A text
 * already in the knowledge base (same SHA-256), or a lesson or file already in it, is answered as the document it is.
 */
export async function addDocuments(
  db: Executor,
  tenantId: string,
  kbId: string,
  body: AddDocumentsInput,
  actor: Actor,
) {
  const many = "documents" in body;
  const inputs = many ? body.documents : [body];
  const prefix = (i: number) => (many ? `documents[${i}].` : "");
  const shape = shapeDetails(inputs, prefix);
  if (shape.length > 0) throw new AppError("validation_failed", { details: shape });

  return db.transaction(async (tx) => {
    // Serialises additions to one knowledge base, so its counters and dedupe see each other.
    const kb = await repo.findKnowledgeBase(tx, tenantId, kbId, "no key update");
    if (kb === undefined) throw notFound();
    const lessons = new Map(
      (await docs.findLessons(tx, tenantId, idsOf(inputs, "lesson"))).map((l) => [l.id, l]),
    );
    const files = new Map(
      (await lockMediaSources(tx, tenantId, idsOf(inputs, "media"))).map((f) => [f.id, f]),
    );
    const details: DetailKey[] = [];
    inputs.forEach((input, i) => {
      if (input.sourceType === "text") return;
      const id = (input.sourceId as string).toLowerCase();
      const field = `${prefix(i)}sourceId`;
      if (input.sourceType === "media") {
        const problem = mediaProblem(files.get(id), id, field);
        if (problem !== undefined) details.push(problem);
        return;
      }
      const lesson = lessons.get(id);
      if (lesson === undefined || (kb.courseId !== null && lesson.courseId !== kb.courseId)) {
        details.push({ field, key: "field.unknown_lesson", params: { id } });
      } else if (lesson.type !== "text") {
        details.push({ field, key: "field.not_for_lesson_type", params: { type: lesson.type } });
      }
    });
    if (details.length > 0) throw new AppError("validation_failed", { details });

    const keys = inputs.map(keyOf);
    const byKey = new Map((await existing(tx, tenantId, kbId, keys)).map((row) => [rowKey(row), row]));
    const fresh = new Map<string, DocumentInputType>();
    inputs.forEach((input, i) => {
      const key = keys[i] as string;
      if (!byKey.has(key) && !fresh.has(key)) fresh.set(key, input);
    });
    const inserted = await docs.insertDocuments(
      tx,
      [...fresh.entries()].map(([key, input]) => {
        const id = input.sourceId?.toLowerCase();
        const lesson = input.sourceType === "lesson" && id !== undefined ? lessons.get(id) : undefined;
        const file = input.sourceType === "media" && id !== undefined ? files.get(id) : undefined;
        return {
          tenantId,
          knowledgeBaseId: kbId,
          sourceType: input.sourceType,
          sourceId: lesson?.id ?? file?.id ?? null,
          title: input.title ?? lesson?.title ?? file?.filename ?? titleOf(input.text ?? ""),
          language: input.language ?? "pt",
          text: input.text ?? null,
          courseId: lesson?.courseId ?? kb.courseId,
          metadata: input.metadata ?? {},
          contentHash: input.sourceType === "text" ? key.slice(5) : null,
        };
      }),
    );
    for (const row of inserted) byKey.set(rowKey(row), row);
    // A concurrent request may have added one of them between the read and the insert: read those back.
    const missing = keys.filter((k) => !byKey.has(k));
    if (missing.length > 0) {
      for (const row of await existing(tx, tenantId, kbId, missing)) byKey.set(rowKey(row), row);
    }
    let jobId: string | null = null;
    if (inserted.length > 0) {
      await repo.adjustCounts(tx, tenantId, kbId, { documents: inserted.length, pending: inserted.length });
      await repo.addLanguages(
        tx,
        tenantId,
        kbId,
        inserted.map((row) => row.language),
      );
      const job = await enqueueJob(tx, tenantId, {
        type: "kb_index",
        payload: { knowledgeBaseId: kbId, documentIds: inserted.map((row) => row.id) },
        actor,
      });
      jobId = job.id;
    }
    return {
      data: keys.map((k) => docs.toDocumentRecord(byKey.get(k) as docs.DocumentRow)),
      jobId,
    };
  });
}

/** Deletes a document with its chunks, taking its counts off the knowledge base's in the same transaction. */
export async function deleteDocument(
  db: Executor,
  tenantId: string,
  kbId: string,
  docId: string,
): Promise<void> {
  await db.transaction(async (tx) => {
    const kb = await repo.findKnowledgeBase(tx, tenantId, kbId, "no key update");
    if (kb === undefined) throw notFound();
    const row = await docs.deleteDocument(tx, tenantId, kbId, docId);
    if (row === undefined) throw notFound();
    const waiting = row.status === "pending" || row.status === "processing";
    await repo.adjustCounts(tx, tenantId, kbId, {
      documents: -1,
      chunks: -row.chunkCount,
      tokens: -row.tokenCount,
      pending: waiting ? -1 : 0,
      failed: row.status === "failed" ? -1 : 0,
    });
  });
}
