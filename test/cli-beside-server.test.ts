/**
 * The CLI and a worker beside a running `npm start` on the embedded database (issue 21): compiled as production
 * runs them, the server on a fresh data directory serves its database over the socket in that directory, the
 * CLI creates a tenant through it, and the server answers on that tenant's host at once. Without a server, the
 * CLI opens the directory itself, and a worker says it has nothing to join.
 *
 * Embedded database only; the children get an environment of their own, so on the PostgreSQL pass (DATABASE_URL
 * set) this would only run the same thing again.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { knownMigrations } from "../src/db/migrations-folder.js";
import { socketPath } from "../src/db/pglite-socket.js";
import { type Build, buildService } from "./support-multiprocess/build.js";
import { type Child, freePort, startChild, stopChild } from "./support-multiprocess/processes.js";

const run = promisify(execFile);
const dataDir = mkdtempSync(join(tmpdir(), "aula-beside-"));
let build: Build | undefined;
let port: number;
let env: Record<string, string>;
const children: Child[] = [];

/** `node dist/cli.js …` as `npm run cli -- …` runs it; never rejects. */
async function cli(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [(build as Build).entry("cli"), ...argv], { env });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const failed = err as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

async function login(slug: string, email: string): Promise<number> {
  const res = await request(`http://127.0.0.1:${port}/api/auth/login`, {
    method: "POST",
    headers: { host: `${slug}.localhost:${port}`, "content-type": "application/json" },
    body: JSON.stringify({ email, password: "s3cret-pass-1" }),
  });
  await res.body.dump();
  return res.statusCode;
}

beforeAll(async () => {
  build = await buildService();
  port = await freePort();
  env = { PATH: process.env.PATH ?? "", DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: "info" };
}, 120_000);

afterAll(async () => {
  await Promise.all(children.map((child) => stopChild(child)));
  await build?.remove();
  rmSync(dataDir, { recursive: true, force: true });
});

describe.skipIf(process.env.DATABASE_URL !== undefined)("the CLI beside a running server", () => {
  it("creates a tenant through the running server's embedded database, and the server serves it", async () => {
    const server = startChild("server", (build as Build).entry("server"), env);
    children.push(server);
    const total = knownMigrations();
    // A first start creates the database and applies every migration: seconds, more on a busy machine.
    await server.waitForLine((line) => line.includes("Aula API on"), 90_000);
    // Start-up said what it did, in order.
    const said = server
      .tail(200)
      .split("\n")
      .map((line) => (JSON.parse(line) as { msg: string }).msg);
    expect(said.slice(0, 4)).toEqual([
      `database: creating the embedded database in ${dataDir} (its first start: a few seconds)`,
      `database: embedded, in ${dataDir}`,
      `migrations: ${total} applied (${total} in all)`,
      `database: serving other local processes (npm run cli, npm run worker) at ${socketPath(dataDir)}`,
    ]);

    const created = await cli(
      "tenant",
      "create",
      "--slug",
      "acme",
      "--name",
      "Acme",
      "--admin-email",
      "admin@acme.test",
      "--admin-password",
      "s3cret-pass-1",
      "--json",
    );
    expect(created.stderr).toBe(
      `database: the embedded database in ${dataDir}, through process ${server.pid} (its socket ${socketPath(dataDir)})\n` +
        `migrations: up to date (${total})\n`,
    );
    expect(created.code).toBe(0);
    expect(JSON.parse(created.stdout)).toMatchObject({ slug: "acme" });
    // The server sees the tenant and its administrator at once: no restart.
    expect(await login("acme", "admin@acme.test")).toBe(200);

    // A worker joins it too, and leaves the server running when it stops.
    const worker = startChild("worker", (build as Build).entry("worker"), env);
    children.push(worker);
    const loop = await worker.waitForLine((line) => line.includes("webhook delivery loop started"), 30_000);
    expect(worker.tail(200)).toContain(`through process ${server.pid}`);
    // No notification crosses the socket: it says it polls, and logs no error for it.
    expect(JSON.parse(loop)).toMatchObject({ notified: false });
    expect(worker.tail(200)).not.toMatch(/"level":50/);
    expect(await stopChild(worker)).toEqual({ code: 0, signal: null });

    const ready = await request(`http://127.0.0.1:${port}/readyz`);
    await ready.body.dump();
    expect(ready.statusCode).toBe(200);
    expect(await stopChild(server)).toEqual({ code: 0, signal: null });
    expect(existsSync(socketPath(dataDir))).toBe(false);
  }, 180_000);

  it("opens the data directory itself when no server runs, and a worker has nothing to join", async () => {
    const user = await cli(
      "user",
      "create",
      "--tenant",
      "acme",
      "--email",
      "t@acme.test",
      "--name",
      "T",
      "--role",
      "teacher",
      "--json",
    );
    expect(user.stderr).toContain(`database: embedded, in ${dataDir}\n`);
    expect(user.code).toBe(0);
    expect(JSON.parse(user.stdout)).toHaveProperty("userId");
    expect(existsSync(join(dataDir, "pglite.lock"))).toBe(false);

    const worker = startChild("worker", (build as Build).entry("worker"), env);
    children.push(worker);
    expect(await worker.exited).toEqual({ code: 1, signal: null });
    expect(worker.tail()).toContain(`no running server serves the embedded database in ${dataDir}`);
  });
});
