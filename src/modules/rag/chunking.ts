/**
 * Chunking with overlap. A token is a run of non-space characters (a word with its punctuation), the unit the
 * chunk sizes count; a run longer than MAX_TOKEN_CHARS is cut into pieces of that length, so a document of one
 * 200,000-character word is 4,000 tokens and is chunked in linear time like any other text (one regex pass, one
 * walk over the tokens). Offsets are UTF-16 positions in the source text, as JavaScript and clients slice it.
 */

export const MAX_TOKEN_CHARS = 50;
/** OpenAI's `auto` chunking, which the knowledge bases' `auto` strategy copies. */
export const AUTO_CHUNKING = { maxChunkTokens: 800, overlapTokens: 400 } as const;

export interface Chunk {
  position: number;
  text: string;
  start: number;
  end: number;
  tokenCount: number;
}

/** Start and end offsets of every token, long runs cut into pieces. */
export function tokenSpans(text: string): Int32Array {
  const spans: number[] = [];
  const run = /\S+/g;
  for (let m = run.exec(text); m !== null; m = run.exec(text)) {
    const end = m.index + m[0].length;
    for (let start = m.index; start < end; start += MAX_TOKEN_CHARS) {
      spans.push(start, Math.min(end, start + MAX_TOKEN_CHARS));
    }
  }
  return Int32Array.from(spans);
}

export function countTokens(text: string): number {
  return tokenSpans(text).length / 2;
}

/**
 * Windows of `maxTokens` tokens, each starting `maxTokens - overlap` tokens after the previous one; the last
 * window ends at the last token. Each chunk's text is the source between its first token's start and its last
 * token's end, spaces and line breaks kept.
 */
export function chunkText(text: string, options: { maxTokens: number; overlap: number }): Chunk[] {
  const spans = tokenSpans(text);
  const tokens = spans.length / 2;
  const step = Math.max(1, options.maxTokens - Math.min(options.overlap, Math.floor(options.maxTokens / 2)));
  const chunks: Chunk[] = [];
  for (let first = 0; first < tokens; first += step) {
    const last = Math.min(tokens, first + options.maxTokens) - 1;
    const start = spans[first * 2] as number;
    const end = spans[last * 2 + 1] as number;
    chunks.push({
      position: chunks.length,
      text: text.slice(start, end),
      start,
      end,
      tokenCount: last - first + 1,
    });
    if (last === tokens - 1) break;
  }
  return chunks;
}
