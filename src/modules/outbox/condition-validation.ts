/**
 * Checking an automation's condition as a request sends it (condition.ts says what a condition means): the shape
 * `{"all"|"any": [{field, op, value}]}`, each field a path under `event.` or `user.`, each value of the type its op
 * takes, and the limits on clauses and values. It returns a normalised copy, which is what is stored.
 */
import {
  type Clause,
  CONDITION_OPS,
  type Condition,
  type ConditionOp,
  isScalar,
  type Scalar,
} from "./condition.js";
import { type FieldIssue, PATH_PROBLEM_MESSAGES, parsePath } from "./path.js";

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
