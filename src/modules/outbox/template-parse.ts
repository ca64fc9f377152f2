/**
 * Reading a template (the syntax template.ts's header describes): literal text and `{{path}}` placeholders, each
 * path checked against the roots a template may name, the template's limits, and for a body where each placeholder
 * sits (inside a JSON string or as a value). Validation and both renderers start from `scan` and join with
 * `assemble`.
 */
import { type FieldIssue, PATH_PROBLEM_MESSAGES, parsePath } from "./path.js";

export type TemplateIssue = FieldIssue;

export type TemplateMode = "json" | "header";

export const MAX_TEMPLATE_LENGTH: Readonly<Record<TemplateMode, number>> = { json: 65_536, header: 2048 };
export const MAX_PLACEHOLDERS = 100;

export interface Slot {
  kind: "slot";
  path: string;
  segments: string[];
  /** Inside a JSON string literal of the body template. Always false for headers. */
  inString: boolean;
}

export type Part = { kind: "text"; text: string } | Slot;

/** The characters `scan` acts on (global, so `lastIndex` says where to look from). */
const JSON_SIGNIFICANT = /["\\{]/g;
const HEADER_SIGNIFICANT = /\{/g;

/** Printable ASCII and tab: the literal text a header value may contain (RFC 9110 field-vchar minus obs-text). */
const HEADER_SAFE = /^[\t\x20-\x7e]*$/;

/** Why a placeholder's path cannot be rendered (its syntax, or a root templates may not name); undefined if it can. */
function pathIssue(path: string): string | undefined {
  const parsed = parsePath(path);
  if (!parsed.ok) return `{{${path}}}: path ${PATH_PROBLEM_MESSAGES[parsed.problem]}`;
  const [root, ...rest] = parsed.segments;
  if ((root === "event" || root === "user") && rest.length > 0) return undefined;
  if (root === "automation" && rest.length === 1 && (rest[0] === "id" || rest[0] === "name"))
    return undefined;
  if ((root === "timestamp" || root === "eventId") && rest.length === 0) return undefined;
  return `{{${path}}}: unknown path; use event.*, user.*, automation.id, automation.name, timestamp or eventId`;
}

/**
 * Splits a template into literal text and placeholders. For bodies it also follows JSON string literals
 * (an unescaped `"` opens or closes one; `\` escapes the next character), which is how a placeholder knows
 * whether it stands for a value or for text.
 */
export function scan(
  template: string,
  mode: TemplateMode,
  field: string,
): { parts: Part[]; issues: TemplateIssue[] } {
  const parts: Part[] = [];
  const issues: TemplateIssue[] = [];
  const issue = (message: string) => issues.push({ field, key: "field.invalid", message });
  if (template.length > MAX_TEMPLATE_LENGTH[mode]) {
    issues.push({
      field,
      key: "field.max_length",
      params: { limit: MAX_TEMPLATE_LENGTH[mode] },
      message: `template must be at most ${MAX_TEMPLATE_LENGTH[mode]} characters`,
    });
    return { parts, issues };
  }
  let inString = false;
  let textStart = 0;
  let slots = 0;
  let i = 0;
  // Only `{`, and in JSON mode `"` and `\`, change the state: the regex engine skips the text between them
  // natively, where a character loop ran cold (interpreted) over a 64 KiB template on its first save.
  const next = mode === "json" ? JSON_SIGNIFICANT : HEADER_SIGNIFICANT;
  while (i < template.length) {
    next.lastIndex = i;
    if (next.exec(template) === null) break;
    i = next.lastIndex - 1;
    const ch = template[i];
    if (mode === "json" && inString && ch === "\\") {
      i += 2; // the escaped character, whatever it is, cannot open a placeholder or close the string
      continue;
    }
    if (mode === "json" && ch === '"') {
      inString = !inString;
      i += 1;
      continue;
    }
    if (ch !== "{" || template[i + 1] !== "{") {
      i += 1;
      continue;
    }
    const close = template.indexOf("}}", i + 2);
    if (close === -1) {
      issue(`unclosed {{ at offset ${i}`);
      break;
    }
    if (i > textStart) parts.push({ kind: "text", text: template.slice(textStart, i) });
    const path = template.slice(i + 2, close).replace(/^[ \t]+|[ \t]+$/g, "");
    const problem = pathIssue(path);
    if (problem !== undefined) issue(`${problem} (offset ${i})`);
    else parts.push({ kind: "slot", path, segments: path.split("."), inString });
    slots += 1;
    i = close + 2;
    textStart = i;
  }
  if (textStart < template.length) parts.push({ kind: "text", text: template.slice(textStart) });
  if (slots > MAX_PLACEHOLDERS) {
    issues.push({
      field,
      key: "field.invalid",
      message: `template must have at most ${MAX_PLACEHOLDERS} placeholders`,
    });
  }
  if (mode === "header") {
    for (const part of parts) {
      if (part.kind === "text" && !HEADER_SAFE.test(part.text)) {
        issue("header templates may contain only printable ASCII characters and tabs outside placeholders");
        break;
      }
    }
  }
  return { parts, issues };
}

/** Thrown by `assemble` as soon as the text passes its limit. */
export class TooLarge extends Error {}

/**
 * Joins the parts, stopping as soon as the text passes `limit` characters: a template whose placeholders each
 * copy a large payload would otherwise build (and stringify) many megabytes before its size is checked.
 * Slots with the same path and position kind are rendered once.
 */
export function assemble(
  parts: readonly Part[],
  slotText: (slot: Slot) => string,
  limit = Number.POSITIVE_INFINITY,
): string {
  let out = "";
  const rendered = new Map<string, string>();
  for (const part of parts) {
    if (part.kind === "text") out += part.text;
    else {
      const key = `${part.inString ? "s" : "v"}:${part.path}`;
      let text = rendered.get(key);
      if (text === undefined) {
        text = slotText(part);
        rendered.set(key, text);
      }
      out += text;
    }
    if (out.length > limit) throw new TooLarge();
  }
  return out;
}
