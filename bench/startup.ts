/**
 * (s) Start-up (issue 21, point 1): how long a warm `npm start` takes to its first answer. `npm start` compiles
 * first (prestart: `tsc -b`, which checks that dist/ is up to date and compiles only when a source changed) and then starts the server on the
 * embedded database. One start on a fresh data directory first (it migrates: the cold figure), stopped with
 * SIGTERM; then BENCH_STARTUP warm starts on the same directory, each from the spawn of `npm start` to the first
 * 200 of GET /readyz. Target: the median warm start ≤ 5 s on this machine.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface StartupResult {
  coldSeconds: number;
  warmSeconds: number[];
  medianWarmSeconds: number;
  targetSeconds: number;
}

const TARGET_SECONDS = 5;
const PORT = 39_141;

async function ready(deadline: number): Promise<void> {
  while (Date.now() < deadline) {
    try {
      const res = await fetch(`http://127.0.0.1:${PORT}/readyz`);
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error("npm start did not answer /readyz within 120 s");
}

/** Spawns `npm start` in `root` on `dataDir`, waits for /readyz, stops it; answers the seconds to the answer. */
async function startOnce(root: string, dataDir: string): Promise<number> {
  const started = performance.now();
  const child = spawn("npm", ["start", "--silent"], {
    cwd: root,
    env: { ...process.env, PORT: String(PORT), DATA_DIR: dataDir, LOG_LEVEL: "warn", DATABASE_URL: "" },
    stdio: ["ignore", "ignore", "inherit"],
    detached: true,
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  try {
    await ready(Date.now() + 120_000);
    return (performance.now() - started) / 1000;
  } finally {
    // npm runs node as its child: signal the whole group.
    if (child.pid !== undefined) process.kill(-child.pid, "SIGTERM");
    await exited;
    await portFree(Date.now() + 30_000);
  }
}

/** npm can exit before the server it started has closed: the next start must not find the old one answering. */
async function portFree(deadline: number): Promise<void> {
  while (Date.now() < deadline) {
    try {
      await fetch(`http://127.0.0.1:${PORT}/readyz`);
    } catch {
      return;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`the server on port ${PORT} did not stop within 30 s`);
}

export async function measureStartup(root: string, warmRuns: number): Promise<StartupResult> {
  const dataDir = mkdtempSync(join(tmpdir(), "aula-bench-startup-"));
  try {
    const coldSeconds = await startOnce(root, dataDir);
    const warmSeconds: number[] = [];
    for (let i = 0; i < warmRuns; i++) warmSeconds.push(await startOnce(root, dataDir));
    const sorted = [...warmSeconds].sort((x, y) => x - y);
    const medianWarmSeconds = sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
    const round = (s: number) => Math.round(s * 100) / 100;
    return {
      coldSeconds: round(coldSeconds),
      warmSeconds: warmSeconds.map(round),
      medianWarmSeconds: round(medianWarmSeconds),
      targetSeconds: TARGET_SECONDS,
    };
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
