/**
 * The sender of scenarios (g0), (g), (h), (p) and (pl), in a child process of bench/run.ts (started by
 * bench/deliveries.ts) so that it has a core of its own, apart from the receiver and the emitter in the parent:
 *   (g0) raw undici POSTs: a `Pool` of `concurrency` keep-alive connections, one request in flight on each,
 *        for a given time ("rawPosts");
 *   (g), (h) the webhook delivery loop as `npm run worker` runs it: `openContext(loadConfig(env))`, then
 *        `startDeliveryLoop` with the options production derives from the config and an OutboundClient made as
 *        the loop makes its own (`createOutboundClient(config.outbound, {resolve})`), kept across
 *        "stopLoop"/"startLoop" so that the loop can be paused while the parent seeds the outbox and restarted
 *        without new connections;
 *   (p), (pl) graphile-worker (bench/peer-worker.ts) with the same client, keyring and timeout ("startPeer",
 *        "stopPeer").
 * "cpuUsage" answers the process's CPU time, which the parent reads before and after a phase (CPU per delivery).
 * The logger is pino at level warn: the loop's per-attempt `info` line is not written (as bench/server.ts runs
 * the app without request logging).
 */
import pino from "pino";
import { Pool } from "undici";
import { openContext } from "../src/bootstrap.js";
import { loadConfig } from "../src/config/index.js";
import { keyringFrom } from "../src/modules/outbox/deliver.js";
import { type DeliveryLoop, startDeliveryLoop } from "../src/modules/outbox/worker.js";
import { closeContext } from "../src/platform/context.js";
import { createOutboundClient } from "../src/platform/outbound/client.js";
import { type PeerRunner, startPeer } from "./peer-worker.js";
import type {
  CpuTime,
  DeliveryWorkerConfig,
  PeerSummary,
  RawPostsRequest,
  RawPostsResult,
  WorkerChildMessage,
  WorkerParentMessage,
} from "./protocol.js";
import { DELIVERY_WORKER_CONFIG_ENV, summarise } from "./protocol.js";

function send(message: WorkerChildMessage): void {
  process.send?.(message);
}

const describe = (err: unknown) => (err instanceof Error ? (err.stack ?? err.message) : String(err));

async function rawPosts(req: RawPostsRequest): Promise<RawPostsResult> {
  const url = new URL(req.url);
  const pool = new Pool(url.origin, { connections: req.concurrency, keepAliveTimeout: 4_000 });
  const latencies: number[] = [];
  let non2xx = 0;
  let errors = 0;
  const started = performance.now();
  const deadline = started + req.seconds * 1000;
  const lane = async () => {
    while (performance.now() < deadline) {
      const t = performance.now();
      try {
        const res = await pool.request({
          path: url.pathname,
          method: "POST",
          headers: req.headers,
          body: req.body,
        });
        await res.body.dump();
        latencies.push(performance.now() - t);
        if (res.statusCode < 200 || res.statusCode >= 300) non2xx++;
      } catch {
        errors++;
      }
    }
  };
  await Promise.all(Array.from({ length: req.concurrency }, lane));
  const seconds = (performance.now() - started) / 1000;
  await pool.close();
  return { requests: latencies.length, non2xx, errors, seconds, latencyMs: summarise(latencies) };
}

const raw = process.env[DELIVERY_WORKER_CONFIG_ENV];
if (raw === undefined) {
  throw new Error(`${DELIVERY_WORKER_CONFIG_ENV} is not set: run this through bench/run.ts`);
}
const config = JSON.parse(raw) as DeliveryWorkerConfig;

type Answer = { result?: RawPostsResult; cpu?: CpuTime; peer?: PeerSummary };

async function main(): Promise<void> {
  const appConfig = loadConfig(config.env);
  const ctx = await openContext(appConfig);
  const log = pino({ level: "warn" });
  const client = createOutboundClient(appConfig.outbound, { resolve: ctx.resolve });
  let loop: DeliveryLoop | undefined;
  let peer: PeerRunner | undefined;

  const handle = async (message: WorkerParentMessage): Promise<Answer> => {
    switch (message.type) {
      case "rawPosts":
        return { result: await rawPosts(message.request) };
      case "startLoop":
        if (loop === undefined) loop = startDeliveryLoop(ctx, log, { client });
        return {};
      case "stopLoop":
        await loop?.stop();
        loop = undefined;
        return {};
      case "startPeer": {
        if (peer !== undefined) throw new Error("the peer runner is already running");
        const connectionString = appConfig.db.url;
        if (connectionString === undefined) throw new Error("the peer needs DATABASE_URL (PostgreSQL)");
        peer = await startPeer(message.options, {
          connectionString,
          client,
          keyring: keyringFrom(ctx),
          timeoutMs: appConfig.outbound.timeoutMs,
        });
        return {};
      }
      case "stopPeer": {
        if (peer === undefined) throw new Error("the peer runner is not running");
        const summary = await peer.stop();
        peer = undefined;
        return { peer: summary };
      }
      case "cpuUsage": {
        const usage = process.cpuUsage();
        return { cpu: { userUs: usage.user, systemUs: usage.system } };
      }
      case "exit":
        await loop?.stop();
        await peer?.stop();
        await client.close();
        await closeContext(ctx);
        process.exit(0);
    }
  };

  process.on("message", (message: WorkerParentMessage) => {
    const requestId = message.type === "exit" ? undefined : message.requestId;
    handle(message).then(
      (answer) => {
        if (requestId !== undefined) send({ type: "done", requestId, ...answer });
      },
      (err: unknown) =>
        send({ type: "error", ...(requestId === undefined ? {} : { requestId }), message: describe(err) }),
    );
  });
  // The parent gone (a failed run): leave rather than hold database connections.
  process.on("disconnect", () => process.exit(1));
  send({ type: "ready" });
}

main().catch((err: unknown) => {
  send({ type: "error", message: describe(err) });
  process.exit(1);
});
