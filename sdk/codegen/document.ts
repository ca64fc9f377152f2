/**
 * The API's OpenAPI document exactly as the server serves it at GET /openapi.json: the app built on an in-memory
 * PGlite (the document depends on the routes, not on the data), asked through its own route.
 */
import { randomBytes } from "node:crypto";
import { buildApp } from "../../src/app.js";
import { openContext } from "../../src/bootstrap.js";
import { loadConfig } from "../../src/config/index.js";
import { closeContext } from "../../src/platform/context.js";

export async function servedDocument(): Promise<Record<string, unknown>> {
  const config = loadConfig({
    NODE_ENV: "test",
    DATA_DIR: ":memory:",
    SESSION_SECRET: randomBytes(32).toString("hex"),
    SECRETS_ENCRYPTION_KEY: randomBytes(32).toString("hex"),
    WORKER: "off",
  });
  const ctx = await openContext(config, 1);
  try {
    const app = await buildApp(ctx, { logger: false });
    try {
      const res = await app.inject({ method: "GET", url: "/openapi.json" });
      if (res.statusCode !== 200) throw new Error(`GET /openapi.json answered ${res.statusCode}`);
      return res.json() as Record<string, unknown>;
    } finally {
      await app.close();
    }
  } finally {
    await closeContext(ctx);
  }
}
