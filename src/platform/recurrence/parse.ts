/**
 * A strict parser of RFC 5545 RRULE values for classes and calendar events. Strict because what it accepts is
 * what expand.ts must walk: every number is range-checked, each part appears once, the combinations RFC 5545
 * forbids are refused, and nothing finer than a day is accepted (see `ParseProblem`).
 */

export type Frequency = "YEARLY" | "MONTHLY" | "WEEKLY" | "DAILY";

export interface ByDay {
  /** Monday 0 … Sunday 6. */
  weekday: number;
  /** The ordinal (`-1FR`, `2MO`), 0 without one. */
  n: number;
}

export interface Rule {
  freq: Frequency;
  interval: number;
  count: number | null;
  /** A floating time (local fields in the UTC fields), as rrule.js reads UNTIL. */
  until: Date | null;
  wkst: number;
  byMonth: number[];
  byMonthDay: number[];
  byYearDay: number[];
  byWeekNo: number[];
  byDay: ByDay[];
  bySetPos: number[];
}

/**
 * `invalid`: not an RRULE this service accepts. `too_frequent`: more often than once a day (HOURLY, MINUTELY,
 * SECONDLY, or BYHOUR/BYMINUTE/BYSECOND): a class or an event happens at its start's time of day, and a
 * sub-daily series would spend the 366-occurrence cap within days while multiplying the candidates to walk by
 * up to 86,400 a day.
 */
export type ParseProblem = "invalid" | "too_frequent";

export type Parsed = { ok: true; rule: Rule; text: string } | { ok: false; problem: ParseProblem };

const WEEKDAYS = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"];
const FREQUENCIES = new Set(["YEARLY", "MONTHLY", "WEEKLY", "DAILY"]);
const SUB_DAILY = new Set(["HOURLY", "MINUTELY", "SECONDLY", "BYHOUR", "BYMINUTE", "BYSECOND"]);
const NAMES = new Set([
  "FREQ",
  "UNTIL",
  "COUNT",
  "INTERVAL",
  "WKST",
  "BYMONTH",
  "BYMONTHDAY",
  "BYYEARDAY",
  "BYWEEKNO",
  "BYDAY",
  "BYSETPOS",
]);

class Invalid extends Error {}

function integer(text: string, min: number, max: number, signed: boolean): number {
  if (!(signed ? /^[+-]?\d{1,3}$/ : /^\d{1,6}$/).test(text)) throw new Invalid();
  const n = Number(text);
  if (Math.abs(n) < min || Math.abs(n) > max) throw new Invalid();
  return n;
}

/** A list of distinct integers (duplicates dropped, so a list's length is bounded by its range). */
function list(text: string, max: number, signed: boolean): number[] {
  return [...new Set(text.split(",").map((v) => integer(v, 1, max, signed)))];
}

function until(text: string): Date {
  const m = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})Z?)?$/.exec(text);
  if (m === null) throw new Invalid();
  const [y, mo, d, h = 0, mi = 0, s = 0] = m.slice(1).map((v) => (v === undefined ? undefined : Number(v)));
  const date = new Date(Date.UTC(y as number, (mo as number) - 1, d as number, h, mi, s));
  if (date.getUTCMonth() !== (mo as number) - 1 || date.getUTCDate() !== d || h > 23 || mi > 59 || s > 59) {
    throw new Invalid();
  }
  date.setUTCFullYear(y as number); // Date.UTC maps years 0–99 to 1900–1999.
  return date;
}

function byDay(text: string): ByDay[] {
  const seen = new Map<string, ByDay>();
  for (const item of text.split(",")) {
    const m = /^([+-]?\d{1,2})?(MO|TU|WE|TH|FR|SA|SU)$/.exec(item);
    if (m === null) throw new Invalid();
    const n = m[1] === undefined ? 0 : integer(m[1], 1, 53, true);
    seen.set(`${n}${m[2]}`, { weekday: WEEKDAYS.indexOf(m[2] as string), n });
  }
  return [...seen.values()];
}

