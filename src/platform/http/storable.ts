/**
 * PostgreSQL's text and jsonb refuse U+0000 (jsonb also as the escape `\u0000`, in keys too) and a UTF-16
 * surrogate without its pair (jsonb refuses `"\ud800"`; text gets it silently replaced on the way). JSON admits
 * both, so a request can carry them anywhere, and a signed Stripe event can too.
 */
const UNSTORABLE = /\0|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const UNSTORABLE_ALL = new RegExp(UNSTORABLE.source, "g");

/** True when `text` holds U+0000 or a lone surrogate. */
export function isUnstorable(text: string): boolean {
  return UNSTORABLE.test(text);
}

/** `text` with every U+0000 and lone surrogate replaced by U+FFFD (the replacement character). */
export function storableText(text: string): string {
  return isUnstorable(text) ? text.replace(UNSTORABLE_ALL, "\uFFFD") : text;
}

/**
 * A copy of a parsed JSON value whose strings and keys PostgreSQL can store (see `storableText`); the value
 * itself when it needs no change. For trusted, shallow documents (a signed Stripe event): request bodies are
 * refused instead, by the input guard, before anything recursive reads them.
 */
export function storableJson(value: unknown): unknown {
  if (typeof value === "string") return storableText(value);
  if (Array.isArray(value)) {
    let changed = false;
    const out = value.map((item) => {
      const clean = storableJson(item);
      if (clean !== item) changed = true;
      return clean;
    });
    return changed ? out : value;
  }
  if (value === null || typeof value !== "object") return value;
  let changed = false;
  const entries = Object.entries(value).map(([key, item]): [string, unknown] => {
    const cleanKey = storableText(key);
    const clean = storableJson(item);
    if (cleanKey !== key || clean !== item) changed = true;
    return [cleanKey, clean];
  });
  // fromEntries defines own properties (a `__proto__` key stays a key); of two keys that differ only in what was
  // replaced, the later one wins, as in JSON.parse.
  return changed ? Object.fromEntries(entries) : value;
}
