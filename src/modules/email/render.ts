/**
 * Template rendering: `{{name}}` placeholders (letters, digits, `_`; spaces inside the braces allowed). Values are
 * HTML-escaped in the HTML part, left as they are in the text part, and flattened to one line in the subject (a
 * header). Stored HTML is sanitised on write; variables are the only thing added at send time, always escaped.
 */
import { runForField, WorkerPool } from "../../platform/workers/pool.js";
import type { TemplateContent } from "./defaults.js";

const PLACEHOLDER = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;

export type Variables = Readonly<Record<string, string>>;

/** The variable names a piece of template text uses, in order of first use. */
export function variablesIn(...texts: string[]): string[] {
  const names = new Set<string>();
  for (const text of texts) for (const m of text.matchAll(PLACEHOLDER)) names.add(m[1] as string);
  return [...names];
}

const HTML_ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] as string);
}

function fill(text: string, variables: Variables, encode: (value: string) => string): string {
  // A placeholder with no value renders empty: callers pass every declared variable, so this only ever drops
  // one a custom template names and the sender did not give.
  return text.replace(PLACEHOLDER, (_, name: string) =>
    encode(Object.hasOwn(variables, name) ? (variables[name] as string) : ""),
  );
}

export function render(template: TemplateContent, variables: Variables): TemplateContent {
  return {
    subject: fill(template.subject, variables, (v) => v.replace(/[\r\n\t]+/g, " ")).trim(),
    bodyHtml: fill(template.bodyHtml, variables, escapeHtml),
    bodyText: fill(template.bodyText, variables, (v) => v),
  };
}

/**
 * Stored HTML parts are sanitised (policy in sanitize-task.js) on a worker thread: 200,000 characters of markup
 * take sanitize-html 100-700 ms of CPU, which on the event loop would hold every tenant's requests.
 */
const pool = new WorkerPool({
  module: new URL("./sanitize-task.js", import.meta.url),
  size: 2,
  maxQueue: 32,
  timeoutMs: 5_000,
});

export async function sanitizeEmailHtml(html: string, field = "bodyHtml"): Promise<string> {
  return runForField<string>(pool, field, "sanitizeEmailHtml", html);
}
