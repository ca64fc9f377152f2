/**
 * Who may use the embedded database in a data directory. PGlite is one process's database: a second process
 * opening the same directory would corrupt it. A lock file holding the owner's pid turns that mistake into a
 * clear error (a lock left by a dead process is taken over); a process that serves its database over the socket
 * (pglite-socket.ts) is joined there instead.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { socketPath } from "./pglite-socket.js";

/** A failure to reach the embedded database that the person running the command can fix: told in one line. */
export class EmbeddedDatabaseError extends Error {}

export class DataDirInUseError extends EmbeddedDatabaseError {
  constructor(dataDir: string, pid: number, why: "served" | { waitedMs: number }) {
    super(
      why === "served"
        ? `the embedded database in ${dataDir} is already served by process ${pid} (another npm start?): ` +
            "stop it first, or use DATABASE_URL"
        : `the embedded database in ${dataDir} is in use by process ${pid}` +
            (why.waitedMs > 0
              ? `, which did not let go of it within ${Math.round(why.waitedMs / 1000)} s`
              : "") +
            "; PGlite is opened by one process at a time (the CLI and npm run worker go through a running " +
            "npm start instead): stop that process, or use DATABASE_URL",
    );
  }
}

/** Whether process `pid` runs (EPERM: it does, as another user). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

function lockFile(dataDir: string): string {
  return join(dataDir, "pglite.lock");
}

/** The live process, other than this one, holding the directory's lock. */
function lockHolder(dataDir: string): number | undefined {
  let owner: number;
  try {
    owner = Number(readFileSync(lockFile(dataDir), "utf8"));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw err;
  }
  return Number.isInteger(owner) && owner > 0 && owner !== process.pid && isAlive(owner) ? owner : undefined;
}

/** Takes the directory's lock, or throws DataDirInUseError; the function returned gives it back. */
export function lockDataDir(dataDir: string): () => void {
  const file = lockFile(dataDir);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(file, String(process.pid), { flag: "wx" });
      return () => rmSync(file, { force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      const holder = lockHolder(dataDir);
      if (holder !== undefined) throw new DataDirInUseError(dataDir, holder, { waitedMs: 0 });
      rmSync(file, { force: true });
    }
  }
  throw new DataDirInUseError(dataDir, 0, { waitedMs: 0 });
}

/**
 * How a process reaches the embedded database when another may hold it. "open": here, as its only user (the
 * server); "join": through the socket of the process serving it, never opening it here (a worker beside the
 * server); "join-or-open": joins a serving process if there is one, and opens it here otherwise (the CLI).
 */
export type EmbeddedAccess = "open" | "join" | "join-or-open";

export interface ClaimOptions<T> {
  access: EmbeddedAccess;
  /**
   * How long to wait for a holder that does not serve the database (yet): a server still migrating at start, or
   * a CLI command; 0 fails at once.
   */
  waitMs: number;
  onWait?: (message: string) => void;
  /** Connects to the serving process `pid`; undefined when its socket does not answer (it is stopping). */
  join: (pid: number) => Promise<T | undefined>;
}

/**
 * How long an entry point waits for another process holding the embedded database without serving it: a server
 * migrating at its start (a first start applies every migration), or a CLI command.
 */
export const EMBEDDED_WAIT_MS = 60_000;

const WAIT_STEP_MS = 100;

/** Takes the lock (the database is opened here), or joins the process serving it. */
export async function claimDataDir<T>(
  dataDir: string,
  options: ClaimOptions<T>,
): Promise<{ unlock: () => void } | { joined: T }> {
  const deadline = Date.now() + options.waitMs;
  let toldAbout: number | undefined;
  for (;;) {
    const holder = lockHolder(dataDir);
    if (holder === undefined) {
      if (options.access === "join") {
        throw new EmbeddedDatabaseError(
          `no running server serves the embedded database in ${dataDir}: start it first (npm start), ` +
            "or use DATABASE_URL",
        );
      }
      try {
        return { unlock: lockDataDir(dataDir) };
      } catch (err) {
        // Another process took it meanwhile: look again.
        if (!(err instanceof DataDirInUseError) || Date.now() >= deadline) throw err;
      }
    } else if (existsSync(socketPath(dataDir))) {
      if (options.access === "open") throw new DataDirInUseError(dataDir, holder, "served");
      const joined = await options.join(holder);
      if (joined !== undefined) return { joined };
    }
    if (Date.now() >= deadline) {
      throw new DataDirInUseError(dataDir, holder ?? 0, { waitedMs: options.waitMs });
    }
    if (holder !== undefined && holder !== toldAbout) {
      toldAbout = holder;
      options.onWait?.(
        `database: waiting for process ${holder}, which holds the embedded database in ${dataDir}`,
      );
    }
    await sleep(WAIT_STEP_MS);
  }
}
