import fc from "fast-check";
import rrulePkg from "rrule";
import { describe, expect, it } from "vitest";
import { expand, MAX_SPAN_YEARS } from "./expand.js";
import { parseRule } from "./parse.js";
import { checkRule, MAX_OCCURRENCES, occurrences } from "./rrule.js";
import { utcToWall } from "./zoned.js";

// rrule.js is no longer what expands rules here; it stays (as a development dependency) the oracle that the
// expansion must agree with on rules it can expand. The generated rules leave out its two departures from
// RFC 5545 (see expand.ts): BYDAY mixing plain and numbered days, BYSETPOS below -1, several BYSETPOS
// positions naming one day (rrule.js yields that day twice), and the last week of the year before in BYWEEKNO.
const { RRule } = rrulePkg;

const ZONE = "America/Sao_Paulo";
const START = new Date("2026-12-01T22:00:00.000Z"); // 19:00 in São Paulo
const BOUND = (MAX_SPAN_YEARS + 1) * 366;

/** CPU milliseconds of the median of `runs` calls (CPU time, so a busy machine's scheduling does not count). */
function medianCpuMs(fn: () => unknown, runs = 9): number {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const before = process.cpuUsage();
    fn();
    const used = process.cpuUsage(before);
    times.push((used.user + used.system) / 1000);
  }
  return times.sort((x, y) => x - y)[Math.floor(runs / 2)] as number;
}

