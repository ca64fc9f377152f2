import { monitorEventLoopDelay, performance } from "node:perf_hooks";

export interface LoopBlock<T> {
  result: T;
  /** The longest the event loop was kept from turning while `run` was in flight, in ms (perf_hooks). */
  maxBlockMs: number;
  /** Wall time of `run`, in ms. */
  elapsedMs: number;
}

/**
 * Runs `run` while perf_hooks samples the event loop every millisecond, and answers the longest delay seen: the
 * longest stretch of synchronous work any part of the request (our code, the driver, PGlite's engine) did
 * without giving the loop back, which is how long another tenant's request would have waited behind it.
 */
export async function measureLoopBlock<T>(run: () => Promise<T>): Promise<LoopBlock<T>> {
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  // Let the sampler's timer start before the work does.
  await new Promise((resolve) => setTimeout(resolve, 5));
  histogram.enable();
  // A 1 ms ticker beside the histogram: the longest gap between its turns is the longest silence.
  let last = performance.now();
  let longestGap = 0;
  const ticker = setInterval(() => {
    const now = performance.now();
    longestGap = Math.max(longestGap, now - last);
    last = now;
  }, 1);
  const started = performance.now();
  try {
    const result = await run();
    const elapsedMs = performance.now() - started;
    // One more turn so a block that ended the request is sampled.
    await new Promise((resolve) => setTimeout(resolve, 5));
    return { result, maxBlockMs: Math.max(histogram.max / 1e6, longestGap), elapsedMs };
  } finally {
    clearInterval(ticker);
    histogram.disable();
  }
}
