/**
 * A certificate's text: `{{student.name}}`-style placeholders in the layout's title, body and footer, filled when
 * the certificate is drawn. Like the automations' templates (src/modules/outbox/template.ts) a placeholder is a
 * name and nothing else: no helpers, expressions or paths into objects, so a template can only copy the handful
 * of values below. That engine's paths are rooted at `event.*`/`user.*` and its output is JSON or a header, so it
 * does not fit; this one is its plain-text sibling, bounded the same way: the template is at most a few thousand
 * characters (the layout's schema), each value is bounded (a name 200, a title 255), and the rendering stops at
 * `MAX_RENDERED` characters whatever the template says.
 */
import type { DetailKey } from "../../platform/errors/app-error.js";

export const PLACEHOLDERS = [
  "student.name",
  "course.title",
  "issuedAt",
  "expiresAt",
  "serial",
  "institution.name",
] as const;
export type Placeholder = (typeof PLACEHOLDERS)[number];
export type LayoutValues = Readonly<Record<Placeholder, string>>;

const PLACEHOLDER = /\{\{[ \t]*([^{}]*?)[ \t]*\}\}/g;
const KNOWN = new Set<string>(PLACEHOLDERS);

/** What one rendered text may grow to (the drawing truncates it further to the lines it has room for). */
export const MAX_RENDERED = 4000;

/** The placeholders a text names that are not among PLACEHOLDERS, each once, as `details` of a 400. */
export function unknownPlaceholders(text: string, field: string): DetailKey[] {
  const unknown = new Set<string>();
  for (const match of text.matchAll(PLACEHOLDER)) {
    const name = match[1] as string;
    if (!KNOWN.has(name)) unknown.add(name);
  }
  return [...unknown].map((name) => ({
    field,
    key: "field.unknown_template_variable",
    params: { name: name.slice(0, 60), allowed: PLACEHOLDERS.join(", ") },
  }));
}

/** The text with each known placeholder replaced by its value (unknown ones cannot be stored), then capped. */
export function fill(text: string, values: LayoutValues): string {
  const out = text.replace(PLACEHOLDER, (whole, name: string) =>
    KNOWN.has(name) ? values[name as Placeholder] : whole,
  );
  return out.length > MAX_RENDERED ? out.slice(0, MAX_RENDERED) : out;
}

/** The stored layout of a template. */
export interface Layout {
  title: string;
  body: string;
  footer?: string;
  signatureLabel?: string;
  locale?: "pt-BR" | "en-US" | "es-ES" | "fr-FR";
  accentColor?: string;
}

export const LAYOUT_TEXT_FIELDS = ["title", "body", "footer", "signatureLabel"] as const;

/** Every unknown placeholder of a layout, named by its field (`layout.body`). */
export function layoutIssues(layout: Layout): DetailKey[] {
  return LAYOUT_TEXT_FIELDS.flatMap((key) => {
    const text = layout[key];
    return text === undefined ? [] : unknownPlaceholders(text, `layout.${key}`);
  });
}

/** A date as the certificate prints it, in the layout's language (UTC, so it does not move with the server). */
export function formatDate(iso: string | null, locale: string): string {
  if (iso === null) return "";
  return new Intl.DateTimeFormat(locale, { dateStyle: "long", timeZone: "UTC" }).format(new Date(iso));
}
