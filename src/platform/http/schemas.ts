import { type Static, Type } from "typebox";
import { notFound } from "../errors/app-error.js";

/** A string enum that documents as `{type: string, enum: [...]}` and fails validation with one clear detail. */
export function StringEnum<const T extends readonly string[]>(
  values: T,
  options: Record<string, unknown> = {},
) {
  return Type.Unsafe<T[number]>({ type: "string", enum: [...values], ...options });
}

export const Uuid = Type.String({ format: "uuid" });
export const IsoDateTime = Type.String({ format: "date-time" });

/** `:id` path parameters. A malformed id is answered like an unknown one (404), never with a database error. */
export const IdParams = Type.Object({ id: Type.String({ maxLength: 64 }) });
export type IdParamsType = Static<typeof IdParams>;

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: string): boolean {
  return UUID_RE.test(value);
}

export function requireUuid(id: string): string {
  if (!isUuid(id)) throw notFound();
  return id.toLowerCase();
}

/** Ids as the database prints them (lowercase), each once: what id lists are compared and stored as. */
export function canonicalIds(ids: readonly string[] | undefined): string[] {
  return [...new Set((ids ?? []).map((id) => id.toLowerCase()))];
}
