/**
 * `{{path}}` templates for a webhook's `body` and header values (CONTRACT "Automations and webhooks":
 * interpolated "JSON-escaped; never into the URL's host").
 *
 * Deliberately tiny: a placeholder is a path and nothing else. There are no helpers, filters, sections,
 * partials or expressions, and nothing is ever evaluated, so a tenant's template can only copy values that
 * the event already carries. Paths: `event.<path>` (the event's `data`), `user.<path>`, `automation.id`,
 * `automation.name` and `timestamp`; each path follows the rules of `./path.ts` (own properties only,
 * no `__proto__`/`constructor`/`prototype`, at most 8 segments). `{{ user.name }}` may pad the path with
 * spaces. There is no escape for a literal `{{` (nor for a `{` right before a placeholder, which reads as
 * part of it); in a body, write the brace inside a string as `\u007b`.
 *
 * Body (`renderJsonTemplate`): the template is JSON text and each placeholder takes the form its position
 * in that text calls for.
 * - Outside quotes it stands for a whole JSON value: `{"score": {{event.score}}}` → `{"score": 87}`;
 *   a string becomes a quoted, escaped JSON string, an object or array its JSON, a missing value `null`.
 * - Inside quotes it is text: `{"name": "{{user.name}}"}` or `"Hi {{user.name}}!"`; the value is written
 *   as JSON string content (quotes, backslashes and control characters escaped), a number or boolean as
 *   its JSON text, an object or array as its JSON text, and a missing value or null as nothing.
 * So both ways people write templates work, and the inserted text can never end the string or the value
 * it sits in: whatever the data, the rendering has the structure of the template. `validateTemplate`
 * checks that structure once, at save: it renders every placeholder as the value `null` or as empty text
 * and parses the result, and since any JSON value can stand where `null` does and any escaped text where
 * empty text does, a template that passes renders to JSON for every event. Rendering parses the output
 * again anyway, and returns `{ok: false}` rather than ever sending something that is not JSON.
 *
 * Header values (`renderHeaderTemplate`): each placeholder is written as JSON string content, like text in
 * a body, with every character outside printable ASCII as `\uXXXX`. A value can therefore never carry CR,
 * LF, NUL or any byte an HTTP client refuses (undici throws on characters above U+00FF), it cannot split
 * or add headers, and a receiver that wants the exact text back reads it as a JSON string. The literal
 * text of a header template must itself be printable ASCII or tab.
 */
import { type FieldIssue, type Lookup, lookupOwn, PATH_PROBLEM_MESSAGES, parsePath } from "./path.js";

export type TemplateIssue = FieldIssue;

export interface TemplateContext {
  /** The event's `data` object (RESOURCES §5). */
  event: object;
  /** The learner the event is about; null when there is none. */
  user: object | null;
  automation?: { id: string; name: string };
  /** ISO 8601; the engine decides which moment (the event's `occurredAt` is the stable choice across retries). */
  timestamp?: string;
  /** The event's id (`GET /events/:id`), the same in every delivery and retry of it. */
  eventId?: string;
}

export type TemplateMode = "json" | "header";

export type TemplateValidation = { ok: true; paths: string[] } | { ok: false; details: TemplateIssue[] };

export type RenderFailure = "invalid_template" | "invalid_json" | "too_large" | "unserialisable";

export type JsonRender = { ok: true; text: string } | { ok: false; reason: RenderFailure; message: string };
export type HeaderRender =
  | { ok: true; value: string }
  | { ok: false; reason: RenderFailure; message: string };

export const MAX_TEMPLATE_LENGTH: Readonly<Record<TemplateMode, number>> = { json: 65_536, header: 2048 };
export const MAX_PLACEHOLDERS = 100;
/** Rendered size caps: a template that copies a large event must not produce an unbounded request. */
export const MAX_RENDERED_BODY_BYTES = 1024 * 1024;
export const MAX_RENDERED_HEADER_LENGTH = 8192;

interface Slot {
  kind: "slot";
  path: string;
  segments: string[];
  /** Inside a JSON string literal of the body template. Always false for headers. */
  inString: boolean;
}

type Part = { kind: "text"; text: string } | Slot;

