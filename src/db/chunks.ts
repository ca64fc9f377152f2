/**
 * Rows a bulk statement carries at most. A statement of 1,000+ rows took 150-1,600 ms to build and run (Drizzle's
 * multi-row VALUES, and on PGlite the engine itself, which runs on the event loop). In the stall-free test on the
 * idle machine, users/bulk's longest silence of the loop was 78-99 ms at 200 rows a statement and 40-49 ms at 100
 * (users go into a trigram index, the costliest insert): another tenant's request waits at most one chunk.
 */
export const BULK_CHUNK = 100;

/**
 * Runs `run` on consecutive slices of `rows` (each statement built per slice), in order. Between two statements
 * the event loop gets its turn from the database client (on PGlite, see `yieldAfterEachStatement`). Inside a
 * transaction, atomicity is the caller's: every slice runs on the same executor.
 */
export async function inChunks<T, R>(
  rows: readonly T[],
  run: (chunk: T[]) => Promise<readonly R[] | undefined>,
  size: number = BULK_CHUNK,
): Promise<R[]> {
  const out: R[] = [];
  for (let start = 0; start < rows.length; start += size) {
    const answer = await run(rows.slice(start, start + size));
    if (answer) for (const row of answer) out.push(row);
  }
  return out;
}
