import type { DetailKey } from "../../platform/errors/app-error.js";
import { comparisonKey } from "./comparison-key.js";
import { compilePattern, matchesWhole } from "./pattern-engine.js";
import type { FieldOption, FieldType, ProfileValueType, ValidationRules } from "./schemas.js";

/** What the rules need of a definition. */
export interface FieldDefinition {
  id: string;
  key: string;
  type: FieldType;
  options: FieldOption[] | null;
  required: boolean;
  unique: boolean;
  validation: ValidationRules | null;
  status: string;
}

const TEXT_TYPES: readonly FieldType[] = ["text", "textarea", "phone", "url", "email"];
const PATTERN_TYPES: readonly FieldType[] = ["text", "textarea", "phone"];
const RANGE_TYPES: readonly FieldType[] = ["number", "multiselect"];
/** A unique multiselect, checkbox or long text would be meaningless or unindexable. */
const NOT_UNIQUE: readonly FieldType[] = ["multiselect", "checkbox", "textarea"];
const DEFAULT_MAX_LENGTH: Partial<Record<FieldType, number>> = {
  text: 200,
  textarea: 2000,
  phone: 30,
  url: 2000,
  email: 254,
};

/**
 * A definition's consistency, past what its schema checks: options exactly for the select types (values
 * unique), validation rules only where the type has them, ranges in order, and a pattern the linear-time engine
 * runs (an administrator's regular expression runs on every user write: see pattern-engine.ts).
 */
export function definitionDetails(def: Omit<FieldDefinition, "id" | "key" | "status">): DetailKey[] {
  const details: DetailKey[] = [];
  const selectable = def.type === "select" || def.type === "multiselect";
  if (selectable !== (def.options !== null))
    details.push({ field: "options", key: "field.profile_options_for_type" });
  const seen = new Set<string>();
  def.options?.forEach((o, i) => {
    if (seen.has(o.value))
      details.push({ field: `options[${i}].value`, key: "field.duplicate", params: { value: o.value } });
    seen.add(o.value);
  });
  if (def.unique && NOT_UNIQUE.includes(def.type)) {
    details.push({ field: "unique", key: "field.not_for_type", params: { type: def.type } });
  }
  const v = def.validation;
  if (v !== null) {
    const refuse = (rule: string) =>
      details.push({
        field: `validation.${rule}`,
        key: "field.profile_validation_for_type",
        params: { type: def.type },
      });
    if ((v.min !== undefined || v.max !== undefined) && !RANGE_TYPES.includes(def.type))
      refuse(v.min !== undefined ? "min" : "max");
    if ((v.minLength !== undefined || v.maxLength !== undefined) && !TEXT_TYPES.includes(def.type)) {
      refuse(v.minLength !== undefined ? "minLength" : "maxLength");
    }
    if (v.pattern !== undefined && !PATTERN_TYPES.includes(def.type)) refuse("pattern");
    if (v.min !== undefined && v.max !== undefined && v.min > v.max) {
      details.push({ field: "validation.min", key: "field.range_order" });
    }
    if (v.minLength !== undefined && v.maxLength !== undefined && v.minLength > v.maxLength) {
      details.push({ field: "validation.minLength", key: "field.range_order" });
    }
    if (v.pattern !== undefined && PATTERN_TYPES.includes(def.type)) {
      const compiled = compilePattern(v.pattern, maxLengthOf(def.type, v));
      if (!compiled.ok) details.push({ field: "validation.pattern", ...compiled.refusal });
    }
  }
  return details;
}

/** The longest text a field accepts. */
const maxLengthOf = (type: FieldType, v: ValidationRules): number =>
  v.maxLength ?? DEFAULT_MAX_LENGTH[type] ?? 2000;

/** A value as stored: the JSON kept, and its canonical text for filtering and uniqueness (null: not comparable). */
export interface Normalised {
  value: ProfileValueType;
  matchKey: string | null;
}

