import pino from "pino";
import { exitOnStartupFailure, openContext } from "./bootstrap.js";
import { loadConfig } from "./config/index.js";
import { closeContext } from "./platform/context.js";
import { withLogRedaction } from "./platform/http/log-redaction.js";
import { startWorker } from "./worker/runner.js";

/**
 * `npm run worker`: deliveries and scheduled jobs without the HTTP server. On the embedded database it joins a
 * running `npm start` through its socket (the database is that process's), and finds new deliveries by polling,
 * since notifications stay inside that process.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  // No request headers here; the serializers keep query values and tokens out of logged errors.
  const log = pino(withLogRedaction({ level: config.logLevel }, []));
  const ctx = await openContext(config, undefined, {
    onProgress: (message) => log.info(message),
    embedded: "join",
  });
  const worker = startWorker(ctx, log);
  const stop = async () => {
    await worker.stop();
    await closeContext(ctx);
    process.exit(0);
  };
  process.on("SIGTERM", () => void stop());
  process.on("SIGINT", () => void stop());
}

main().catch(exitOnStartupFailure);
