/**
 * Automation conditions (CONTRACT "Automations and webhooks"): `{"all"|"any": [{field, op, value}]}` over
 * `event.*` and `user.*`. Pure: the engine passes the event's `data` object as `event` (RESOURCES §5:
 * "`{{event.*}}` resolves here") and the learner the event is about as `user` (null when there is none).
 *
 * Semantics, chosen so that a condition never matches by accident:
 * - An empty `all` is true (no clause disagrees) and an empty `any` is false (no clause agrees), the usual
 *   identities of conjunction and disjunction.
 * - A missing field (absent, `undefined`, or a path that cannot resolve) matches only `exists` with
 *   `value: false` and `ne`. A field present with value `null` exists, and `eq null` matches it.
 * - No coercion: `eq` is strict equality of scalars, so `"10" eq 10` is false; objects and arrays are never
 *   `eq` to anything (use `contains` and `in`).
 * - `gt`/`gte`/`lt`/`lte` compare numbers with numbers, ISO 8601 dates/date-times with each other as
 *   instants (so `…T09:00:00-03:00` equals `…T12:00:00Z`), and other strings with other strings by UTF-16
 *   code units. Any other pairing (`"10" gt 9`, a date against a plain string) is false.
 * - `in`: the field's scalar value is one of the clause's array. `contains`: the field is a string
 *   containing the clause's string (case-sensitive), or an array with an element strictly equal to it.
 * - `exists`: `value` is a boolean, true when omitted.
 */
import { type FieldIssue, type Lookup, lookupOwn, PATH_PROBLEM_MESSAGES, parsePath } from "./path.js";

export const CONDITION_OPS = ["eq", "ne", "gt", "gte", "lt", "lte", "in", "contains", "exists"] as const;
export type ConditionOp = (typeof CONDITION_OPS)[number];

export type Scalar = string | number | boolean | null;

export interface Clause {
  /** `event.<path>` or `user.<path>`. */
  field: string;
  op: ConditionOp;
  /** Required except for `exists`; shape depends on `op` (see `validateCondition`). */
  value?: Scalar | Scalar[];
}

export type Condition = { all: Clause[] } | { any: Clause[] };

export interface ConditionContext {
  event: object;
  user: object | null;
}

export type ConditionIssue = FieldIssue;

export type ConditionValidation =
  | { ok: true; condition: Condition }
  | { ok: false; details: ConditionIssue[] };

export const MAX_CLAUSES = 20;
export const MAX_IN_VALUES = 100;
/** Upper bound on one clause's `value` as JSON text: conditions are stored and evaluated per event. */
export const MAX_VALUE_JSON_LENGTH = 4096;

const ROOTS = new Set(["event", "user"]);
const CLAUSE_KEYS = new Set(["field", "op", "value"]);

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isScalar(value: unknown): value is Scalar {
  return (
    value === null ||
    typeof value === "string" ||
    typeof value === "boolean" ||
    (typeof value === "number" && Number.isFinite(value))
  );
}

function fieldIssue(field: string): Omit<ConditionIssue, "field"> | undefined {
  const parsed = parsePath(field);
  if (!parsed.ok) return { key: "field.invalid", message: `field ${PATH_PROBLEM_MESSAGES[parsed.problem]}` };
  if (parsed.segments.length < 2 || !ROOTS.has(parsed.segments[0]!)) {
    return { key: "field.invalid", message: "field must start with event. or user." };
  }
  return undefined;
}

const TYPE_OF_VALUE: Readonly<Record<ConditionOp, string>> = {
  eq: "string, number, boolean or null",
  ne: "string, number, boolean or null",
  gt: "number or string",
  gte: "number or string",
  lt: "number or string",
  lte: "number or string",
  in: "array of strings, numbers, booleans or nulls",
  contains: "string, number, boolean or null",
  exists: "boolean",
};

/** The clause's `value` if it suits `op`, or why not. */
function checkValue(op: ConditionOp, value: unknown): { ok: true } | Omit<ConditionIssue, "field"> {
  const wrongType = { key: "field.type" as const, params: { type: TYPE_OF_VALUE[op] } };
  let fits: boolean;
  switch (op) {
    case "exists":
      fits = value === undefined || typeof value === "boolean";
      break;
    case "gt":
    case "gte":
    case "lt":
    case "lte":
      fits = typeof value === "string" || (typeof value === "number" && Number.isFinite(value));
      break;
    case "in":
      if (Array.isArray(value) && value.length > MAX_IN_VALUES) {
        return {
          key: "field.max_items",
          params: { limit: MAX_IN_VALUES },
          message: `value must have at most ${MAX_IN_VALUES} items`,
        };
      }
      fits = Array.isArray(value) && value.every(isScalar);
      break;
    default:
      fits = isScalar(value);
  }
  if (!fits) return { ...wrongType, message: `value for ${op} must be ${TYPE_OF_VALUE[op]}` };
  if (value !== undefined && JSON.stringify(value).length > MAX_VALUE_JSON_LENGTH) {
    return {
      key: "field.invalid",
      message: `value must be at most ${MAX_VALUE_JSON_LENGTH} characters as JSON`,
    };
  }
  return { ok: true };
}

