/**
 * The peer of scenarios (p) and (pl), in the delivery worker child (bench/delivery-worker.ts): graphile-worker's
 * `run()` with one task, `deliver`, that makes the same attempt our loop makes — open the automation's sealed
 * secret with the worker's keyring (`openSigningSecret`), sign and POST through the same OutboundClient
 * (`sendDelivery`) — so that only the queue engine differs: how jobs are claimed, woken and completed. A task
 * that does not get a 2xx throws, as graphile-worker's tasks report failure (it would retry the job).
 *
 * Like our worker, the task opens each automation's sealed secret once and keeps it by its sealed form (a rotated
 * secret is another sealed string). Our loop also completes the delivery row with its successful attempt (and its
 * endpoint's statistics); graphile-worker's counterpart is completing the job (deleting its row), which it batches with
 * completeJobBatchDelay.
 */
import { EventEmitter } from "node:events";
import { Logger, type Runner, run, type Task, type WorkerEvents } from "graphile-worker";
import { openSigningSecret, sendDelivery } from "../src/modules/outbox/send.js";
import type { Keyring } from "../src/platform/crypto/secret-box.js";
import type { OutboundClient } from "../src/platform/outbound/client.js";
import type { PeerJob, PeerRunOptions, PeerSummary } from "./protocol.js";

/** Task failure messages kept for the report. */
const KEPT_ERRORS = 5;

export interface PeerDeps {
  connectionString: string;
  client: OutboundClient;
  keyring: Keyring;
  timeoutMs: number;
}

export interface PeerRunner {
  /** Stops the runner gracefully (jobs in flight finish, batched completions flush) and says what it did. */
  stop(): Promise<PeerSummary>;
}

/** graphile-worker's own lines at `error` only, like the loop's pino at warn: no per-job line. */
export const quietLogger = new Logger(() => (level, message) => {
  if (String(level) === "error") console.error(`graphile-worker: ${message}`);
});

export async function startPeer(options: PeerRunOptions, deps: PeerDeps): Promise<PeerRunner> {
  const startedAt: Record<string, number> = {};
  const durationsMs: number[] = [];
  const secrets = new Map<string, string>();
  let completed = 0;
  let errors = 0;
  const errorMessages: string[] = [];

  const deliver: Task = async (payload, helpers) => {
    const job = payload as PeerJob;
    startedAt[job.id] = performance.timeOrigin + performance.now();
    const delivery = { ...job, attempt: helpers.job.attempts };
    let secret = secrets.get(job.signingSecret);
    if (secret === undefined) {
      const opened = openSigningSecret(delivery, deps.keyring);
      if (!opened.ok) throw new Error(`the signing secret cannot be opened (${opened.code})`);
      secret = opened.secret;
      secrets.set(job.signingSecret, secret);
    }
    const result = await sendDelivery(deps.client, delivery, secret, { timeoutMs: deps.timeoutMs });
    if (!result.ok) throw new Error(`${result.kind}: ${result.message}`);
    if (result.status < 200 || result.status >= 300) throw new Error(`answered ${result.status}`);
    durationsMs.push(result.durationMs);
    completed++;
  };

  const events = new EventEmitter() as WorkerEvents;
  events.on("job:error", ({ error }) => {
    errors++;
    if (errorMessages.length < KEPT_ERRORS) errorMessages.push(String(error));
  });

  const runner: Runner = await run({
    connectionString: deps.connectionString,
    taskList: { deliver },
    concurrency: options.concurrency,
    maxPoolSize: options.maxPoolSize,
    noHandleSignals: true,
    logger: quietLogger,
    events,
    preset: {
      worker: {
        localQueue: { size: options.localQueueSize },
        completeJobBatchDelay: options.completeJobBatchDelay,
        failJobBatchDelay: options.completeJobBatchDelay,
      },
    },
  });
  return {
    async stop() {
      await runner.stop();
      await runner.promise;
      return { completed, errors, errorMessages, startedAt, durationsMs };
    },
  };
}