describe("recurrence rules are bounded by work, not by matches", () => {
  // Rules that never occur: rrule.js walked each of them period by period to the year 9999 (22 s for the first).
  it.each([
    ["FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30;COUNT=1"],
    ["FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30;UNTIL=20301231T000000Z"],
    ["FREQ=DAILY;BYMONTH=2,4,6;BYMONTHDAY=31;COUNT=1"],
    ["FREQ=MONTHLY;BYMONTH=2,4,6;BYMONTHDAY=31;COUNT=1"],
    ["FREQ=YEARLY;INTERVAL=400;BYYEARDAY=366;COUNT=1"],
    ["FREQ=YEARLY;BYWEEKNO=53;BYMONTH=1;BYMONTHDAY=15;COUNT=1"],
    ["FREQ=MONTHLY;BYMONTH=2;BYMONTHDAY=30;BYSETPOS=1;COUNT=1"],
    ["FREQ=MONTHLY;BYDAY=MO;BYSETPOS=6;COUNT=1"],
    ["FREQ=MONTHLY;BYDAY=5FR;BYMONTH=2;BYMONTHDAY=-1;COUNT=3"],
    ["FREQ=YEARLY;BYDAY=-53MO;BYMONTHDAY=-31,-30;BYYEARDAY=-1,-2,-3;COUNT=1"],
    ["FREQ=WEEKLY;INTERVAL=2;WKST=SU;BYDAY=SA;BYMONTH=2;COUNT=400"],
  ])("%s is refused after a bounded walk", (text) => {
    const check = checkRule(text, START, ZONE);
    expect(check.ok).toBe(false);
    const parsed = parseRule(text);
    if (!parsed.ok) throw new Error("parses");
    const walk = expand(parsed.rule, utcToWall(START, ZONE), MAX_OCCURRENCES + 1);
    expect(walk.walked).toBeLessThanOrEqual(BOUND);
    expect(medianCpuMs(() => checkRule(text, START, ZONE))).toBeLessThan(25);
  });

  it("names why: never, too long, too many, too frequent, invalid", () => {
    expect(checkRule("FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30;COUNT=1", START, ZONE)).toEqual({
      ok: false,
      reason: "never",
    });
    expect(checkRule("FREQ=DAILY;INTERVAL=999999;COUNT=2", START, ZONE)).toEqual({
      ok: false,
      reason: "too_long",
    });
    expect(checkRule(`FREQ=YEARLY;COUNT=${MAX_SPAN_YEARS + 1}`, START, ZONE)).toEqual({
      ok: false,
      reason: "too_long",
    });
    expect(checkRule(`FREQ=YEARLY;COUNT=${MAX_SPAN_YEARS}`, START, ZONE).ok).toBe(true);
    expect(checkRule("FREQ=DAILY;COUNT=367", START, ZONE)).toEqual({ ok: false, reason: "too_many" });
    expect(checkRule("FREQ=DAILY", START, ZONE)).toEqual({ ok: false, reason: "too_many" });
    expect(checkRule("FREQ=DAILY;UNTIL=20250101", START, ZONE)).toEqual({ ok: false, reason: "never" });
    for (const text of [
      "FREQ=HOURLY;COUNT=2",
      "FREQ=MINUTELY;COUNT=2",
      "FREQ=SECONDLY;BYMONTH=2;BYMONTHDAY=30;COUNT=1",
      "FREQ=DAILY;BYHOUR=9,14;COUNT=2",
      "FREQ=DAILY;BYMINUTE=0,30;COUNT=2",
      "FREQ=WEEKLY;BYSECOND=1;COUNT=2",
    ]) {
      expect(checkRule(text, START, ZONE), text).toEqual({ ok: false, reason: "too_frequent" });
    }
    for (const text of [
      "",
      "FREQ=NEVER;COUNT=1",
      "COUNT=2",
      "FREQ=DAILY;COUNT=abc",
      "FREQ=DAILY;COUNT=0",
      "FREQ=DAILY;INTERVAL=0;COUNT=2",
      "FREQ=DAILY;FREQ=WEEKLY;COUNT=2",
      "FREQ=YEARLY;BYMONTH=13;COUNT=1",
      "FREQ=MONTHLY;BYMONTHDAY=0;COUNT=1",
      "FREQ=MONTHLY;BYMONTHDAY=1,,2;COUNT=1",
      "FREQ=YEARLY;BYSETPOS=1;COUNT=1",
      "FREQ=MONTHLY;BYWEEKNO=1;COUNT=1",
      "FREQ=DAILY;BYYEARDAY=1;COUNT=1",
      "FREQ=WEEKLY;BYMONTHDAY=1;COUNT=1",
      "FREQ=WEEKLY;BYDAY=1MO;COUNT=1",
      "FREQ=YEARLY;BYWEEKNO=1;BYDAY=1MO;COUNT=1",
      "FREQ=DAILY;UNTIL=20270230;COUNT=1",
      "FREQ=DAILY;BYEASTER=0;COUNT=1",
      "DTSTART:20260101T000000Z;FREQ=DAILY;COUNT=2",
      "FREQ=DAILY;COUNT=2\r\nEXDATE:20270101",
    ]) {
      expect(checkRule(text, START, ZONE), text).toEqual({ ok: false, reason: "invalid" });
    }
  });

  it("expands every accepted rule within the span bound, on every path (occurrences too)", () => {
    fc.assert(
      fc.property(ruleArbitrary(), startArbitrary(), (text, start) => {
        const parsed = parseRule(text);
        if (!parsed.ok) return;
        const walk = expand(parsed.rule, utcToWall(start, ZONE), MAX_OCCURRENCES + 1);
        expect(walk.walked).toBeLessThanOrEqual(BOUND);
        expect(occurrences(text, start, ZONE).length).toBeLessThanOrEqual(MAX_OCCURRENCES);
      }),
      { numRuns: 300 },
    );
  });

  it("agrees with rrule.js wherever rrule.js ends", () => {
    let compared = 0;
    fc.assert(
      fc.property(ruleArbitrary(), startArbitrary(), (text, start) => {
        const parsed = parseRule(text);
        if (!parsed.ok || parsed.rule.count === null) return;
        const wall = utcToWall(start, ZONE);
        const ours = expand(parsed.rule, wall, MAX_OCCURRENCES);
        // Only rules shown to reach COUNT: rrule.js walks to the year 9999 on the others.
        if (ours.dates.length !== parsed.rule.count) return;
        const theirs = new RRule({ ...RRule.parseString(text), dtstart: wall, tzid: null }).all(
          (_, i) => i < (parsed.rule.count as number),
        );
        expect(
          ours.dates.map((d) => d.toISOString()),
          text,
        ).toEqual(theirs.map((d) => d.toISOString()));
        compared += 1;
        expect(parsed.text).toBe(RRule.optionsToString(RRule.parseString(text)).replace(/^RRULE:/, ""));
      }),
      { numRuns: 400 },
    );
    // Most generated rules do reach COUNT: the comparison is not vacuous.
    expect(compared).toBeGreaterThan(100);
  });

  it("keeps a weekly class on the wall clock across daylight saving, and honours UNTIL and COUNT", () => {
    // New York moves from UTC−4 to UTC−5 on 2026-11-01: 19:00 stays 19:00 local.
    const start = new Date("2026-10-20T23:00:00.000Z");
    const weekly = occurrences("FREQ=WEEKLY;BYDAY=TU;COUNT=3", start, "America/New_York").map((d) =>
      d.toISOString(),
    );
    expect(weekly).toEqual([
      "2026-10-20T23:00:00.000Z",
      "2026-10-27T23:00:00.000Z",
      "2026-11-04T00:00:00.000Z",
    ]);
    const until = occurrences("FREQ=DAILY;UNTIL=20261023T190000", start, "America/New_York");
    expect(until.map((d) => d.toISOString())).toEqual([
      "2026-10-20T23:00:00.000Z",
      "2026-10-21T23:00:00.000Z",
      "2026-10-22T23:00:00.000Z",
      "2026-10-23T23:00:00.000Z",
    ]);
    expect(checkRule("RRULE:freq=weekly;byday=tu,th;count=6", start, "America/New_York")).toEqual({
      ok: true,
      rule: "FREQ=WEEKLY;BYDAY=TU,TH;COUNT=6",
    });
  });
});

