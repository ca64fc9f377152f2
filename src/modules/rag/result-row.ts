/** A chunk as search reads it (search.ts), and the result it answers. */
import type { SearchResultRecord } from "./search-schemas.js";

export interface Row {
  id: string;
  document_id: string;
  text: string;
  start_offset: number;
  end_offset: number;
  page: number | null;
  title: string;
  source_type: string;
  source_id: string | null;
  metadata: Record<string, string>;
  score: number;
  /** With an embeddings model: whether the chunk holds a vector of it. */
  embedded?: boolean;
}

export const resultOf = (
  r: Row,
  extra: { score?: number; similarity?: number | null } = {},
): SearchResultRecord => ({
  chunkId: r.id,
  documentId: r.document_id,
  score: extra.score ?? Number(r.score),
  ...(extra.similarity === undefined ? {} : { similarity: extra.similarity }),
  text: r.text,
  metadata: r.metadata ?? {},
  citation: {
    title: r.title,
    lessonId: r.source_type === "lesson" ? r.source_id : null,
    mediaId: r.source_type === "media" ? r.source_id : null,
    page: r.page === null ? null : Number(r.page),
    start: Number(r.start_offset),
    end: Number(r.end_offset),
  },
});
