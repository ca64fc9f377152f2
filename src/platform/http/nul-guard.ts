import type { FastifyInstance } from "fastify";
import { type DetailKey, validationError } from "../errors/app-error.js";
import { isUnstorable, storableText } from "./storable.js";

/**
 * The deepest nesting of arrays and objects a request may carry. JSON.parse reads any depth, but much of what
 * follows (JSON.stringify, recursive checks, PostgreSQL's jsonb) overflows its stack long before 100,000 levels,
 * which fit in a 1 MiB body; no document of this API needs more than a handful.
 */
export const MAX_JSON_DEPTH = 64;

/**
 * The first problem in a parsed body, query or params: nesting deeper than MAX_JSON_DEPTH (named after `root`),
 * or a string or key holding U+0000 or a lone surrogate (named by its path, `items[3].name`). Iterative, so no
 * depth of input can overflow the stack here.
 */
export function inspectInput(value: unknown, root: string): DetailKey | undefined {
  // Raw bodies (the Stripe webhook keeps its bytes for the signature) are not JSON values.
  if (Buffer.isBuffer(value)) return undefined;
  // Most input has no problem: find that out without building a path for each of (up to) 200,000 values, and
  // walk again naming paths only when there is one to name.
  if (!hasProblem(value)) return undefined;
  const stack: { value: unknown; path: string; depth: number }[] = [{ value, path: "", depth: 0 }];
  const unstorable = (path: string): DetailKey => ({
    field: path === "" ? root : path,
    key: "field.unstorable",
  });
  for (let frame = stack.pop(); frame !== undefined; frame = stack.pop()) {
    const { value: current, path, depth } = frame;
    if (typeof current === "string") {
      if (isUnstorable(current)) return unstorable(path);
      continue;
    }
    if (current === null || typeof current !== "object") continue;
    if (depth >= MAX_JSON_DEPTH)
      return { field: root, key: "field.max_depth", params: { limit: MAX_JSON_DEPTH } };
    if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--)
        stack.push({ value: current[i], path: `${path}[${i}]`, depth: depth + 1 });
      continue;
    }
    const entries = Object.entries(current);
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, child] = entries[i] as [string, unknown];
      const childPath = path === "" ? storableText(key) : `${path}.${storableText(key)}`;
      if (isUnstorable(key)) return unstorable(childPath);
      stack.push({ value: child, path: childPath, depth: depth + 1 });
    }
  }
  return undefined;
}

/** Whether `inspectInput` would find something: the same walk, with depths but no paths. */
function hasProblem(value: unknown): boolean {
  const values: unknown[] = [value];
  const depths: number[] = [0];
  while (values.length > 0) {
    const current = values.pop();
    const depth = depths.pop() as number;
    if (typeof current === "string") {
      if (isUnstorable(current)) return true;
      continue;
    }
    if (current === null || typeof current !== "object") continue;
    if (depth >= MAX_JSON_DEPTH) return true;
    if (Array.isArray(current)) {
      for (const child of current) {
        values.push(child);
        depths.push(depth + 1);
      }
      continue;
    }
    for (const key in current) {
      if (!Object.hasOwn(current, key)) continue;
      if (isUnstorable(key)) return true;
      values.push((current as Record<string, unknown>)[key]);
      depths.push(depth + 1);
    }
  }
  return false;
}

/**
 * Input PostgreSQL cannot store (U+0000, lone surrogates, in values and keys alike) would fail in the database as
 * a 500, and input nested beyond reason would overflow whatever reads it recursively. Both are refused up front,
 * for every route, as a validation error naming the field, before validation or anything else reads the input.
 */
export function registerNulGuard(app: FastifyInstance): void {
  app.addHook("preValidation", async (request) => {
    const problem =
      inspectInput(request.body, "body") ??
      inspectInput(request.query, "query") ??
      inspectInput(request.params, "path");
    if (problem !== undefined) throw validationError(problem.field, problem.key, problem.params);
  });
}
