import pino from "pino";
import { ConfigError, loadConfig } from "./config/index.js";
import { DataDirInUseError, openDatabase } from "./db/client.js";
import { closeContext, createContext } from "./platform/context.js";
import { startWorker } from "./worker/runner.js";

/** `npm run worker`: deliveries and scheduled jobs without the HTTP server. */
async function main(): Promise<void> {
  const config = loadConfig();
  if (config.db.url === undefined) {
    throw new ConfigError(
      "npm run worker needs DATABASE_URL: on the embedded database the worker runs inside npm start (WORKER=on)",
    );
  }
  const log = pino({ level: config.logLevel });
  const database = await openDatabase({
    url: config.db.url,
    dataDir: config.db.dataDir,
    poolSize: config.db.poolSize,
  });
  await database.migrate();
  const ctx = createContext(config, database);
  const worker = startWorker(ctx, log);
  const stop = async () => {
    await worker.stop();
    await closeContext(ctx);
    await database.close();
    process.exit(0);
  };
  process.on("SIGTERM", () => void stop());
  process.on("SIGINT", () => void stop());
}

main().catch((err: unknown) => {
  console.error(
    err instanceof ConfigError || err instanceof DataDirInUseError
      ? `configuration error: ${err.message}`
      : err,
  );
  process.exit(1);
});
