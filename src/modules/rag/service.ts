import type { Executor } from "../../db/client.js";
import { notFound, validationError } from "../../platform/errors/app-error.js";
import { cappedPageEnvelope } from "../../platform/pagination/capped.js";
import { pageWindow } from "../../platform/pagination/pagination.js";
import { courseExists } from "../courses/repo.js";
import { AUTO_CHUNKING } from "./chunking.js";
import * as repo from "./repo.js";
import type {
  ChunkingInputType,
  CreateKnowledgeBaseInput,
  KnowledgeBaseRecord,
  ListKnowledgeBasesQueryType,
  UpdateKnowledgeBaseInput,
} from "./schemas.js";

/** The sizes a chunking setting stands for; `fixed` names its own, within 100–4000 and an overlap ≤ max/2. */
function chunkingOf(input: ChunkingInputType): {
  chunkingStrategy: string;
  maxChunkTokens: number;
  overlapTokens: number;
} {
  if (input.strategy === "auto") {
    for (const field of ["maxChunkTokens", "overlapTokens"] as const) {
      if (input[field] !== undefined)
        throw validationError(`chunking.${field}`, "field.not_for_type", { type: "auto" });
    }
    return {
      chunkingStrategy: "auto",
      maxChunkTokens: AUTO_CHUNKING.maxChunkTokens,
      overlapTokens: AUTO_CHUNKING.overlapTokens,
    };
  }
  if (input.maxChunkTokens === undefined) throw validationError("chunking.maxChunkTokens", "field.required");
  const overlap = input.overlapTokens ?? 0;
  const most = Math.floor(input.maxChunkTokens / 2);
  if (overlap > most) throw validationError("chunking.overlapTokens", "field.maximum", { limit: most });
  return { chunkingStrategy: "fixed", maxChunkTokens: input.maxChunkTokens, overlapTokens: overlap };
}

export async function listKnowledgeBases(db: Executor, tenantId: string, query: ListKnowledgeBasesQueryType) {
  const window = pageWindow(query);
  const filter = { courseId: query.courseId?.toLowerCase() };
  const [rows, total] = await Promise.all([
    repo.listKnowledgeBases(db, tenantId, filter, window),
    repo.countKnowledgeBases(db, tenantId, filter),
  ]);
  return cappedPageEnvelope(rows.map(repo.toRecord), total, window);
}

export async function findKnowledgeBaseRow(db: Executor, tenantId: string, id: string) {
  const row = await repo.findKnowledgeBase(db, tenantId, id);
  if (row === undefined) throw notFound();
  return row;
}

export async function getKnowledgeBase(
  db: Executor,
  tenantId: string,
  id: string,
): Promise<KnowledgeBaseRecord> {
  return repo.toRecord(await findKnowledgeBaseRow(db, tenantId, id));
}

export async function createKnowledgeBase(
  db: Executor,
  tenantId: string,
  input: CreateKnowledgeBaseInput,
): Promise<KnowledgeBaseRecord> {
  const scope = input.scope ?? "institution";
  const courseId = input.courseId ?? null;
  if (scope === "course" && courseId === null) throw validationError("courseId", "field.required");
  if (scope === "institution" && courseId !== null) {
    throw validationError("courseId", "field.not_for_type", { type: "institution" });
  }
  if (courseId !== null && !(await courseExists(db, tenantId, courseId))) {
    throw validationError("courseId", "field.unknown_course", { id: courseId });
  }
  const row = await repo.insertKnowledgeBase(db, {
    tenantId,
    name: input.name,
    description: input.description ?? null,
    scope,
    courseId,
    ...chunkingOf(input.chunking ?? { strategy: "auto" }),
    autoSyncCourseContent: input.autoSync?.courseContent ?? false,
  });
  return repo.toRecord(row);
}

/** A new chunking applies to the documents indexed from then on (POST …/reindex re-chunks the others). */
export async function updateKnowledgeBase(
  db: Executor,
  tenantId: string,
  id: string,
  input: UpdateKnowledgeBaseInput,
): Promise<KnowledgeBaseRecord> {
  const row = await repo.updateKnowledgeBase(db, tenantId, id, {
    ...(input.name === undefined ? {} : { name: input.name }),
    ...(input.description === undefined ? {} : { description: input.description }),
    ...(input.chunking === undefined ? {} : chunkingOf(input.chunking)),
    ...(input.autoSync === undefined ? {} : { autoSyncCourseContent: input.autoSync.courseContent }),
  });
  if (row === undefined) throw notFound();
  return repo.toRecord(row);
}

/** Deletes the knowledge base with its documents and chunks (foreign keys cascade); its queued jobs find nothing. */
export async function deleteKnowledgeBase(db: Executor, tenantId: string, id: string): Promise<void> {
  if (!(await repo.deleteKnowledgeBase(db, tenantId, id))) throw notFound();
}
