import { DateTime, IANAZone } from "luxon";

/**
 * Wall-clock time in an IANA zone, by Luxon (the runtime's time zone database through Intl). Nothing here reads
 * the process's own zone (`TZ`): every conversion names its zone.
 *
 * A "wall" Date carries the local fields in its UTC fields (what rrule calls floating time). Only the recurrence
 * engine takes such Dates; anything that formats a time for people or other programs takes a zoned `DateTime`
 * (`inZone`), whose fields are those of its zone whatever the server's.
 */

/** An ISO 8601 date-time that names an instant: with `Z` or an offset, never read in the process's zone. */
const INSTANT = /(?:Z|[+-]\d{2}(?::?\d{2})?)$/i;

/**
 * The instant (a Date, or an ISO 8601 string with its offset) as a Luxon DateTime in `timeZone`; an unknown zone
 * or an invalid instant throws a RangeError, as Intl does. From milliseconds: Luxon's ISO parser costs three
 * times as much, and a feed makes two of these per event.
 */
export function inZone(instant: Date | string, timeZone: string): DateTime<true> {
  let ms: number;
  if (typeof instant !== "string") ms = instant.getTime();
  else ms = INSTANT.test(instant) ? Date.parse(instant) : Number.NaN;
  const at = DateTime.fromMillis(ms, { zone: timeZone });
  if (!at.isValid) throw new RangeError(`${at.invalidReason}: ${at.invalidExplanation ?? timeZone}`);
  return at;
}

/** The instant's local fields in `timeZone`, as a floating Date. */
export function utcToWall(instant: Date, timeZone: string): Date {
  return new Date(instant.getTime() + offsetAt(instant, timeZone));
}

/** The zone's offset from UTC at `instant`, in milliseconds. */
export function offsetAt(instant: Date, timeZone: string): number {
  const zone = IANAZone.create(timeZone);
  if (!zone.isValid) throw new RangeError(`unknown time zone: ${timeZone}`);
  const minutes = zone.offset(instant.getTime());
  if (Number.isNaN(minutes)) throw new RangeError("invalid date");
  // Luxon gives minutes; old local mean times have seconds in them, so round to the millisecond.
  return Math.round(minutes * 60_000);
}

/** How far either side of a wall time the offsets a transition there involves are found (none is wider). */
const TRANSITION_REACH_MS = 86_400_000;

/**
 * The instant a floating wall time names in `timeZone`. Twice-occurring times (autumn) take the first; times
 * skipped by a spring-forward gap move forward by the gap, as calendar applications do.
 */
export function wallToUtc(wall: Date, timeZone: string): Date {
  const at = wall.getTime();
  const before = offsetAt(new Date(at - TRANSITION_REACH_MS), timeZone);
  const after = offsetAt(new Date(at + TRANSITION_REACH_MS), timeZone);
  // Each offset that maps some instant back to this wall time is a reading of it; the earliest comes first.
  // Checking both is two more look-ups, and a day without a transition (the usual case) needs only one.
  const readings = (before === after ? [before] : [before, after])
    .map((offset) => at - offset)
    .filter((instant) => offsetAt(new Date(instant), timeZone) === at - instant);
  if (readings.length > 0) return new Date(Math.min(...readings));
  // No reading: the wall time is in a gap, which only a rising offset leaves. With the offset from before the
  // gap it names the instant the gap's length later on the clock, as calendar applications place it.
  return new Date(at - before);
}
/** Midnight starting `date` (YYYY-MM-DD) in `timeZone`. */
export function startOfLocalDay(date: string, timeZone: string): Date {
  return wallToUtc(new Date(`${date}T00:00:00.000Z`), timeZone);
}
