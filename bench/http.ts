/** A plain HTTP client for the checks made around the loads (bench/run.ts, bench/catalogue.ts), not for load. */
import { request } from "node:http";
import type { AddressInfo } from "node:net";
import { buildApp } from "../src/app.js";
import type { Config } from "../src/config/index.js";
import type { Database } from "../src/db/client.js";
import { createContext } from "../src/platform/context.js";

/** One request to the local server; the body is parsed as JSON when it is JSON. */
export function requestJson(
  port: number,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; body: unknown }> {
  return new Promise((resolvePromise, reject) => {
    const method = body === undefined ? "GET" : "POST";
    const req = request({ host: "127.0.0.1", port, path, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        try {
          resolvePromise({ status: res.statusCode ?? 0, body: JSON.parse(text) as unknown });
        } catch {
          resolvePromise({ status: res.statusCode ?? 0, body: text });
        }
      });
    });
    req.on("error", reject);
    req.end(body);
  });
}

/** The real app on a loopback port of this process, with its context, and the address to call it at. */
export async function listenApp(database: Database, config: Config) {
  const ctx = createContext(config, database);
  const app = await buildApp(ctx, { logger: false });
  await app.listen({ host: "127.0.0.1", port: 0 });
  return { app, ctx, base: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}` };
}
