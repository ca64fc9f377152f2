import { Ajv, type ErrorObject, type Options } from "ajv";
import addFormatsModule from "ajv-formats";
import type { FastifySchemaCompiler } from "fastify";
import type { DetailKey } from "../errors/app-error.js";
import { isUuid } from "./schemas.js";

// ajv-formats is published as CommonJS with a default export property.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

/**
 * ajv-formats' `date-time` is RFC 3339, which admits what PostgreSQL and `Date` refuse: leap seconds
 * (`23:59:60`) and years before 1 (`0000-…`, or `0001-01-01T00:00:00+01:00`, which is 1 BC). Years 1000–9999 are
 * the range both agree on and that anyone means.
 */
function plausibleDateTime(base: (value: string) => boolean) {
  return (value: string): boolean => {
    if (!base(value)) return false;
    const ms = Date.parse(value);
    if (Number.isNaN(ms)) return false;
    const year = new Date(ms).getUTCFullYear();
    return year >= 1000 && year <= 9999;
  };
}

function makeAjv(options: Options): Ajv {
  const ajv = new Ajv({
    allErrors: true,
    removeAdditional: false,
    useDefaults: true,
    strict: false,
    // `strict: false` would also let 1e400 (Infinity) and NaN pass as numbers.
    strictNumbers: true,
    ...options,
  });
  addFormats(ajv, ["email", "uuid", "date-time", "uri", "date"]);
  // ajv-formats' uuid also takes a `urn:uuid:` prefix, which PostgreSQL's uuid type refuses (a 500, not a 400).
  ajv.addFormat("uuid", { type: "string", validate: isUuid });
  const dateTime = ajv.formats["date-time"] as { validate: (value: string) => boolean };
  ajv.addFormat("date-time", { type: "string", validate: plausibleDateTime(dateTime.validate) });
  return ajv;
}

/**
 * Bodies are taken as sent: no type coercion, and unknown fields are errors (the contract refuses them, which is
 * also what stops mass assignment of `tenantId`, `id` or `createdAt`). Query strings and path parameters arrive
 * as text, so they are coerced to the declared types.
 */
const bodyAjv = makeAjv({ coerceTypes: false });
const firstErrorAjv = makeAjv({ coerceTypes: false, allErrors: false });
const textAjv = makeAjv({ coerceTypes: true });

/**
 * Ajv coerces any text JavaScript reads as a number: `Infinity`, `1e400`, `0x10`, `1e3`, ` 12`. A number in a
 * query or path is plain decimal (integers: digits with an optional minus sign), checked before coercion.
 * `?page=2` is coerced as before.
 */
const DECIMAL_TEXT = { integer: /^-?\d+$/, number: /^-?\d+(?:\.\d+)?$/ } as const;

type NumericKind = keyof typeof DECIMAL_TEXT;

/** Plain decimal, and a number JavaScript holds exactly (400 digits would be Infinity, 17 lose precision). */
function decimal(text: string, kind: NumericKind): boolean {
  if (!DECIMAL_TEXT[kind].test(text)) return false;
  const n = Number(text);
  return kind === "integer" ? Number.isSafeInteger(n) : Number.isFinite(n);
}

/** The numeric kind a property schema declares (alone, in a type list or in a union), if any. */
function numericKind(schema: unknown): NumericKind | undefined {
  if (schema === null || typeof schema !== "object") return undefined;
  const s = schema as { type?: unknown; anyOf?: unknown[]; oneOf?: unknown[] };
  const types = [s.type].flat();
  if (types.includes("number")) return "number";
  if (types.includes("integer")) return "integer";
  for (const member of [...(s.anyOf ?? []), ...(s.oneOf ?? [])]) {
    const kind = numericKind(member);
    if (kind !== undefined) return kind;
  }
  return undefined;
}

/** Query strings and path parameters are flat: their numeric properties, and those of arrays of numbers. */
function numericProperties(schema: unknown): [string, NumericKind][] {
  const properties = (schema as { properties?: Record<string, unknown> } | null)?.properties ?? {};
  const out: [string, NumericKind][] = [];
  for (const [name, property] of Object.entries(properties)) {
    const kind = numericKind(property) ?? numericKind((property as { items?: unknown } | null)?.items);
    if (kind !== undefined) out.push([name, kind]);
  }
  return out;
}

type Validate = ((data: unknown) => boolean) & { errors?: ErrorObject[] | null };

function withDecimalText(validate: Validate, numeric: [string, NumericKind][]): Validate {
  const checked: Validate = (data) => {
    const values = data !== null && typeof data === "object" ? (data as Record<string, unknown>) : {};
    for (const [name, kind] of numeric) {
      const value = values[name];
      const texts = Array.isArray(value) ? value : [value];
      if (texts.some((text) => typeof text === "string" && !decimal(text, kind))) {
        checked.errors = [
          {
            keyword: "type",
            instancePath: `/${name.replace(/~/g, "~0").replace(/\//g, "~1")}`,
            schemaPath: `#/properties/${name}/type`,
            params: { type: kind },
            message: `must be ${kind}`,
          },
        ];
        return false;
      }
    }
    const valid = validate(data);
    checked.errors = validate.errors;
    return valid;
  };
  return checked;
}

/**
 * Bodies with more than this many values (objects, arrays and scalars) are checked up to their first error.
 * With `allErrors`, Ajv reports every error of a body, and a 1 MiB body holds 200,000 values that can each be
 * one: seconds of the event loop to find them, and more to turn them into details. A legitimate body at any
 * route's limit (1,000 bulk items of a few fields) stays below it and still gets every detail.
 */
