/**
 * The settings form, read from GET /settings/schema: each namespace's keys become fields by their JSON Schema type,
 * so a key the API adds shows up without a console release. Values travel as the text of an input; what the person
 * typed is sent as typed when it does not convert (a letter in a number, JSON that does not parse), so the API's
 * own validation, in its words, names the field.
 */

type Json = unknown;
type SchemaNode = Record<string, unknown>;

export type FieldKind =
  | { type: "enum"; options: string[] }
  | { type: "integer" }
  | { type: "number" }
  | { type: "text"; format?: string }
  | { type: "lines" } // an array of strings, one a line
  | { type: "json" }; // anything else (an array of objects): its JSON text

export interface Field {
  namespace: string;
  key: string;
  /** `namespace.key`: the prefix of the API's `details[].field` for this key. */
  path: string;
  kind: FieldKind;
  /** The key takes null (an empty input sends null: the platform's behaviour). */
  nullable: boolean;
}

export interface Section {
  namespace: string;
  fields: Field[];
}

const isNode = (value: unknown): value is SchemaNode =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function kindOf(schema: SchemaNode): FieldKind {
  if (Array.isArray(schema.enum)) return { type: "enum", options: schema.enum.map(String) };
  if (schema.type === "integer") return { type: "integer" };
  if (schema.type === "number") return { type: "number" };
  if (schema.type === "string")
    return typeof schema.format === "string" ? { type: "text", format: schema.format } : { type: "text" };
  if (schema.type === "array" && isNode(schema.items) && schema.items.type === "string")
    return { type: "lines" };
  return { type: "json" };
}

/** The sections and fields of a settings JSON Schema: namespaces are its properties, keys theirs. */
export function sectionsOf(document: Json): Section[] {
  if (!isNode(document) || !isNode(document.properties)) return [];
  return Object.entries(document.properties).flatMap(([namespace, ns]) => {
    if (!isNode(ns) || !isNode(ns.properties)) return [];
    const fields = Object.entries(ns.properties).flatMap(([key, raw]): Field[] => {
      if (!isNode(raw)) return [];
      // A nullable key is `anyOf: [its schema, {type: "null"}]`.
      const options = Array.isArray(raw.anyOf) ? raw.anyOf.filter(isNode) : [raw];
      const nullable = options.some((o) => o.type === "null");
      const schema = options.find((o) => o.type !== "null") ?? raw;
      return [{ namespace, key, path: `${namespace}.${key}`, kind: kindOf(schema), nullable }];
    });
    return [{ namespace, fields }];
  });
}

/** A stored value as the text its input shows. */
export function textOf(field: Field, value: Json): string {
  if (value === null || value === undefined) return "";
  if (field.kind.type === "lines" && Array.isArray(value)) return value.join("\n");
  if (field.kind.type === "json") return JSON.stringify(value, null, 2);
  return String(value);
}

/** An input's text as the value to send. */
export function sentValueOf(field: Field, text: string): Json {
  const trimmed = text.trim();
  if (trimmed === "" && field.nullable) return null;
  switch (field.kind.type) {
    case "integer":
    case "number": {
      const n = Number(trimmed);
      return trimmed !== "" && Number.isFinite(n) ? n : text;
    }
    case "lines":
      return text
        .split("\n")
        .map((line) => line.trim())
        .filter((line) => line !== "");
    case "json":
      try {
        return JSON.parse(text) as Json;
      } catch {
        return text;
      }
    default:
      return text;
  }
}

/**
 * The merge patch (RFC 7386) of what changed: only the keys whose value differs from the settings read, so saving
 * an untouched form changes nothing and a key another administrator changed meanwhile is not overwritten.
 */
export function patchOf(
  sections: Section[],
  current: Record<string, Record<string, Json>>,
  texts: Record<string, string>,
): Record<string, Record<string, Json>> {
  const patch: Record<string, Record<string, Json>> = {};
  for (const { namespace, fields } of sections) {
    for (const field of fields) {
      const text = texts[field.path];
      if (text === undefined) continue;
      const value = sentValueOf(field, text);
      if (JSON.stringify(value) === JSON.stringify(current[namespace]?.[field.key] ?? null)) continue;
      patch[namespace] = { ...patch[namespace], [field.key]: value };
    }
  }
  return patch;
}

/** The API's details by the field they belong to (`learning.gradingScale[1].letter` is `learning.gradingScale`'s). */
export function detailsByField(
  fields: readonly Field[],
  details: readonly { field?: string | undefined; message: string }[],
): { byField: Map<string, string[]>; rest: string[] } {
  const byField = new Map<string, string[]>();
  const rest: string[] = [];
  for (const d of details) {
    const owner = fields.find(
      (f) => d.field === f.path || d.field?.startsWith(`${f.path}.`) || d.field?.startsWith(`${f.path}[`),
    );
    if (owner === undefined) rest.push(d.field ? `${d.field}: ${d.message}` : d.message);
    else byField.set(owner.path, [...(byField.get(owner.path) ?? []), d.message]);
  }
  return { byField, rest };
}
