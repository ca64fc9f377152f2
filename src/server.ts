import pino from "pino";
import { buildApp } from "./app.js";
import { exitOnStartupFailure, openContext } from "./bootstrap.js";
import { loadConfig } from "./config/index.js";
import { closeContext } from "./platform/context.js";

/** config → database (migrated) → app → listen; the worker runs in-process unless WORKER=off. */
async function main(): Promise<void> {
  const config = loadConfig();
  // The app's own logger exists once the database is open; start-up says what it does before that.
  const startup = pino({ level: config.logLevel });
  const ctx = await openContext(config, undefined, {
    onProgress: (message) => startup.info(message),
    serve: true,
  });
  const app = await buildApp(ctx);
  // Loaded only when it runs in this process: its mail and delivery clients (nodemailer, undici) are memory a
  // server started with WORKER=off (a worker process of its own) never uses.
  const worker = config.worker ? (await import("./worker/runner.js")).startWorker(ctx, app.log) : undefined;

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, "shutting down: finishing in-flight requests");
    // Stop taking work, let in-flight requests finish, then release the database and Redis.
    const timer = setTimeout(() => {
      app.log.error("shutdown took too long; exiting");
      process.exit(1);
    }, 15_000);
    timer.unref();
    try {
      await worker?.stop();
      await app.close();
      await closeContext(ctx);
      process.exit(0);
    } catch (err) {
      app.log.error({ err }, "error during shutdown");
      process.exit(1);
    }
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));

  await app.listen({ host: config.host, port: config.port });
  app.log.info(
    { database: ctx.database.kind, rateLimitStore: ctx.limiters.store, worker: config.worker },
    `Aula API on http://${config.host}:${config.port} (tenants at <slug>.${config.baseDomain}:${config.port})`,
  );
}

main().catch(exitOnStartupFailure);
