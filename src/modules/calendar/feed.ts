import ical, { ICalEventStatus } from "ical-generator";
import { tzlib_get_ical_block } from "timezones-ical-library";
import type { Executor } from "../../db/client.js";
import { inZone } from "../../platform/recurrence/zoned.js";
import { collectAgenda } from "./agenda.js";
import * as agendaRepo from "./agenda-repo.js";

/** What a feed holds: the last 30 days and the next year. */
const PAST_DAYS = 30;
const FUTURE_DAYS = 366;

/**
 * The zone's VTIMEZONE, and the TZID that block defines: for an old alias that the runtime may still call a zone
 * by (`Asia/Calcutta`), the library writes the current name (`Asia/Kolkata`), and every TZID in the document must
 * name one of its VTIMEZONEs. A zone the library lacks keeps its name and gets no block. UTC needs none:
 * ical-generator writes its times with `Z`.
 */
function vtimezone(zone: string): { tzid: string; block: string | null } {
  if (zone === "UTC" || zone === "Etc/UTC") return { tzid: "UTC", block: null };
  const [block, tzid] = tzlib_get_ical_block(zone);
  if (block === undefined || block === "" || !tzid?.startsWith("TZID=")) return { tzid: zone, block: null };
  return { tzid: tzid.slice("TZID=".length), block };
}

/**
 * The user's agenda as an iCalendar document (RFC 5545), by `ical-generator`. Every time is written in its
 * event's zone (`DTSTART;TZID=…`) with a VTIMEZONE for each zone used (from `timezones-ical-library`), so
 * recurrence follows local time across daylight-saving changes; DTSTAMP is in UTC. The server's own zone (`TZ`)
 * plays no part: times reach the library as Luxon DateTimes in their event's zone. A recurring custom event is one
 * VEVENT with its RRULE; each live class occurrence is its own VEVENT (with its own UID), so one can be canceled
 * alone.
 */
export async function renderFeed(
  db: Executor,
  tenantId: string,
  user: { userId: string; name: string },
  hostName: string,
  now = new Date(),
): Promise<string> {
  const window = {
    from: new Date(now.getTime() - PAST_DAYS * 86_400_000).toISOString(),
    to: new Date(now.getTime() + FUTURE_DAYS * 86_400_000).toISOString(),
  };
  const audience = { userId: user.userId, ...(await agendaRepo.audienceOf(db, tenantId, user.userId)) };
  const [custom, others] = await Promise.all([
    agendaRepo.customEventsIn(db, tenantId, window, audience),
    collectAgenda(db, tenantId, window, {
      audience,
      sources: ["live_class", "lesson_due", "enrollment_expiry"],
    }),
  ]);
  const calendar = ical({
    name: `Aula — ${user.name}`,
    prodId: { company: "Aula", product: "calendar", language: "EN" },
    // No calendar-wide zone: ical-generator would write every DTSTAMP in it, without the `Z` RFC 5545 requires
    // (and add only X-WR-TIMEZONE, which clients use for floating times, of which a feed has none). The generator
    // alone still gives each zone an event uses its VTIMEZONE.
    timezone: { name: null, generator: (tz) => vtimezone(tz).block },
    ttl: 3600,
  });
  // A zoned DateTime, not a Date: ical-generator reads a Date's fields in the process's zone.
  const zoned = (iso: string, zone: string) => inZone(iso, zone);
  const tzids = new Map<string, string>();
  const tzidOf = (zone: string) => {
    const known = tzids.get(zone);
    if (known !== undefined) return known;
    const { tzid } = vtimezone(zone);
    tzids.set(zone, tzid);
    return tzid;
  };
  const stamp = inZone(now, "UTC");
  for (const e of custom) {
    calendar.createEvent({
      id: `manual-${e.id}@${hostName}`,
      start: zoned(e.startsAt, e.timezone),
      end: zoned(e.endsAt, e.timezone),
      timezone: tzidOf(e.timezone),
      allDay: e.allDay,
      summary: e.title,
      description: e.description,
      location: e.locationName ?? e.locationAddress,
      url: e.url,
      repeating: e.recurrence === null ? null : `RRULE:${e.recurrence}`,
      status: e.status === "canceled" ? ICalEventStatus.CANCELLED : ICalEventStatus.CONFIRMED,
      stamp,
    });
  }
  for (const item of others) {
    calendar.createEvent({
      id: `${item.sourceType}-${item.occurrenceId ?? item.sourceId}@${hostName}`,
      start: zoned(item.startsAt, item.timezone),
      end: zoned(item.endsAt, item.timezone),
      timezone: tzidOf(item.timezone),
      summary: item.title,
      description: item.description,
      status: item.status === "canceled" ? ICalEventStatus.CANCELLED : ICalEventStatus.CONFIRMED,
      stamp,
    });
  }
  return calendar.toString();
}