export const ALL_ERRORS_MAX_VALUES = 20_000;

/** At most this many details in one validation error: enough to fix a request, bounded to answer. */
export const MAX_DETAILS = 100;

/** Whether `data` holds more than `limit` values; stops counting there, so it costs at most `limit` steps. */
export function holdsMoreThan(data: unknown, limit: number): boolean {
  const stack: unknown[] = [data];
  let count = 1;
  while (stack.length > 0) {
    const value = stack.pop();
    if (value === null || typeof value !== "object") continue;
    const children = Array.isArray(value) ? value : Object.values(value);
    count += children.length;
    if (count > limit) return true;
    for (const child of children) if (child !== null && typeof child === "object") stack.push(child);
  }
  return false;
}

/**
 * The body's validator: every error for ordinary bodies, the first one for bodies past ALL_ERRORS_MAX_VALUES
 * (compiled on first need, since most routes never see one).
 */
function bodyValidator(schema: object): Validate {
  const every = bodyAjv.compile(schema) as Validate;
  let first: Validate | undefined;
  const validate: Validate = (data) => {
    let chosen = every;
    if (holdsMoreThan(data, ALL_ERRORS_MAX_VALUES)) {
      first ??= firstErrorAjv.compile(schema) as Validate;
      chosen = first;
    }
    const valid = chosen(data);
    validate.errors = chosen.errors;
    return valid;
  };
  return validate;
}

export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
  if (httpPart === "body") {
    return bodyValidator(schema as object) as ReturnType<FastifySchemaCompiler<unknown>>;
  }
  const validate = textAjv.compile(schema as object) as Validate;
  const numeric = numericProperties(schema);
  return (numeric.length === 0 ? validate : withDecimalText(validate, numeric)) as ReturnType<
    FastifySchemaCompiler<unknown>
  >;
};

function joinPath(instancePath: string, child?: string): string {
  const parts = instancePath.split("/").filter((p) => p !== "");
  if (child !== undefined) parts.push(child);
  let out = "";
  for (const p of parts) {
    const unescaped = p.replace(/~1/g, "/").replace(/~0/g, "~");
    out += /^\d+$/.test(unescaped) ? `[${unescaped}]` : out === "" ? unescaped : `.${unescaped}`;
  }
  return out;
}

function detailOf(e: ErrorObject): DetailKey {
  const p = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case "required":
      return { field: joinPath(e.instancePath, String(p.missingProperty)), key: "field.required" };
    case "additionalProperties":
      return { field: joinPath(e.instancePath, String(p.additionalProperty)), key: "field.unknown" };
    case "type":
      return { field: joinPath(e.instancePath), key: "field.type", params: { type: String(p.type) } };
    case "format":
      return { field: joinPath(e.instancePath), key: "field.format", params: { format: String(p.format) } };
    case "minLength":
      return { field: joinPath(e.instancePath), key: "field.min_length", params: { limit: Number(p.limit) } };
    case "maxLength":
      return { field: joinPath(e.instancePath), key: "field.max_length", params: { limit: Number(p.limit) } };
    case "minimum":
      return { field: joinPath(e.instancePath), key: "field.minimum", params: { limit: Number(p.limit) } };
    case "exclusiveMinimum":
      return {
        field: joinPath(e.instancePath),
        key: "field.exclusive_minimum",
        params: { limit: Number(p.limit) },
      };
    case "maximum":
      return { field: joinPath(e.instancePath), key: "field.maximum", params: { limit: Number(p.limit) } };
    case "exclusiveMaximum":
      return {
        field: joinPath(e.instancePath),
        key: "field.exclusive_maximum",
        params: { limit: Number(p.limit) },
      };
    case "enum":
      return {
        field: joinPath(e.instancePath),
        key: "field.enum",
        params: { values: (p.allowedValues as unknown[]).map(String).join(", ") },
      };
    case "pattern":
      return { field: joinPath(e.instancePath), key: "field.pattern" };
    case "minItems":
      return { field: joinPath(e.instancePath), key: "field.min_items", params: { limit: Number(p.limit) } };
    case "maxItems":
      return { field: joinPath(e.instancePath), key: "field.max_items", params: { limit: Number(p.limit) } };
    case "uniqueItems":
      return { field: joinPath(e.instancePath), key: "field.unique_items" };
    case "minProperties":
      return { field: joinPath(e.instancePath), key: "field.no_changes" };
    default:
      return { field: joinPath(e.instancePath), key: "field.invalid" };
  }
}

/**
 * Fastify's default formatter joins every error's text into a message nobody reads (the envelope is built from
 * the errors themselves by `detailsFromAjv`); this one costs nothing whatever their number.
 */
export function schemaErrorFormatter(_errors: readonly unknown[], dataVar: string): Error {
  return new Error(`${dataVar} is invalid`);
}

/** One detail per field (the first reason found), in the order Ajv reported them; at most MAX_DETAILS. */
export function detailsFromAjv(errors: readonly ErrorObject[], httpPart?: string): DetailKey[] {
  const seen = new Set<string>();
  const out: DetailKey[] = [];
  for (const e of errors) {
    if (out.length >= MAX_DETAILS) break;
    const d = detailOf(e);
    if (d.field === "" && httpPart === "body") d.field = "body";
    if (seen.has(d.field)) continue;
    seen.add(d.field);
    out.push(d);
  }
  return out;
}
