import { describe, expect, it } from "vitest";
import { chunkText, countTokens, MAX_TOKEN_CHARS } from "./chunking.js";

const words = (n: number) => Array.from({ length: n }, (_, i) => `w${i}`).join(" ");

describe("chunking", () => {
  it("cuts windows of maxTokens that overlap by overlapTokens, with offsets into the source", () => {
    const text = words(250);
    const chunks = chunkText(text, { maxTokens: 100, overlap: 20 });
    expect(chunks.map((c) => [c.tokenCount, c.text.split(" ")[0]])).toEqual([
      [100, "w0"],
      [100, "w80"],
      [90, "w160"],
    ]);
    for (const c of chunks) expect(text.slice(c.start, c.end)).toBe(c.text);
    expect(chunks.at(-1)?.text.endsWith("w249")).toBe(true);
  });

  it("answers one chunk for a short text and none for an empty or blank one", () => {
    expect(chunkText("  Olá,   mundo!\n", { maxTokens: 100, overlap: 50 })).toEqual([
      { position: 0, text: "Olá,   mundo!", start: 2, end: 15, tokenCount: 2 },
    ]);
    expect(chunkText(" \n\t ", { maxTokens: 100, overlap: 0 })).toEqual([]);
  });

  it("splits one very long word, so its work is linear in its length", () => {
    const word = "a".repeat(200_000);
    const started = performance.now();
    const chunks = chunkText(word, { maxTokens: 800, overlap: 400 });
    expect(performance.now() - started).toBeLessThan(500);
    expect(countTokens(word)).toBe(200_000 / MAX_TOKEN_CHARS);
    expect(chunks).toHaveLength(Math.ceil((4_000 - 800) / 400) + 1);
    expect(chunks.every((c) => c.text.length <= 800 * MAX_TOKEN_CHARS)).toBe(true);
    expect(chunks.at(-1)?.end).toBe(200_000);
  });
});
