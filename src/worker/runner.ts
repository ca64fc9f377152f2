import type { FastifyBaseLogger } from "fastify";
import type { AppContext } from "../platform/context.js";

export interface Worker {
  stop(): Promise<void>;
}

/**
 * Background work: webhook deliveries and scheduled jobs (billing grace expiry, inactivity scans) register here
 * as they are built. Today there is no job yet, so the worker only reports that it is up.
 */
export function startWorker(_ctx: AppContext, log: FastifyBaseLogger): Worker {
  log.info("worker started (no scheduled jobs registered yet)");
  return { stop: async () => {} };
}
