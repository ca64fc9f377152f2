import type { Executor } from "../../db/client.js";
import { AppError, type DetailKey, notFound } from "../../platform/errors/app-error.js";
import { cappedPageEnvelope, exactTotal } from "../../platform/pagination/capped.js";
import { pageWindow } from "../../platform/pagination/pagination.js";
import type { Actor } from "../events/actor.js";
import { enqueueJob } from "../jobs/service.js";
import * as docs from "./documents-repo.js";
import { sha256 } from "./hash.js";
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

/** What each input needs (text or lesson, not both), checked before anything is read, every problem at once. */
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

/**
 * Adds documents to a knowledge base and queues one indexing job for the new ones, in one transaction. A text
 * already in the knowledge base (same SHA-256), or a lesson already in it, is answered as the document it is.
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
    const lessonIds = [
      ...new Set(inputs.flatMap((x) => (x.sourceId === undefined ? [] : [x.sourceId.toLowerCase()]))),
    ];
    const lessons = new Map((await docs.findLessons(tx, tenantId, lessonIds)).map((l) => [l.id, l]));
    const details: DetailKey[] = [];
    inputs.forEach((input, i) => {
      if (input.sourceType !== "lesson") return;
      const id = (input.sourceId as string).toLowerCase();
      const lesson = lessons.get(id);
      if (lesson === undefined || (kb.courseId !== null && lesson.courseId !== kb.courseId)) {
        details.push({ field: `${prefix(i)}sourceId`, key: "field.unknown_lesson", params: { id } });
      } else if (lesson.type !== "text") {
        details.push({
          field: `${prefix(i)}sourceId`,
          key: "field.not_for_lesson_type",
          params: { type: lesson.type },
        });
      }
    });
    if (details.length > 0) throw new AppError("validation_failed", { details });

    const keyOf = (input: DocumentInputType) =>
      input.sourceType === "text"
        ? `text:${sha256(input.text as string)}`
        : `lesson:${(input.sourceId as string).toLowerCase()}`;
    const keys = inputs.map(keyOf);
    const existing = await docs.existingDocuments(tx, tenantId, kbId, {
      hashes: keys.filter((k) => k.startsWith("text:")).map((k) => k.slice(5)),
      lessonIds: keys.filter((k) => k.startsWith("lesson:")).map((k) => k.slice(7)),
    });
    const byKey = new Map(
      existing.map((row) => [
        row.sourceType === "text" ? `text:${row.contentHash}` : `lesson:${row.sourceId}`,
        row,
      ]),
    );
    const fresh = new Map<string, DocumentInputType>();
    inputs.forEach((input, i) => {
      const key = keys[i] as string;
      if (!byKey.has(key) && !fresh.has(key)) fresh.set(key, input);
    });
    const inserted = await docs.insertDocuments(
      tx,
      [...fresh.entries()].map(([key, input]) => {
        const lesson = input.sourceId === undefined ? undefined : lessons.get(input.sourceId.toLowerCase());
        return {
          tenantId,
          knowledgeBaseId: kbId,
          sourceType: input.sourceType,
          sourceId: lesson?.id ?? null,
          title: input.title ?? lesson?.title ?? titleOf(input.text ?? ""),
          language: input.language ?? "pt",
          text: input.text ?? null,
          courseId: lesson?.courseId ?? kb.courseId,
          metadata: input.metadata ?? {},
          contentHash: input.sourceType === "text" ? key.slice(5) : null,
        };
      }),
    );
    for (const row of inserted) {
      byKey.set(row.sourceType === "text" ? `text:${row.contentHash}` : `lesson:${row.sourceId}`, row);
    }
    // A concurrent request may have added one of them between the read and the insert: read those back.
    const missing = keys.filter((k) => !byKey.has(k));
    if (missing.length > 0) {
      const raced = await docs.existingDocuments(tx, tenantId, kbId, {
        hashes: missing.filter((k) => k.startsWith("text:")).map((k) => k.slice(5)),
        lessonIds: missing.filter((k) => k.startsWith("lesson:")).map((k) => k.slice(7)),
      });
      for (const row of raced)
        byKey.set(row.sourceType === "text" ? `text:${row.contentHash}` : `lesson:${row.sourceId}`, row);
    }
    let jobId: string | null = null;
    if (inserted.length > 0) {
      await repo.adjustCounts(tx, tenantId, kbId, { documents: inserted.length, pending: inserted.length });
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