function validateClause(input: unknown, at: string, issues: ConditionIssue[]): Clause | undefined {
  if (!isPlainObject(input)) {
    issues.push({
      field: at,
      key: "field.type",
      params: { type: "object" },
      message: "clause must be an object",
    });
    return undefined;
  }
  const before = issues.length;
  for (const key of Object.keys(input)) {
    if (!CLAUSE_KEYS.has(key)) {
      issues.push({ field: `${at}.${key}`, key: "field.unknown", message: "unknown clause property" });
    }
  }
  // Own properties only, like every lookup here: an inherited `value` is not a value the caller sent.
  const own = (name: string): unknown => (Object.hasOwn(input, name) ? input[name] : undefined);
  const [field, op, value] = [own("field"), own("op"), own("value")];
  if (field === undefined) {
    issues.push({ field: `${at}.field`, key: "field.required", message: "field is required" });
  } else if (typeof field !== "string") {
    issues.push({
      field: `${at}.field`,
      key: "field.type",
      params: { type: "string" },
      message: "field must be a string",
    });
  } else {
    const problem = fieldIssue(field);
    if (problem !== undefined) issues.push({ field: `${at}.field`, ...problem });
  }
  if (op === undefined) {
    issues.push({ field: `${at}.op`, key: "field.required", message: "op is required" });
  } else if (typeof op !== "string" || !(CONDITION_OPS as readonly string[]).includes(op)) {
    issues.push({
      field: `${at}.op`,
      key: "field.enum",
      params: { values: CONDITION_OPS.join(", ") },
      message: `op must be one of ${CONDITION_OPS.join(", ")}`,
    });
  } else if (value === undefined && op !== "exists") {
    issues.push({ field: `${at}.value`, key: "field.required", message: `value is required for ${op}` });
  } else {
    const verdict = checkValue(op as ConditionOp, value);
    if (!("ok" in verdict)) issues.push({ field: `${at}.value`, ...verdict });
  }
  if (issues.length > before) return undefined;
  // A fresh object: nothing the caller sent beyond these three properties is kept or stored.
  const clause: Clause = { field: field as string, op: op as ConditionOp };
  if (value !== undefined) clause.value = Array.isArray(value) ? [...(value as Scalar[])] : (value as Scalar);
  return clause;
}

/**
 * Checks an untrusted condition (a request body's `condition`) and returns a normalised copy.
 * `at` prefixes every detail's field path, e.g. `action.condition` if it is ever nested elsewhere.
 */
export function validateCondition(input: unknown, at = "condition"): ConditionValidation {
  if (!isPlainObject(input)) {
    return {
      ok: false,
      details: [
        { field: at, key: "field.type", params: { type: "object" }, message: "condition must be an object" },
      ],
    };
  }
  const issues: ConditionIssue[] = [];
  const keys = Object.keys(input);
  for (const key of keys) {
    if (key !== "all" && key !== "any") {
      issues.push({ field: `${at}.${key}`, key: "field.unknown", message: "only all or any is allowed" });
    }
  }
  const modes = keys.filter((k): k is "all" | "any" => k === "all" || k === "any");
  if (modes.length !== 1) {
    issues.push({ field: at, key: "field.invalid", message: "give exactly one of all or any" });
    return { ok: false, details: issues };
  }
  const mode = modes[0]!;
  const list = input[mode];
  if (!Array.isArray(list)) {
    issues.push({
      field: `${at}.${mode}`,
      key: "field.type",
      params: { type: "array" },
      message: `${mode} must be an array`,
    });
    return { ok: false, details: issues };
  }
  if (list.length > MAX_CLAUSES) {
    issues.push({
      field: `${at}.${mode}`,
      key: "field.max_items",
      params: { limit: MAX_CLAUSES },
      message: `${mode} must have at most ${MAX_CLAUSES} clauses`,
    });
    return { ok: false, details: issues };
  }
  const clauses: Clause[] = [];
  list.forEach((item, i) => {
    const clause = validateClause(item, `${at}.${mode}[${i}]`, issues);
    if (clause !== undefined) clauses.push(clause);
  });
  if (issues.length > 0) return { ok: false, details: issues };
  return { ok: true, condition: mode === "all" ? { all: clauses } : { any: clauses } };
}