const list = (min: number, max: number) =>
  fc.uniqueArray(fc.integer({ min, max }), { minLength: 1, maxLength: 3 }).map((xs) => xs.join(","));

function ruleArbitrary(): fc.Arbitrary<string> {
  const days = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"];
  return fc
    .record({
      freq: fc.constantFrom("DAILY", "WEEKLY", "MONTHLY", "YEARLY"),
      interval: fc.integer({ min: 1, max: 3 }),
      count: fc.integer({ min: 1, max: 40 }),
      wkst: fc.option(fc.constantFrom(...days), { nil: undefined }),
      byMonth: fc.option(list(1, 12), { nil: undefined }),
      byMonthDay: fc.option(
        fc.uniqueArray(
          fc.integer({ min: -31, max: 31 }).filter((x) => x !== 0),
          { minLength: 1, maxLength: 3 },
        ),
        { nil: undefined },
      ),
      byYearDay: fc.option(
        fc.uniqueArray(
          fc.integer({ min: -366, max: 366 }).filter((x) => x !== 0),
          { minLength: 1, maxLength: 3 },
        ),
        { nil: undefined },
      ),
      byWeekNo: fc.option(fc.uniqueArray(fc.integer({ min: 1, max: 51 }), { minLength: 1, maxLength: 3 }), {
        nil: undefined,
      }),
      byDay: fc.option(
        fc.oneof(
          fc.uniqueArray(fc.constantFrom(...days), { minLength: 1, maxLength: 3 }).map((xs) => xs.join(",")),
          fc
            .uniqueArray(
              fc
                .tuple(fc.constantFrom(-2, -1, 1, 2, 3, 5, 20), fc.constantFrom(...days))
                .map(([n, d]) => `${n}${d}`),
              { minLength: 1, maxLength: 2 },
            )
            .map((xs) => xs.join(",")),
        ),
        { nil: undefined },
      ),
      bySetPos: fc.option(fc.constantFrom(-1, 1, 2, 3), { nil: undefined }),
    })
    .map((r) => {
      const parts = [`FREQ=${r.freq}`];
      if (r.interval > 1) parts.push(`INTERVAL=${r.interval}`);
      if (r.wkst !== undefined) parts.push(`WKST=${r.wkst}`);
      if (r.byMonth !== undefined) parts.push(`BYMONTH=${r.byMonth}`);
      if (r.byMonthDay !== undefined && r.freq !== "WEEKLY")
        parts.push(`BYMONTHDAY=${r.byMonthDay.join(",")}`);
      if (r.freq === "YEARLY" && r.byYearDay !== undefined) parts.push(`BYYEARDAY=${r.byYearDay.join(",")}`);
      const weekNo = r.freq === "YEARLY" && r.byWeekNo !== undefined;
      if (weekNo) parts.push(`BYWEEKNO=${r.byWeekNo?.join(",")}`);
      const ordinals = r.byDay !== undefined && /\d/.test(r.byDay);
      const ordinalsAllowed = (r.freq === "MONTHLY" || r.freq === "YEARLY") && !weekNo;
      if (r.byDay !== undefined && (!ordinals || ordinalsAllowed)) parts.push(`BYDAY=${r.byDay}`);
      if (r.bySetPos !== undefined && parts.length > 1) parts.push(`BYSETPOS=${r.bySetPos}`);
      parts.push(`COUNT=${r.count}`);
      return parts.join(";");
    });
}

function startArbitrary(): fc.Arbitrary<Date> {
  return fc
    .integer({ min: Date.UTC(2026, 0, 1) / 60_000, max: Date.UTC(2031, 0, 1) / 60_000 })
    .map((m) => new Date(m * 60_000));
}
