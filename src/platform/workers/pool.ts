/**
 * CPU-heavy work off the event loop: a small pool of worker threads that run the exported functions of one task
 * module. One request's CPU work (sanitising 100,000 characters of HTML takes 80-300 ms) would otherwise hold
 * every tenant's requests; on a worker it only holds that request.
 *
 * Bounded on every side: at most `size` threads, at most `maxQueue` tasks waiting (past that the request is
 * answered 429 `rate_limit_exceeded` with `Retry-After: 1`, so the queue never grows without end),
 * and a task running longer than `timeoutMs` has its thread terminated (a fresh one replaces it) and rejects
 * with `TaskTimeoutError` for the caller to turn into its own answer.
 *
 * The task module is loaded by the worker with a plain `import()`, so it must be JavaScript Node can load as
 * is (a `.js` file beside the caller; `allowJs` copies it into the build). Arguments and results cross by
 * structured clone. Threads start on first use and are `unref`'d so an idle pool never keeps a process alive.
 */
import { Worker } from "node:worker_threads";
import { AppError, validationError } from "../errors/app-error.js";

export class TaskTimeoutError extends Error {}

export interface PoolOptions {
  /** A `file:` URL of an ES module whose exported functions are the tasks. */
  module: URL;
  size: number;
  maxQueue: number;
  timeoutMs: number;
  /** Caps on each thread's heap: a task that outgrows them ends its thread (an error for that task), not the process. */
  resourceLimits?: { maxOldGenerationSizeMb?: number; maxYoungGenerationSizeMb?: number };
}

interface Task {
  name: string;
  args: unknown[];
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

interface Slot {
  worker: Worker;
  task: Task | undefined;
  timer: NodeJS.Timeout | undefined;
}

// CommonJS (eval workers are scripts): loads the task module, then answers one message at a time.
const BOOTSTRAP = `
const { parentPort, workerData } = require("node:worker_threads");
// On Linux niceness is per thread: this one yields the core to the event loop's thread when both want it.
try { require("node:os").setPriority(workerData.niceness); } catch {}
const ready = import(workerData.module);
parentPort.on("message", async ({ name, args }) => {
  try {
    const mod = await ready;
    parentPort.postMessage({ ok: true, value: await mod[name](...args) });
  } catch (error) {
    parentPort.postMessage({ ok: false, message: String(error && error.message || error) });
  }
});
`;

export class WorkerPool {
  private readonly slots: Slot[] = [];
  private readonly queue: Task[] = [];

  constructor(private readonly options: PoolOptions) {}

  run<T>(name: string, ...args: unknown[]): Promise<T> {
    if (this.queue.length >= this.options.maxQueue)
      return Promise.reject(new AppError("rate_limit_exceeded", { retryAfter: 1 }));
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ name, args, resolve: resolve as (value: unknown) => void, reject });
      this.dispatch();
    });
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      let slot = this.slots.find((s) => s.task === undefined);
      if (slot === undefined && this.slots.length < this.options.size) slot = this.spawn();
      if (slot === undefined) return;
      const task = this.queue.shift() as Task;
      slot.task = task;
      slot.worker.ref();
      slot.timer = setTimeout(
        () => this.kill(slot as Slot, new TaskTimeoutError(task.name)),
        this.options.timeoutMs,
      );
      slot.worker.postMessage({ name: task.name, args: task.args });
    }
  }

  private spawn(): Slot {
    const worker = new Worker(BOOTSTRAP, {
      eval: true,
      workerData: { module: this.options.module.href, niceness: 10 },
      ...(this.options.resourceLimits === undefined ? {} : { resourceLimits: this.options.resourceLimits }),
    });
    const slot: Slot = { worker, task: undefined, timer: undefined };
    worker.unref();
    worker.on("message", (reply: { ok: boolean; value?: unknown; message?: string }) => {
      const task = this.finish(slot);
      if (reply.ok) task?.resolve(reply.value);
      else task?.reject(new Error(reply.message));
      this.dispatch();
    });
    worker.on("error", (error) => this.kill(slot, error));
    worker.on("exit", () => this.kill(slot, new Error("worker exited")));
    this.slots.push(slot);
    return slot;
  }

  private finish(slot: Slot): Task | undefined {
    const task = slot.task;
    clearTimeout(slot.timer);
    slot.task = undefined;
    slot.timer = undefined;
    slot.worker.unref();
    return task;
  }

  /** Drops a thread (stuck, crashed or gone) and fails its task; the next task starts a fresh one. */
  private kill(slot: Slot, error: unknown): void {
    const index = this.slots.indexOf(slot);
    if (index === -1) return;
    this.slots.splice(index, 1);
    this.finish(slot)?.reject(error);
    void slot.worker.terminate();
    this.dispatch();
  }
}

/**
 * Runs a task that works on one field of a request: a task past the pool's time limit is that field's fault
 * (400 `field.html_too_complex` naming it), not the server's.
 */
export async function runForField<T>(
  pool: WorkerPool,
  field: string,
  name: string,
  input: unknown,
): Promise<T> {
  try {
    return await pool.run<T>(name, input);
  } catch (error) {
    if (error instanceof TaskTimeoutError) throw validationError(field, "field.html_too_complex");
    throw error;
  }
}