const formatUntil = (d: Date) => `${d.toISOString().slice(0, 19).replace(/[-:]/g, "")}Z`;
const formatDay = (d: ByDay) => `${d.n > 0 ? `+${d.n}` : d.n < 0 ? `${d.n}` : ""}${WEEKDAYS[d.weekday]}`;

/**
 * Parses `FREQ=WEEKLY;BYDAY=MO,WE;COUNT=10` (with or without `RRULE:`); the canonical text keeps the parts in
 * the given order, in the form rrule.js wrote before (`UNTIL=…T…Z`, `+1MO`), so stored rules read the same.
 */
export function parseRule(input: string): Parsed {
  const value = input.trim().replace(/^RRULE:/i, "");
  const parts = new Map<string, string>();
  for (const raw of value.toUpperCase().split(";")) {
    const part = raw.trim();
    if (part === "") continue;
    const eq = part.indexOf("=");
    if (eq < 1) return { ok: false, problem: "invalid" };
    const name = part.slice(0, eq).trim();
    const text = part.slice(eq + 1).trim();
    if (SUB_DAILY.has(name) || (name === "FREQ" && SUB_DAILY.has(text))) {
      return { ok: false, problem: "too_frequent" };
    }
    if (!NAMES.has(name) || parts.has(name)) return { ok: false, problem: "invalid" };
    parts.set(name, text);
  }
  const freq = parts.get("FREQ");
  if (freq === undefined || !FREQUENCIES.has(freq)) return { ok: false, problem: "invalid" };
  let rule: Rule;
  try {
    const get = (name: string) => parts.get(name);
    const numbers = (name: string, max: number, signed: boolean) => {
      const text = get(name);
      return text === undefined ? [] : list(text, max, signed);
    };
    const wkst = get("WKST");
    rule = {
      freq: freq as Frequency,
      interval: get("INTERVAL") === undefined ? 1 : integer(get("INTERVAL") as string, 1, 999_999, false),
      count: get("COUNT") === undefined ? null : integer(get("COUNT") as string, 1, 999_999, false),
      until: get("UNTIL") === undefined ? null : until(get("UNTIL") as string),
      wkst: wkst === undefined ? 0 : WEEKDAYS.indexOf(wkst),
      byMonth: numbers("BYMONTH", 12, false),
      byMonthDay: numbers("BYMONTHDAY", 31, true),
      byYearDay: numbers("BYYEARDAY", 366, true),
      byWeekNo: numbers("BYWEEKNO", 53, true),
      byDay: get("BYDAY") === undefined ? [] : byDay(get("BYDAY") as string),
      bySetPos: numbers("BYSETPOS", 366, true),
    };
  } catch (e) {
    if (e instanceof Invalid) return { ok: false, problem: "invalid" };
    throw e;
  }
  if (rule.wkst < 0 || !allowedTogether(rule)) return { ok: false, problem: "invalid" };
  const text = [...parts.keys()].map((name) => `${name}=${canonical(name, parts.get(name) as string, rule)}`);
  return { ok: true, rule, text: text.join(";") };
}

/** The combinations RFC 5545 (3.3.10) forbids. */
function allowedTogether(r: Rule): boolean {
  if (r.byWeekNo.length > 0 && r.freq !== "YEARLY") return false;
  if (r.byYearDay.length > 0 && r.freq !== "YEARLY") return false;
  if (r.byMonthDay.length > 0 && r.freq === "WEEKLY") return false;
  const ordinals = r.byDay.some((d) => d.n !== 0);
  if (ordinals && (r.freq === "WEEKLY" || r.freq === "DAILY" || r.byWeekNo.length > 0)) return false;
  const others =
    r.byMonth.length + r.byMonthDay.length + r.byYearDay.length + r.byWeekNo.length + r.byDay.length;
  return r.bySetPos.length === 0 || others > 0;
}

function canonical(name: string, text: string, rule: Rule): string {
  switch (name) {
    case "UNTIL":
      return formatUntil(rule.until as Date);
    case "BYDAY":
      return rule.byDay.map(formatDay).join(",");
    case "FREQ":
    case "WKST":
      return text;
    default:
      return text
        .split(",")
        .map((v) => String(Number(v)))
        .join(",");
  }
}
