import ical, { ICalEventStatus } from "ical-generator";
import { tzlib_get_ical_block } from "timezones-ical-library";
import type { Executor } from "../../db/client.js";
import { utcToWall } from "../../platform/recurrence/zoned.js";
import { collectAgenda } from "./agenda.js";
import * as repo from "./repo.js";
import { institutionTimeZone } from "./timezone.js";

/** What a feed holds: the last 30 days and the next year. */
const PAST_DAYS = 30;
const FUTURE_DAYS = 366;

/**
 * The user's agenda as an iCalendar document (RFC 5545), by `ical-generator`. Every time is written in its
 * event's zone (`DTSTART;TZID=…`) with a VTIMEZONE for each zone used (from `timezones-ical-library`), so
 * recurrence follows local time across daylight-saving changes. A recurring custom event is one VEVENT with its
 * RRULE; each live class occurrence is its own VEVENT (with its own UID), so one can be canceled alone.
 */
export async function renderFeed(
  db: Executor,
  tenantId: string,
  user: { userId: string; name: string },
  hostName: string,
  now = new Date(),
): Promise<string> {
  const timeZone = await institutionTimeZone(db, tenantId);
  const window = {
    from: new Date(now.getTime() - PAST_DAYS * 86_400_000).toISOString(),
    to: new Date(now.getTime() + FUTURE_DAYS * 86_400_000).toISOString(),
  };
  const audience = { userId: user.userId, ...(await repo.audienceOf(db, tenantId, user.userId)) };
  const [custom, others] = await Promise.all([
    repo.customEventsIn(db, tenantId, window, audience),
    collectAgenda(db, tenantId, window, {
      audience,
      sources: ["live_class", "lesson_due", "enrollment_expiry"],
    }),
  ]);
  const calendar = ical({
    name: `Aula — ${user.name}`,
    prodId: { company: "Aula", product: "calendar", language: "EN" },
    timezone: { name: timeZone, generator: (tz) => tzlib_get_ical_block(tz)[0] ?? null },
    ttl: 3600,
  });
  // ical-generator writes a zoned event's Date fields as they are: give it the wall-clock time in that zone.
  const zoned = (iso: string, zone: string) => utcToWall(new Date(iso), zone);
  for (const e of custom) {
    calendar.createEvent({
      id: `manual-${e.id}@${hostName}`,
      start: zoned(e.startsAt, e.timezone),
      end: zoned(e.endsAt, e.timezone),
      timezone: e.timezone,
      allDay: e.allDay,
      summary: e.title,
      description: e.description,
      location: e.locationName ?? e.locationAddress,
      url: e.url,
      repeating: e.recurrence === null ? null : `RRULE:${e.recurrence}`,
      status: e.status === "canceled" ? ICalEventStatus.CANCELLED : ICalEventStatus.CONFIRMED,
      stamp: now,
    });
  }
  for (const item of others) {
    calendar.createEvent({
      id: `${item.sourceType}-${item.occurrenceId ?? item.sourceId}@${hostName}`,
      start: zoned(item.startsAt, item.timezone),
      end: zoned(item.endsAt, item.timezone),
      timezone: item.timezone,
      summary: item.title,
      description: item.description,
      status: item.status === "canceled" ? ICalEventStatus.CANCELLED : ICalEventStatus.CONFIRMED,
      stamp: now,
    });
  }
  return calendar.toString();
}
