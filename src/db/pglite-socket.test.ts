import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SOCKET_PORT, type SocketServer, serveSocket, socketDirectory, socketPath } from "./pglite-socket.js";

/**
 * The session arbiter through real sockets and the real `pg` driver: PGlite (in memory; the socket and its
 * directory in a temporary data directory) used in-process and by clients at once, as `npm start` and
 * `npm run cli` use it.
 */
const dir = mkdtempSync(join(tmpdir(), "aula-socket-"));
let db: PGlite;
let server: SocketServer;
const clients: pg.Client[] = [];

async function connect(): Promise<pg.Client> {
  const client = new pg.Client({ host: socketDirectory(dir), port: SOCKET_PORT, user: "postgres" });
  client.on("error", () => {});
  await client.connect();
  clients.push(client);
  return client;
}

/** Whether `promise` is still pending after `ms`. */
async function pendingAfter(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let settled = false;
  promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  await sleep(ms);
  return !settled;
}

async function count(): Promise<number> {
  return (await db.query<{ n: number }>("SELECT count(*)::int AS n FROM t")).rows[0]?.n ?? -1;
}

beforeAll(async () => {
  db = await PGlite.create();
  await db.exec("CREATE TABLE t (x int)");
  server = await serveSocket(db, dir, { holdLimitMs: 500 });
});

afterAll(async () => {
  await Promise.all(clients.map((c) => c.end().catch(() => {})));
  await server.close();
  await db.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("the embedded database served over a socket", () => {
  it("lives in the data directory, reachable by its owner only", () => {
    expect(server.path).toBe(socketPath(dir));
    expect(statSync(socketDirectory(dir)).mode & 0o777).toBe(0o700);
    expect(statSync(server.path).mode & 0o777).toBe(0o600);
  });

  it("refuses a data directory whose socket path would not fit, rather than listen somewhere else", async () => {
    const deep = join(dir, "d".repeat(120));
    await expect(serveSocket(db, deep)).rejects.toThrow(/longer than the 107 bytes/);
  });

  it("holds this process's queries back while a client's transaction is open, and runs them outside it", async () => {
    const client = await connect();
    await client.query("BEGIN");
    await client.query("INSERT INTO t VALUES (1)");
    const inProcess = count();
    expect(await pendingAfter(inProcess, 200)).toBe(true);
    await client.query("ROLLBACK");
    // Run after the rollback, not inside the client's transaction: the row is not there.
    expect(await inProcess).toBe(0);

    await client.query("BEGIN");
    await client.query("INSERT INTO t VALUES (2)");
    await client.query("COMMIT");
    expect(await count()).toBe(1);
  });

  it("holds a client's statements back while this process's transaction is open, and runs them outside it", async () => {
    const client = await connect();
    let letGo = () => {};
    const gate = new Promise<void>((resolve) => {
      letGo = resolve;
    });
    let inside = () => {};
    const entered = new Promise<void>((resolve) => {
      inside = resolve;
    });
    const transaction = db
      .transaction(async (tx) => {
        await tx.query("INSERT INTO t VALUES (3)");
        inside();
        await gate;
        throw new Error("rolled back on purpose");
      })
      .catch((err: Error) => err.message);
    await entered;
    const fromClient = client.query<{ n: number }>("SELECT count(*)::int AS n FROM t");
    expect(await pendingAfter(fromClient, 200)).toBe(true);
    letGo();
    expect(await transaction).toBe("rolled back on purpose");
    // After the rollback: the uncommitted row was never visible to the client.
    expect((await fromClient).rows[0]?.n).toBe(1);
  });

  it("keeps each client's extended-protocol exchanges whole among other clients and this process", async () => {
    const peers = await Promise.all([connect(), connect(), connect()]);
    const ask = async (n: number, query: (i: number) => Promise<number | undefined>) => {
      const answers: Array<number | undefined> = [];
      for (let i = 0; i < n; i++) answers.push(await query(i));
      return answers;
    };
    const asked = Array.from({ length: 40 }, (_, i) => i);
    const answers = await Promise.all([
      ...peers.map((peer) =>
        ask(40, async (i) => (await peer.query<{ v: number }>("SELECT $1::int AS v", [i])).rows[0]?.v),
      ),
      ask(40, async (i) => (await db.query<{ v: number }>("SELECT $1::int AS v", [i])).rows[0]?.v),
    ]);
    for (const answer of answers) expect(answer).toEqual(asked);
  });

  it("rolls back the transaction of a client that goes away, and hands the session back", async () => {
    const client = await connect();
    await client.query("BEGIN");
    await client.query("INSERT INTO t VALUES (4)");
    const inProcess = count();
    expect(await pendingAfter(inProcess, 100)).toBe(true);
    await client.end();
    expect(await inProcess).toBe(1);
    expect(db.isInTransaction()).toBe(false);
  });

  it("disconnects a client that holds the session past the limit, so this process is not stalled", async () => {
    const client = await connect();
    const lost = new Promise<void>((resolve) => client.once("error", () => resolve()));
    await client.query("BEGIN");
    await client.query("INSERT INTO t VALUES (5)");
    const started = Date.now();
    expect(await count()).toBe(1);
    expect(Date.now() - started).toBeGreaterThanOrEqual(400);
    await lost;
    await expect(client.query("SELECT 1")).rejects.toThrow();
  });
});
