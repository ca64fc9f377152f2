import type { Static, TSchema } from "typebox";

/**
 * One platform event as its module declares it: the payload's schema (what `data` holds, published in the
 * OpenAPI document's `webhooks` and at `GET /webhooks/event-types/:type`), a plausible sample (an automation's
 * test run without an event), and the payload's version. Payloads only ever gain fields; a change that removes or
 * renames one is a new `schemaVersion` (RESOURCES.md §5: LearnWorlds made users re-create hooks when payloads
 * changed in place). `data` is camelCase; `{{event.*}}` in templates and `event.*` in conditions resolve there.
 */
export interface EventDefinition<S extends TSchema = TSchema> {
  schemaVersion: number;
  description: string;
  payload: S;
  sample: Static<S>;
}

/** Declares an event; the sample is checked against the payload's type at compile time (and in a test). */
export function defineEvent<S extends TSchema>(definition: EventDefinition<S>): EventDefinition<S> {
  return definition;
}

/** Sample ids and times, shared by every module's samples so they read alike. */
export const SAMPLE_ID = "00000000-0000-4000-8000-000000000000";
export const SAMPLE_TIME = "2026-01-15T12:00:00.000Z";

/** A schema's first documented example, as its type: the sample of an event that carries that object. */
export function exampleOf<S extends TSchema>(schema: S): Static<S> {
  const examples = (schema as { examples?: unknown[] }).examples;
  if (examples === undefined || examples.length === 0) throw new Error("the schema has no example");
  return structuredClone(examples[0]) as Static<S>;
}
