import type { FastifyInstance } from "fastify";
import { validationError } from "../errors/app-error.js";

/** The path of the first string holding U+0000 (`items[3].name`), or undefined. */
function findNul(value: unknown, path: string): string | undefined {
  if (typeof value === "string") return value.includes("\0") ? path : undefined;
  // Raw bodies (the Stripe webhook keeps its bytes for the signature) are not JSON values.
  if (Buffer.isBuffer(value)) return undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findNul(value[i], `${path}[${i}]`);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (value !== null && typeof value === "object") {
    for (const [key, child] of Object.entries(value)) {
      const found = findNul(child, path === "" ? key : `${path}.${key}`);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

/**
 * PostgreSQL text cannot hold U+0000: a name or a search carrying one would fail in the database, as a 500. Refuse
 * it up front, for every route, as the field's validation error.
 */
export function registerNulGuard(app: FastifyInstance): void {
  app.addHook("preValidation", async (request) => {
    const field = findNul(request.body, "") ?? findNul(request.query, "") ?? findNul(request.params, "");
    if (field !== undefined) throw validationError(field === "" ? "body" : field, "field.invalid");
  });
}
