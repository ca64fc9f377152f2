/**
 * The sender of scenario (k), in a child process of bench/run.ts (started by bench/fairness.ts) so that it has a
 * core of its own, apart from the receiver in the parent. It runs the delivery loop exactly as `npm run worker`
 * does: `openContext(loadConfig(env))`, then `startDeliveryLoop(ctx, log)` with no options, so every setting
 * (concurrency, per-endpoint cap, poll, lease) is production's default from the configuration: (k) measures the
 * engine's own defaults, whatever the engine on main is when the bench runs.
 */
import pino from "pino";
import { openContext } from "../src/bootstrap.js";
import { loadConfig } from "../src/config/index.js";
import { type DeliveryLoop, startDeliveryLoop } from "../src/modules/outbox/worker.js";
import { closeContext } from "../src/platform/context.js";
import type { WorkerChildMessage, WorkerParentMessage } from "./protocol.js";

/** The worker's configuration environment, as JSON (set by bench/fairness.ts). */
export const FAIRNESS_WORKER_ENV = "BENCH_FAIRNESS_WORKER_ENV";

function send(message: WorkerChildMessage): void {
  process.send?.(message);
}

const describe = (err: unknown) => (err instanceof Error ? (err.stack ?? err.message) : String(err));

async function main(raw: string): Promise<void> {
  const ctx = await openContext(loadConfig(JSON.parse(raw) as Record<string, string>));
  // Level warn: the loop's per-attempt info line is not written (as in (g)).
  const log = pino({ level: "warn" });
  let loop: DeliveryLoop | undefined;

  const handle = async (message: WorkerParentMessage): Promise<void> => {
    switch (message.type) {
      case "rawPosts":
        throw new Error("rawPosts is (g0)'s, not (k)'s");
      case "startLoop":
        if (loop === undefined) loop = startDeliveryLoop(ctx, log);
        return;
      case "stopLoop":
        await loop?.stop();
        loop = undefined;
        return;
      case "exit":
        await loop?.stop();
        await closeContext(ctx);
        process.exit(0);
    }
  };

  process.on("message", (message: WorkerParentMessage) => {
    const requestId = message.type === "exit" ? undefined : message.requestId;
    handle(message).then(
      () => {
        if (requestId !== undefined) send({ type: "done", requestId });
      },
      (err: unknown) =>
        send({ type: "error", ...(requestId === undefined ? {} : { requestId }), message: describe(err) }),
    );
  });
  // The parent gone (a failed run): leave rather than hold database connections.
  process.on("disconnect", () => process.exit(1));
  send({ type: "ready" });
}

// Only as a child: bench/fairness.ts imports the constant above from this file.
const raw = process.env[FAIRNESS_WORKER_ENV];
if (raw !== undefined && process.send !== undefined) {
  main(raw).catch((err: unknown) => {
    send({ type: "error", message: describe(err) });
    process.exit(1);
  });
}