const EMAIL = /^[^\s@]+@[^\s@.]+(?:\.[^\s@.]+)+$/;
const PHONE = /^\+?[0-9][0-9 ().-]{4,28}[0-9]$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
/** White space runs, collapsed to one space in text values; U+FEFF is invisible, kept as typed (see comparisonKey). */
const SPACE_RUN = /[^\S\uFEFF]+/g;

function validDate(text: string): boolean {
  const m = DATE.exec(text);
  if (m === null) return false;
  const d = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(text);
}

function httpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
}

/**
 * Checks one value against its field and answers it in canonical form, or the detail naming `field` (the path
 * in the request). Text is trimmed; an empty text is "no value" (undefined), like `null`.
 */
export function normalise(
  def: FieldDefinition,
  raw: unknown,
  field: string,
): Normalised | undefined | DetailKey {
  const v = def.validation ?? {};
  const typeDetail = (type: string): DetailKey => ({ field, key: "field.type", params: { type } });
  switch (def.type) {
    case "text":
    case "textarea":
    case "phone":
    case "url":
    case "email": {
      if (typeof raw !== "string") return typeDetail("string");
      const text = def.type === "textarea" ? raw.trim() : raw.trim().replace(SPACE_RUN, " ");
      if (text === "") return undefined;
      const max = maxLengthOf(def.type, v);
      if (text.length > max) return { field, key: "field.max_length", params: { limit: max } };
      if (v.minLength !== undefined && text.length < v.minLength) {
        return { field, key: "field.min_length", params: { limit: v.minLength } };
      }
      if (def.type === "email" && !EMAIL.test(text))
        return { field, key: "field.format", params: { format: "email" } };
      if (def.type === "url" && !httpUrl(text))
        return { field, key: "field.format", params: { format: "uri" } };
      if (def.type === "phone" && !PHONE.test(text)) return { field, key: "field.pattern" };
      if (v.pattern !== undefined && !matchesWhole(v.pattern, text, max))
        return { field, key: "field.pattern" };
      return { value: text, matchKey: comparisonKey(text) };
    }
    case "number": {
      if (typeof raw !== "number" || !Number.isFinite(raw)) return typeDetail("number");
      if (v.min !== undefined && raw < v.min)
        return { field, key: "field.minimum", params: { limit: v.min } };
      if (v.max !== undefined && raw > v.max)
        return { field, key: "field.maximum", params: { limit: v.max } };
      return { value: raw, matchKey: String(raw) };
    }
    case "date": {
      if (typeof raw !== "string" || !validDate(raw)) return { field, key: "field.profile_date" };
      return { value: raw, matchKey: raw };
    }
    case "checkbox": {
      if (typeof raw !== "boolean") return typeDetail("boolean");
      return { value: raw, matchKey: String(raw) };
    }
    case "select": {
      const values = (def.options ?? []).map((o) => o.value);
      if (typeof raw !== "string" || !values.includes(raw)) {
        return { field, key: "field.profile_option", params: { values: values.join(", ") } };
      }
      return { value: raw, matchKey: raw.toLowerCase() };
    }
    case "multiselect": {
      const values = (def.options ?? []).map((o) => o.value);
      if (!Array.isArray(raw) || raw.some((x) => typeof x !== "string")) return typeDetail("array");
      const bad = raw.find((x) => !values.includes(x as string));
      if (bad !== undefined)
        return { field, key: "field.profile_option", params: { values: values.join(", ") } };
      const chosen = [...new Set(raw as string[])];
      if (chosen.length !== raw.length) return { field, key: "field.unique_items" };
      if (chosen.length === 0) return undefined;
      if (v.min !== undefined && chosen.length < v.min)
        return { field, key: "field.min_items", params: { limit: v.min } };
      if (v.max !== undefined && chosen.length > v.max)
        return { field, key: "field.max_items", params: { limit: v.max } };
      return { value: chosen, matchKey: null };
    }
  }
}

export function isDetail(x: Normalised | undefined | DetailKey): x is DetailKey {
  return x !== undefined && "key" in x && "field" in x;
}
