/**
 * Child processes of the multi-process test (`node dist/server.js`, `node dist/worker.js`): started with an
 * environment of their own (nothing inherited from the test process, whose DATABASE_URL is the shared test
 * database), their output kept (the last lines, for the failure message), stopped as production stops them.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createServer } from "node:net";
import { createInterface } from "node:readline";

const KEPT_LINES = 200;

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface Child {
  name: string;
  pid: number;
  process: ChildProcess;
  /** Settles when the process has exited (never rejects). */
  exited: Promise<Exit>;
  /** Its exit, once it has exited. */
  exit(): Exit | undefined;
  /** The last lines it wrote (stdout and stderr), for failure messages. */
  tail(lines?: number): string;
  /** Resolves at the first output line `test` accepts (one written before the call included). */
  waitForLine(test: (line: string) => boolean, timeoutMs: number): Promise<string>;
}

export function startChild(name: string, script: string, env: Record<string, string>): Child {
  const child = spawn(process.execPath, [script], { env, stdio: ["ignore", "pipe", "pipe"] });
  if (child.pid === undefined) throw new Error(`${name} did not start`);
  const lines: string[] = [];
  const watchers = new Set<(line: string) => void>();
  const tail = (n = 30) => lines.slice(-n).join("\n");
  let exit: Exit | undefined;
  const exited = new Promise<Exit>((resolve) => {
    child.once("exit", (code, signal) => {
      exit = { code, signal };
      resolve(exit);
    });
  });
  for (const stream of [child.stdout, child.stderr]) {
    createInterface({ input: stream }).on("line", (line) => {
      lines.push(line);
      if (lines.length > KEPT_LINES) lines.shift();
      for (const watch of watchers) watch(line);
    });
  }
  return {
    name,
    pid: child.pid,
    process: child,
    exited,
    exit: () => exit,
    tail,
    waitForLine(test, timeoutMs) {
      const seen = lines.find(test);
      if (seen !== undefined) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const done = (fn: () => void) => {
          watchers.delete(watch);
          clearTimeout(timer);
          fn();
        };
        const watch = (line: string) => {
          if (test(line)) done(() => resolve(line));
        };
        const timer = setTimeout(
          () => done(() => reject(new Error(`${name}: no such line within ${timeoutMs} ms\n${tail()}`))),
          timeoutMs,
        );
        watchers.add(watch);
        void exited.then((e) =>
          done(() => reject(new Error(`${name} exited (${e.code ?? e.signal}) while awaited\n${tail()}`))),
        );
      });
    },
  };
}

/** SIGTERM (the process finishes what it holds), then SIGKILL after `graceMs`. */
export async function stopChild(child: Child, graceMs = 10_000): Promise<Exit> {
  if (child.exit() !== undefined) return child.exit() as Exit;
  child.process.kill("SIGTERM");
  const timer = setTimeout(() => child.process.kill("SIGKILL"), graceMs);
  try {
    return await child.exited;
  } finally {
    clearTimeout(timer);
  }
}

/** A TCP port nothing listens on now, for a child's PORT (another process could take it first; none does here). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}
