/**
 * Things a test file starts in a `beforeAll` and stops in an `afterAll` (a harness, a fake server), named once at
 * the file's top level instead of as a `let` assigned in a hook. They exist only once their `beforeAll` has run:
 * use them in hooks and tests, not while the file is being read.
 */
import { afterAll, beforeAll } from "vitest";

/** Starts `start()` before the file's (or describe's) tests, `stop`s it after, and stands for it meanwhile. */
export function useStarted<T extends object>(
  what: string,
  start: () => Promise<T>,
  stop: (started: T) => Promise<void>,
): T {
  let started: T | undefined;
  beforeAll(async () => {
    started = await start();
  });
  afterAll(async () => {
    if (started !== undefined) await stop(started);
    // A worker keeps each test file's module, and so this stand-in, for the rest of its run (isolate: false):
    // dropped here, what it started (an embedded database's memory among it) can be collected.
    started = undefined;
  });
  return late(what, () => started);
}

/** A stand-in for an object made later: each property read, write and method call goes to `current()`. */
export function late<T extends object>(what: string, current: () => T | undefined): T {
  const target = (): T => {
    const made = current();
    if (made === undefined) throw new Error(`${what} starts in beforeAll: use it in hooks and tests`);
    return made;
  };
  return new Proxy({} as T, {
    get(_, key) {
      // Not a promise: awaiting the stand-in, or returning it from an async function, asks for `then`.
      if (key === "then") return undefined;
      const made = target();
      const value = Reflect.get(made, key);
      return typeof value === "function" ? value.bind(made) : value;
    },
    set: (_, key, value) => Reflect.set(target(), key, value),
    has: (_, key) => Reflect.has(target(), key),
  });
}

/**
 * Defines on `onto` a getter for each key that reads `current()` at each access, for an object whose other parts
 * are made at once (so that a file can take those apart at its top level).
 */
export function readThrough<T, K extends keyof T, V extends object>(
  current: () => T,
  keys: readonly K[],
  onto: V,
): V & Pick<T, K> {
  for (const key of keys) Object.defineProperty(onto, key, { enumerable: true, get: () => current()[key] });
  return onto as V & Pick<T, K>;
}