/** The characters `scan` acts on (global, so `lastIndex` says where to look from). */
const JSON_SIGNIFICANT = /["\\{]/g;
const HEADER_SIGNIFICANT = /\{/g;

/** Printable ASCII and tab: the literal text a header value may contain (RFC 9110 field-vchar minus obs-text). */
const HEADER_SAFE = /^[\t\x20-\x7e]*$/;
const HEADER_UNSAFE_CHAR = /[^\t\x20-\x7e]/;

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
function scan(
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
class TooLarge extends Error {}

/**
 * Joins the parts, stopping as soon as the text passes `limit` characters: a template whose placeholders each
 * copy a large payload would otherwise build (and stringify) many megabytes before its size is checked.
 * Slots with the same path and position kind are rendered once.
 */
function assemble(
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

/**
 * Checks a template before it is saved. `field` is used in every detail (e.g. `action.body`,
 * `action.headers.X-Course`). In `json` mode it also checks that the template renders to JSON whatever the
 * data (see the header of this file); a save-time render with a sample event then only confirms it.
 */
export function validateTemplate(
  template: string,
  options: { mode?: TemplateMode; field?: string } = {},
): TemplateValidation {
  const mode = options.mode ?? "json";
  const field = options.field ?? "template";
  const { parts, issues } = scan(template, mode, field);
  if (issues.length === 0 && mode === "json") {
    try {
      JSON.parse(assemble(parts, (slot) => (slot.inString ? "" : "null")));
    } catch (err) {
      issues.push({
        field,
        key: "field.invalid",
        message: `body template must be JSON once its placeholders are filled: ${(err as Error).message}`,
      });
    }
  }
  if (issues.length > 0) return { ok: false, details: issues };
  return { ok: true, paths: parts.flatMap((part) => (part.kind === "slot" ? [part.path] : [])) };
}

const MISSING: Lookup = { found: false };

function resolve(slot: Slot, context: TemplateContext): Lookup {
  const [root, ...rest] = slot.segments;
  switch (root) {
    case "event":
      return lookupOwn(context.event, rest);
    case "user":
      return lookupOwn(context.user, rest);
    case "automation":
      return lookupOwn(context.automation, rest);
    case "timestamp":
      return context.timestamp === undefined ? MISSING : { found: true, value: context.timestamp };
    case "eventId":
      return context.eventId === undefined ? MISSING : { found: true, value: context.eventId };
    default:
      return MISSING;
  }
}

/** Thrown inside rendering only, and turned into `{ok: false, reason: "unserialisable"}`. */
class Unserialisable extends Error {}

/** `JSON.stringify` that cannot return undefined and reports cycles and BigInts as one failure. */
function toJson(value: unknown): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch (err) {
    throw new Unserialisable((err as Error).message);
  }
  return text ?? "null";
}

/** The text a value stands for inside a string or a header: itself if a string, nothing if null or missing. */
function textOf(found: Lookup): string {
  if (!found.found || found.value === null) return "";
  return typeof found.value === "string" ? found.value : toJson(found.value);
}

/** JSON string content: `JSON.stringify` escapes `"`, `\`, every control character and lone surrogates. */
function jsonStringContent(text: string): string {
  return JSON.stringify(text).slice(1, -1);
}

function headerText(text: string): string {
  return jsonStringContent(text).replace(
    /[^\x20-\x7e]/g,
    (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

function invalidTemplate(issues: readonly TemplateIssue[]): {
  ok: false;
  reason: "invalid_template";
  message: string;
} {
  return { ok: false, reason: "invalid_template", message: issues.map((i) => i.message).join("; ") };
}

function tooLargeBody(): { ok: false; reason: "too_large"; message: string } {
  return {
    ok: false,
    reason: "too_large",
    message: `rendered body exceeds ${MAX_RENDERED_BODY_BYTES} bytes`,
  };
}

function tooLargeHeader(): { ok: false; reason: "too_large"; message: string } {
  return {
    ok: false,
    reason: "too_large",
    message: `rendered header exceeds ${MAX_RENDERED_HEADER_LENGTH} characters`,
  };
}

/** Renders a body template (see the header for where placeholders may sit). The text is sent as is. */
export function renderJsonTemplate(template: string, context: TemplateContext): JsonRender {
  const { parts, issues } = scan(template, "json", "body");
  if (issues.length > 0) return invalidTemplate(issues);
  let text: string;
  try {
    text = assemble(
      parts,
      (slot) => {
        const found = resolve(slot, context);
        if (slot.inString) return jsonStringContent(textOf(found));
        return found.found ? toJson(found.value) : "null";
      },
      MAX_RENDERED_BODY_BYTES,
    );
  } catch (err) {
    // UTF-8 takes at least one byte a character, so more characters than the byte limit is too large.
    if (err instanceof TooLarge) return tooLargeBody();
    if (err instanceof Unserialisable) return { ok: false, reason: "unserialisable", message: err.message };
    throw err;
  }
  if (Buffer.byteLength(text, "utf8") > MAX_RENDERED_BODY_BYTES) return tooLargeBody();
  try {
    JSON.parse(text);
  } catch (err) {
    return { ok: false, reason: "invalid_json", message: (err as Error).message };
  }
  return { ok: true, text };
}

/** Renders one header value: placeholders JSON-escaped to printable ASCII, missing values empty. */
export function renderHeaderTemplate(template: string, context: TemplateContext): HeaderRender {
  const { parts, issues } = scan(template, "header", "header");
  if (issues.length > 0) return invalidTemplate(issues);
  let value: string;
  try {
    value = assemble(parts, (slot) => headerText(textOf(resolve(slot, context))), MAX_RENDERED_HEADER_LENGTH);
  } catch (err) {
    if (err instanceof TooLarge) return tooLargeHeader();
    if (err instanceof Unserialisable) return { ok: false, reason: "unserialisable", message: err.message };
    throw err;
  }
  if (value.length > MAX_RENDERED_HEADER_LENGTH) return tooLargeHeader();
  // Holds by construction; checked anyway because a split header would be a request smuggled to the target.
  if (HEADER_UNSAFE_CHAR.test(value)) {
    return { ok: false, reason: "invalid_template", message: "rendered header has unsafe characters" };
  }
  return { ok: true, value };
}

// ---------------------------------------------------------------------------------------------------------
// URLs

/** What the WHATWG parser removes from anywhere in its input before parsing, and trims from the ends. */
function asParserSees(url: string): string {
  let start = 0;
  let end = url.length;
  while (start < end && url.charCodeAt(start) <= 0x20) start += 1;
  while (end > start && url.charCodeAt(end - 1) <= 0x20) end -= 1;
  return url.slice(start, end).replace(/[\t\n\r]/g, "");
}

/**
 * Whether `{{` appears in the scheme or authority (userinfo, host, port) of `url`, judged both on the raw
 * text, up to the first `/`, `\`, `?` or `#` after `scheme://` (for http(s) WHATWG treats `\` as `/`), and
 * on the host and credentials `new URL()` extracts, where any `{` or `}` counts (WHATWG keeps them in
 * hosts and percent-decodes `%7B`). Errs towards true: a false positive costs a 400 on a URL that had
 * braces in its host, which no DNS name has.
 */
export function urlHasTemplateInHost(url: string): boolean {
  const text = asParserSees(url);
  const scheme = /^[A-Za-z][A-Za-z0-9+.-]*:[/\\]*/.exec(text);
  const start = scheme === null ? 0 : scheme[0].length;
  const rest = text.slice(start).search(/[/\\?#]/);
  const authorityEnd = rest === -1 ? text.length : start + rest;
  if (text.slice(0, authorityEnd).includes("{{")) return true;
  let parsed: URL;
  try {
    parsed = new URL(text);
  } catch {
    return text.includes("{{"); // no host to speak of; err towards refusing
  }
  return /[{}]|%7b|%7d/i.test(`${parsed.protocol}${parsed.username}${parsed.password}${parsed.host}`);
}

/**
 * Whether `url` contains `{{` anywhere. The contract interpolates templates into the body and header
 * values only, and the URL is stored and used literally, so the simplest rule for `action.url` is to
 * refuse any `{{`: it can only be a mistake (it would be sent as `%7B%7B…`), and the host case is covered.
 */
export function urlHasTemplate(url: string): boolean {
  return asParserSees(url).includes("{{") || urlHasTemplateInHost(url);
}