// ---------------------------------------------------------------------------------------------------------
// Evaluation

const MISSING: Lookup = { found: false };

function resolveField(field: string, context: ConditionContext): Lookup {
  const parsed = parsePath(field);
  if (!parsed.ok) return MISSING;
  const [root, ...rest] = parsed.segments;
  if (rest.length === 0) return MISSING;
  if (root === "event") return lookupOwn(context.event, rest);
  if (root === "user") return lookupOwn(context.user, rest);
  return MISSING;
}

/** `YYYY-MM-DD`, or a date-time with seconds optional and a zone required (a zoneless time has no instant). */
const ISO_DATE =
  /^(\d{4})-(\d{2})-(\d{2})(?:[Tt](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?([Zz]|([+-])(\d{2}):(\d{2})))?$/;

/** An ISO 8601 instant as [epoch milliseconds, nanoseconds within the millisecond], or undefined. */
function isoInstant(text: string): [number, number] | undefined {
  const m = ISO_DATE.exec(text);
  if (m === null) return undefined;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const [hour, minute, second] = [Number(m[4] ?? 0), Number(m[5] ?? 0), Number(m[6] ?? 0)];
  const offsetHours = Number(m[10] ?? 0);
  const offsetMinutes = Number(m[11] ?? 0);
  if (month < 1 || month > 12 || hour > 23 || minute > 59 || second > 59) return undefined;
  if (offsetHours > 23 || offsetMinutes > 59) return undefined;
  const fraction = (m[7] ?? "").padEnd(9, "0");
  // Not Date.UTC, which reads years 0–99 as 1900–1999.
  const utc = new Date(0);
  utc.setUTCFullYear(year, month - 1, day);
  // Date rolls 2026-02-30 over into March; an impossible date is not a date.
  if (utc.getUTCMonth() !== month - 1 || utc.getUTCDate() !== day) return undefined;
  utc.setUTCHours(hour, minute, second, Number(fraction.slice(0, 3)));
  const offset = (m[9] === "-" ? -1 : 1) * (offsetHours * 60 + offsetMinutes) * 60_000;
  return [utc.getTime() - offset, Number(fraction.slice(3))];
}

function sign(a: number, b: number): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** -1, 0 or 1 when `left` and `right` are comparable (same kind), otherwise undefined. */
function compare(left: unknown, right: unknown): number | undefined {
  if (typeof left === "number" && typeof right === "number") {
    return Number.isNaN(left) || Number.isNaN(right) ? undefined : sign(left, right);
  }
  if (typeof left !== "string" || typeof right !== "string") return undefined;
  const a = isoInstant(left);
  const b = isoInstant(right);
  if (a !== undefined && b !== undefined) return sign(a[0], b[0]) || sign(a[1], b[1]);
  if (a !== undefined || b !== undefined) return undefined;
  return left < right ? -1 : left > right ? 1 : 0;
}

function strictlyEqual(left: unknown, right: unknown): boolean {
  return isScalar(left) && left === right;
}

function evaluateClause(clause: Clause, context: ConditionContext): boolean {
  const found = resolveField(clause.field, context);
  const expected = clause.value;
  if (clause.op === "exists") return expected === false ? !found.found : found.found;
  if (clause.op === "ne") return !found.found || !strictlyEqual(found.value, expected);
  if (!found.found) return false;
  const actual = found.value;
  switch (clause.op) {
    case "eq":
      return strictlyEqual(actual, expected);
    case "gt":
    case "gte":
    case "lt":
    case "lte": {
      const order = compare(actual, expected);
      if (order === undefined) return false;
      if (clause.op === "gt") return order > 0;
      if (clause.op === "gte") return order >= 0;
      if (clause.op === "lt") return order < 0;
      return order <= 0;
    }
    case "in":
      return Array.isArray(expected) && expected.some((candidate) => strictlyEqual(actual, candidate));
    case "contains":
      if (typeof actual === "string") return typeof expected === "string" && actual.includes(expected);
      return Array.isArray(actual) && actual.some((element) => strictlyEqual(element, expected));
    default:
      return false;
  }
}

/** Whether the condition holds for one event. Never throws on JSON data; see the header for the rules. */
export function evaluateCondition(condition: Condition, context: ConditionContext): boolean {
  if (Object.hasOwn(condition, "all")) {
    return (condition as { all: Clause[] }).all.every((clause) => evaluateClause(clause, context));
  }
  if (Object.hasOwn(condition, "any")) {
    return (condition as { any: Clause[] }).any.some((clause) => evaluateClause(clause, context));
  }
  return false;
}
