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
import { type Lookup, lookupOwn } from "./path.js";
import {
  assemble,
  type Slot,
  scan,
  type TemplateIssue,
  type TemplateMode,
  TooLarge,
} from "./template-parse.js";

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

export type TemplateValidation = { ok: true; paths: string[] } | { ok: false; details: TemplateIssue[] };

export type RenderFailure = "invalid_template" | "invalid_json" | "too_large" | "unserialisable";

export type JsonRender = { ok: true; text: string } | { ok: false; reason: RenderFailure; message: string };
export type HeaderRender =
  | { ok: true; value: string }
  | { ok: false; reason: RenderFailure; message: string };

/** Rendered size caps: a template that copies a large event must not produce an unbounded request. */
export const MAX_RENDERED_BODY_BYTES = 1024 * 1024;
export const MAX_RENDERED_HEADER_LENGTH = 8192;

/** Outside printable ASCII and tab (template-parse.ts's HEADER_SAFE): a rendered header value must have none. */
const HEADER_UNSAFE_CHAR = /[^\t\x20-\x7e]/;

/**
 * Checks a template before it is saved. `field` is used in every detail (e.g. `action.body`,
 * `action.headers.X-Course`). In `json` mode it also checks that the template renders to JSON whatever the
 * data (see the header of this file; template-parse.ts reads the syntax); a save-time render with a sample event
 * then only confirms it.
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
