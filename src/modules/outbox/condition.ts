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
import { type Lookup, lookupOwn, parsePath } from "./path.js";

export const CONDITION_OPS = ["eq", "ne", "gt", "gte", "lt", "lte", "in", "contains", "exists"] as const;
export type ConditionOp = (typeof CONDITION_OPS)[number];

export type Scalar = string | number | boolean | null;

export interface Clause {
  /** `event.<path>` or `user.<path>`. */
  field: string;
  op: ConditionOp;
  /** Required except for `exists`; shape depends on `op` (see `validateCondition`, condition-validation.ts). */
  value?: Scalar | Scalar[];
}

export type Condition = { all: Clause[] } | { any: Clause[] };

export interface ConditionContext {
  event: object;
  user: object | null;
}

/** A value a clause may hold, and the only kind `eq`, `in` and `contains` match: a JSON scalar, numbers finite. */
export function isScalar(value: unknown): value is Scalar {
  return (
    value === null ||
    typeof value === "string" ||
    typeof value === "boolean" ||
    (typeof value === "number" && Number.isFinite(value))
  );
}

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
