/**
 * Prompt templates: text with `{{name}}` placeholders and nothing else (no logic, no lookups into objects), so
 * checking and rendering one is a single linear pass over at most MAX_TEMPLATE characters, whatever a tenant writes.
 */
import type { DetailKey } from "../../platform/errors/app-error.js";

export const MAX_TEMPLATE = 20_000;
/** Placeholder occurrences per template: a render does at most this many substitutions. */
export const MAX_PLACEHOLDERS = 1_000;
export const MAX_VARIABLES = 50;
export const MAX_VALUE = 20_000;
/** A rendered prompt is at most this long, whatever the values: a longer one is refused before any call. */
export const MAX_RENDERED = 100_000;

/** Linear: the name is a bounded run of word characters between fixed delimiters, no backtracking across it. */
const PLACEHOLDER = /\{\{\s{0,8}([A-Za-z_][A-Za-z0-9_]{0,63})\s{0,8}\}\}/g;

export interface VariableDecl {
  name: string;
  required?: boolean;
  description?: string | null;
}

/** The names a template uses, each once, in order of first use; undefined past the placeholder budget. */
export function placeholdersOf(template: string): string[] | undefined {
  const seen = new Set<string>();
  let count = 0;
  for (const match of template.matchAll(PLACEHOLDER)) {
    count += 1;
    if (count > MAX_PLACEHOLDERS) return undefined;
    seen.add(match[1] as string);
  }
  return [...seen];
}

/** A variable used but not declared, or declared but unused, is a validation error naming it. */
export function checkTemplate(template: string, variables: readonly VariableDecl[]): DetailKey[] {
  const used = placeholdersOf(template);
  if (used === undefined) {
    return [{ field: "template", key: "field.template_placeholders", params: { limit: MAX_PLACEHOLDERS } }];
  }
  const details: DetailKey[] = [];
  const declared = new Set<string>();
  variables.forEach((v, i) => {
    if (declared.has(v.name)) details.push({ field: `variables[${i}].name`, key: "field.unique_items" });
    declared.add(v.name);
    if (!used.includes(v.name)) {
      details.push({ field: `variables[${i}].name`, key: "field.variable_unused", params: { name: v.name } });
    }
  });
  for (const name of used) {
    if (!declared.has(name))
      details.push({ field: "template", key: "field.template_undeclared", params: { name } });
  }
  return details;
}

/**
 * Fills the placeholders. Values are inserted as they are (never parsed again, so a value holding `{{x}}` stays
 * text); a missing required variable, or a value for an undeclared one, is a detail naming it.
 */
export function renderTemplate(
  template: string,
  variables: readonly VariableDecl[],
  values: Readonly<Record<string, string>>,
): { text: string } | { details: DetailKey[] } {
  const details: DetailKey[] = [];
  const declared = new Map(variables.map((v) => [v.name, v]));
  for (const name of Object.keys(values)) {
    if (!declared.has(name)) details.push({ field: `variables.${name}`, key: "field.unknown" });
  }
  for (const v of variables) {
    if (v.required !== false && values[v.name] === undefined) {
      details.push({ field: `variables.${v.name}`, key: "field.variable_missing", params: { name: v.name } });
    }
  }
  if (details.length > 0) return { details };
  const valueFor = (name: string) => (Object.hasOwn(values, name) ? (values[name] as string) : "");
  // Measured before anything is built: 1,000 placeholders of a 20,000-character value would be 20 MB.
  let length = template.length;
  for (const match of template.matchAll(PLACEHOLDER)) length += valueFor(match[1] as string).length;
  if (length > MAX_RENDERED) {
    return { details: [{ field: "variables", key: "field.max_length", params: { limit: MAX_RENDERED } }] };
  }
  const text = template.replace(PLACEHOLDER, (_all, name: string) => valueFor(name));
  return { text };
}
