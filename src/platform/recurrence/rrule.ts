import rrulePkg from "rrule";
import { utcToWall, wallToUtc } from "./zoned.js";

const { RRule } = rrulePkg;

/** No series expands past this many occurrences (a year of daily classes). */
export const MAX_OCCURRENCES = 366;

export type RuleCheck = { ok: true; rule: string } | { ok: false; reason: "invalid" | "too_many" };

/**
 * An RFC 5545 RRULE value (`FREQ=WEEKLY;BYDAY=MO,WE;COUNT=10`, with or without the `RRULE:` prefix), parsed by
 * the `rrule` library. DTSTART, EXDATE and other properties are refused: the start is the event's own, in its
 * time zone. A rule must end (COUNT or UNTIL) within MAX_OCCURRENCES occurrences.
 */
export function checkRule(text: string, startsAt: Date, timeZone: string): RuleCheck {
  const value = text.trim().replace(/^RRULE:/i, "");
  if (value === "" || /[\r\n]/.test(value) || /(^|;)\s*DTSTART/i.test(value) || value.includes(":")) {
    return { ok: false, reason: "invalid" };
  }
  let options: ReturnType<typeof RRule.parseString>;
  try {
    options = RRule.parseString(value);
  } catch {
    return { ok: false, reason: "invalid" };
  }
  if (options.freq === undefined || options.freq === null) return { ok: false, reason: "invalid" };
  if (options.count == null && options.until == null) return { ok: false, reason: "too_many" };
  let rule: InstanceType<typeof RRule>;
  try {
    rule = new RRule({ ...options, dtstart: utcToWall(startsAt, timeZone), tzid: null });
    const first = rule.all((_, i) => i <= MAX_OCCURRENCES);
    if (first.length > MAX_OCCURRENCES) return { ok: false, reason: "too_many" };
    if (first.length === 0) return { ok: false, reason: "invalid" };
  } catch {
    return { ok: false, reason: "invalid" };
  }
  return { ok: true, rule: RRule.optionsToString({ ...options }).replace(/^RRULE:/, "") };
}

/**
 * The start of every occurrence, as instants: the rule runs on the wall clock of `timeZone`, so a 19:00 class
 * stays at 19:00 local across daylight-saving changes. Without a rule, just `startsAt`.
 */
export function occurrences(rule: string | null, startsAt: Date, timeZone: string): Date[] {
  if (rule === null) return [startsAt];
  const options = RRule.parseString(rule);
  const r = new RRule({ ...options, dtstart: utcToWall(startsAt, timeZone), tzid: null });
  return r.all((_, i) => i < MAX_OCCURRENCES).map((wall) => wallToUtc(wall, timeZone));
}
