/**
 * Reading what the Stripe SDK sends the fake (fake-stripe.ts): form bodies with bracketed keys, and the parsed
 * values as records and strings.
 */

const INDEX = /^(0|[1-9][0-9]*)$/;
const BRACKETED_KEY = /^([^[\]]+)((?:\[[^\]]*\])+)$/;

/**
 * Parses an `application/x-www-form-urlencoded` body the way Stripe reads what the SDK sends:
 * `line_items[0][price]=p&metadata[tenantId]=t` → `{ line_items: [{ price: "p" }], metadata: { tenantId: "t" } }`.
 * Objects whose keys are all numeric indexes become arrays (in index order, holes dropped, as `qs` does);
 * `a[]=x` appends. Brackets may arrive raw (the SDK leaves them unencoded) or as %5B / %5D.
 * Values stay strings: form encoding has no types (Stripe coerces per parameter, we leave that to callers).
 */
export function parseFormBody(text: string): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(text)) {
    assign(root, splitKey(key), value);
  }
  return arraysFromIndexes(root);
}

/** "a[b][0]" → ["a", "b", "0"]; a key that is not of that form is taken whole. */
function splitKey(key: string): string[] {
  const match = BRACKETED_KEY.exec(key);
  if (!match) return [key];
  const [, head = key, tail = ""] = match;
  return [head, ...Array.from(tail.matchAll(/\[([^\]]*)\]/g), (m) => m[1] ?? "")];
}

function assign(root: Record<string, unknown>, path: string[], value: string): void {
  let node = root;
  for (let i = 0; i < path.length; i++) {
    let segment = path[i] ?? "";
    // Assigning "__proto__" would replace the object's prototype instead of adding a key.
    if (segment === "__proto__") return;
    // `a[]=x`: the next free index (objects stand in for arrays until the end, see arraysFromIndexes).
    if (segment === "" && i > 0) segment = String(Object.keys(node).length);
    if (i === path.length - 1) {
      node[segment] = value;
      return;
    }
    const existing = Object.hasOwn(node, segment) ? node[segment] : undefined;
    if (isRecord(existing)) {
      node = existing;
    } else {
      // Missing, or a plain value now used as a container (`a=1&a[b]=2`): the nested form wins.
      const child: Record<string, unknown> = {};
      node[segment] = child;
      node = child;
    }
  }
}

function arraysFromIndexes(node: Record<string, unknown>): Record<string, unknown> {
  for (const [key, value] of Object.entries(node)) {
    if (!isRecord(value)) continue;
    const converted = arraysFromIndexes(value);
    const keys = Object.keys(converted);
    node[key] =
      keys.length > 0 && keys.every((k) => INDEX.test(k))
        ? keys
            .map(Number)
            .sort((a, b) => a - b)
            .map((k) => converted[String(k)])
        : converted;
  }
  return node;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function asRecord(value: unknown): Record<string, unknown> | undefined {
  return isRecord(value) ? value : undefined;
}

export function asString(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}
