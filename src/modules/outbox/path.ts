/**
 * Dotted field paths shared by conditions (`event.score`) and templates (`{{user.name}}`).
 *
 * Both run over tenant-controlled data with tenant-written paths, so a lookup may only ever reach data the
 * event or user actually carries: own properties, never anything inherited. `__proto__`, `constructor` and
 * `prototype` are refused when a path is saved and never resolve when one is evaluated, even when the data
 * has such keys as own properties (JSON.parse creates an own `__proto__` key from `{"__proto__": …}`), so no
 * path can be read two ways depending on how the object was built.
 */
import type { MessageKey } from "../../locales/index.js";

/**
 * One problem with a condition or template, addressed by field path (`condition.all[0].op`, `action.body`).
 * `key`/`params` name a message of `src/locales`, so the error handler localises it like any other
 * `validation_failed` detail (the shape of `DetailKey`); `message` is the specific English text, for logs
 * and tests.
 */
export interface FieldIssue {
  field: string;
  message: string;
  /** Checked against the catalogue at compile time, so the error handler always finds the message. */
  key: Extract<MessageKey, `field.${string}`>;
  params?: Record<string, string | number>;
}

/** At most this many dot-separated segments, root included (`event.a.b.c.d.e.f.g`). */
export const MAX_PATH_DEPTH = 8;
export const MAX_PATH_LENGTH = 200;

/**
 * What our payload keys look like (camelCase, snake_case profile-field keys, array indexes) plus `-`, which
 * inbound `webhook` bodies commonly use. Keys with dots, spaces or other characters are unreachable by design.
 */
const SEGMENT = /^[A-Za-z0-9_-]{1,64}$/;
const FORBIDDEN_SEGMENTS: ReadonlySet<string> = new Set(["__proto__", "constructor", "prototype"]);
const ARRAY_INDEX = /^(?:0|[1-9][0-9]{0,8})$/;

export type PathProblem = "too_long" | "segment" | "forbidden" | "too_deep";

export type ParsedPath = { ok: true; segments: string[] } | { ok: false; problem: PathProblem };

/** Splits and checks a path; the root (`event`, `user`, …) is checked by the caller, which knows its roots. */
export function parsePath(path: string): ParsedPath {
  if (path.length > MAX_PATH_LENGTH) return { ok: false, problem: "too_long" };
  const segments = path.split(".");
  if (segments.length > MAX_PATH_DEPTH) return { ok: false, problem: "too_deep" };
  for (const segment of segments) {
    if (FORBIDDEN_SEGMENTS.has(segment)) return { ok: false, problem: "forbidden" };
    if (!SEGMENT.test(segment)) return { ok: false, problem: "segment" };
  }
  return { ok: true, segments };
}

export const PATH_PROBLEM_MESSAGES: Readonly<Record<PathProblem, string>> = {
  too_long: `must be at most ${MAX_PATH_LENGTH} characters`,
  segment: "each dot-separated segment must be 1 to 64 letters, digits, '_' or '-'",
  forbidden: "may not name __proto__, constructor or prototype",
  too_deep: `must have at most ${MAX_PATH_DEPTH} dot-separated segments`,
};

export type Lookup = { found: true; value: unknown } | { found: false };

const MISSING: Lookup = { found: false };

/**
 * Walks `segments` from `root` through own data properties only. Arrays are entered by index alone, so
 * `tags.length` is absent rather than a number the payload never contained; strings and numbers are leaves.
 * Accessor properties are treated as absent so that a lookup never runs code (JSON data has none anyway).
 * An own property whose value is `undefined` counts as absent, since JSON cannot say "present but undefined".
 */
export function lookupOwn(root: unknown, segments: readonly string[]): Lookup {
  let current = root;
  for (const segment of segments) {
    if (FORBIDDEN_SEGMENTS.has(segment)) return MISSING;
    if (typeof current !== "object" || current === null) return MISSING;
    if (Array.isArray(current) && !ARRAY_INDEX.test(segment)) return MISSING;
    if (!Object.hasOwn(current, segment)) return MISSING;
    // Read through the descriptor (also own-only) so that an accessor is never invoked.
    const descriptor = Object.getOwnPropertyDescriptor(current, segment);
    if (descriptor === undefined || !("value" in descriptor)) return MISSING;
    current = descriptor.value;
  }
  return current === undefined ? MISSING : { found: true, value: current };
}
