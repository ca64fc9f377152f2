import type { DetailKey } from "../errors/app-error.js";
import { expand, MAX_SPAN_YEARS } from "./expand.js";
import { parseRule } from "./parse.js";
import { utcToWall, wallToUtc } from "./zoned.js";

/** No series expands past this many occurrences (a year of daily classes). */
export const MAX_OCCURRENCES = 366;

export { MAX_SPAN_YEARS };

/**
 * Why a rule is refused: `invalid` (not an RRULE we accept), `too_frequent` (more often than daily),
 * `too_many` (no end, or more than MAX_OCCURRENCES), `never` (no occurrence within MAX_SPAN_YEARS of the start),
 * `too_long` (does not end within MAX_SPAN_YEARS of the start).
 */
export type RuleProblem = "invalid" | "too_frequent" | "too_many" | "never" | "too_long";

export type RuleCheck = { ok: true; rule: string } | { ok: false; reason: RuleProblem };

/**
 * An RFC 5545 RRULE value (`FREQ=WEEKLY;BYDAY=MO,WE;COUNT=10`, with or without the `RRULE:` prefix). DTSTART,
 * EXDATE and other properties are refused: the start is the event's own, in its time zone. A rule must repeat
 * at most daily, occur at least once and end (COUNT or UNTIL) within MAX_OCCURRENCES occurrences and
 * MAX_SPAN_YEARS years; deciding that walks a bounded span whatever the rule (see expand.ts).
 */
export function checkRule(text: string, startsAt: Date, timeZone: string): RuleCheck {
  const parsed = parseRule(text);
  if (!parsed.ok) return { ok: false, reason: parsed.problem };
  const { rule } = parsed;
  if (rule.count === null && rule.until === null) return { ok: false, reason: "too_many" };
  const found = expand(rule, utcToWall(startsAt, timeZone), MAX_OCCURRENCES + 1);
  if (found.dates.length > MAX_OCCURRENCES) return { ok: false, reason: "too_many" };
  if (found.dates.length === 0) return { ok: false, reason: "never" };
  if (found.stop === "span") return { ok: false, reason: "too_long" };
  return { ok: true, rule: parsed.text };
}

/** The `details` entry (field `recurrence`, by default) that a refused rule earns. */
export function ruleDetail(reason: RuleProblem, field = "recurrence"): DetailKey {
  switch (reason) {
    case "invalid":
      return { field, key: "field.rrule_invalid", params: { limit: MAX_OCCURRENCES } };
    case "too_many":
      return { field, key: "field.too_many_occurrences", params: { limit: MAX_OCCURRENCES } };
    case "too_frequent":
      return { field, key: "field.rrule_too_frequent" };
    case "never":
      return { field, key: "field.rrule_never", params: { years: MAX_SPAN_YEARS } };
    case "too_long":
      return { field, key: "field.rrule_too_long", params: { years: MAX_SPAN_YEARS } };
  }
}

/**
 * The start of every occurrence, as instants: the rule runs on the wall clock of `timeZone`, so a 19:00 class
 * stays at 19:00 local across daylight-saving changes. Without a rule, just `startsAt`. A stored rule that no
 * longer parses (accepted before the rules above) yields just `startsAt` rather than failing the read. At most
 * MAX_OCCURRENCES, within MAX_SPAN_YEARS of the start.
 */
export function occurrences(rule: string | null, startsAt: Date, timeZone: string): Date[] {
  if (rule === null) return [startsAt];
  const parsed = parseRule(rule);
  if (!parsed.ok) return [startsAt];
  return expand(parsed.rule, utcToWall(startsAt, timeZone), MAX_OCCURRENCES).dates.map((wall) =>
    wallToUtc(wall, timeZone),
  );
}
