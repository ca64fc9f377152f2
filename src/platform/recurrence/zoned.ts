/**
 * Wall-clock time in an IANA zone, with the runtime's time zone database (Intl) and no extra dependency.
 * A "wall" Date carries the local fields in its UTC fields (what rrule calls floating time).
 */
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (f === undefined) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** The instant's local fields in `timeZone`, as a floating Date. */
export function utcToWall(instant: Date, timeZone: string): Date {
  const parts: Record<string, number> = {};
  for (const p of formatter(timeZone).formatToParts(instant)) {
    if (p.type !== "literal") parts[p.type] = Number(p.value);
  }
  return new Date(
    Date.UTC(
      parts.year as number,
      (parts.month as number) - 1,
      parts.day as number,
      parts.hour as number,
      parts.minute as number,
      parts.second as number,
      instant.getUTCMilliseconds(),
    ),
  );
}

/** The zone's offset from UTC at `instant`, in milliseconds. */
export function offsetAt(instant: Date, timeZone: string): number {
  return utcToWall(instant, timeZone).getTime() - instant.getTime();
}

/**
 * The instant a floating wall time names in `timeZone`. Twice-occurring times (autumn) take the first; times
 * skipped by a spring-forward gap move forward by the gap, as calendar applications do.
 */
export function wallToUtc(wall: Date, timeZone: string): Date {
  const guess = wall.getTime() - offsetAt(wall, timeZone);
  const offset = offsetAt(new Date(guess), timeZone);
  const candidate = wall.getTime() - offset;
  const earlier = wall.getTime() - offsetAt(new Date(candidate - 3 * 3600_000), timeZone);
  if (utcToWall(new Date(earlier), timeZone).getTime() === wall.getTime() && earlier < candidate) {
    return new Date(earlier);
  }
  return new Date(candidate);
}

/** Midnight starting `date` (YYYY-MM-DD) in `timeZone`. */
export function startOfLocalDay(date: string, timeZone: string): Date {
  return wallToUtc(new Date(`${date}T00:00:00.000Z`), timeZone);
}
