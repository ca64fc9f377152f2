import pino from "pino";
import { exitOnStartupFailure, openContext } from "./bootstrap.js";
import { ConfigError, loadConfig } from "./config/index.js";
import { closeContext } from "./platform/context.js";
import { withLogRedaction } from "./platform/http/log-redaction.js";
import { startWorker } from "./worker/runner.js";

/** `npm run worker`: deliveries and scheduled jobs without the HTTP server. */
async function main(): Promise<void> {
  const config = loadConfig();
  if (config.db.url === undefined) {
    throw new ConfigError(
      "npm run worker needs DATABASE_URL: on the embedded database the worker runs inside npm start (WORKER=on)",
    );
  }
  // No request headers here; the serializers keep query values and tokens out of logged errors.
  const log = pino(withLogRedaction({ level: config.logLevel }, []));
  const ctx = await openContext(config, undefined, { onProgress: (message) => log.info(message) });
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
