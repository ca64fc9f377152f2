/**
 * The fake provider's embeddings (fake-openai.ts): a hashed bag of words. Each word (case and accents folded) adds
 * one to the dimension its FNV-1a hash picks, so texts sharing words are close and the vector of a text is the
 * same every time. Unlike full-text search, it keeps every word (stop words too) and counts each once per use
 * without stemming or length normalisation: a passage can be close in these terms and far in ts_rank's.
 */
export const FAKE_EMBEDDING_DIMS = 256;

function fnv1a(word: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < word.length; i += 1) {
    h ^= word.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

export function fakeEmbedding(text: string): number[] {
  const v = new Array<number>(FAKE_EMBEDDING_DIMS).fill(0);
  const folded = text.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();
  for (const m of folded.matchAll(/[\p{L}\p{N}]+/gu)) {
    const i = fnv1a(m[0]) % FAKE_EMBEDDING_DIMS;
    v[i] = (v[i] as number) + 1;
  }
  return v;
}
