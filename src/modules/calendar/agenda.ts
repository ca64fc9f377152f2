import type { Executor } from "../../db/client.js";
import type { Principal } from "../../platform/auth/types.js";
import { AppError, validationError } from "../../platform/errors/app-error.js";
import { pageEnvelope, pageWindow } from "../../platform/pagination/pagination.js";
import { occurrences } from "../../platform/recurrence/rrule.js";
import { startOfLocalDay } from "../../platform/recurrence/zoned.js";
import * as agendaRepo from "./agenda-repo.js";
import * as repo from "./repo.js";
import {
  type AgendaItemRecord,
  type AgendaQueryType,
  type CalendarEventRecord,
  type ContextType,
  MAX_WINDOW_DAYS,
  type SourceType,
} from "./schemas.js";
import { institutionTimeZone } from "./timezone.js";

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2})$/;

/** A bound of the window: a date means its midnight in the institution's time zone. */
function bound(value: string, field: string, timeZone: string): Date {
  let instant: Date | undefined;
  if (DATE.test(value)) instant = startOfLocalDay(value, timeZone);
  else if (DATE_TIME.test(value)) instant = new Date(value);
  if (instant === undefined || Number.isNaN(instant.getTime()))
    throw validationError(field, "field.date_or_date_time");
  return instant;
}

export function parseWindow(from: string, to: string, timeZone: string): agendaRepo.Window {
  const start = bound(from, "from", timeZone);
  const end = bound(to, "to", timeZone);
  if (end.getTime() <= start.getTime()) throw validationError("to", "field.ends_before_starts");
  if (end.getTime() - start.getTime() > MAX_WINDOW_DAYS * 86_400_000) {
    throw validationError("to", "field.window_too_long", { days: MAX_WINDOW_DAYS });
  }
  return { from: start.toISOString(), to: end.toISOString() };
}

/** Each occurrence of a custom event that overlaps the window. */
export function expandCustom(event: CalendarEventRecord, window: agendaRepo.Window): AgendaItemRecord[] {
  const start = new Date(event.startsAt);
  const length = new Date(event.endsAt).getTime() - start.getTime();
  const from = Date.parse(window.from);
  const to = Date.parse(window.to);
  const items: AgendaItemRecord[] = [];
  for (const occurrence of occurrences(event.recurrence, start, event.timezone)) {
    const s = occurrence.getTime();
    const e = s + length;
    if (s >= to || (e <= from && !(length === 0 && s >= from))) continue;
    items.push({
      id: event.recurrence === null ? `manual:${event.id}` : `manual:${event.id}:${occurrence.toISOString()}`,
      sourceType: "manual",
      sourceId: event.id,
      occurrenceId: null,
      title: event.title,
      description: event.description,
      startsAt: occurrence.toISOString(),
      endsAt: new Date(e).toISOString(),
      allDay: event.allDay,
      timezone: event.timezone,
      contextType: event.contextType,
      contextId: event.contextId,
      url: event.url,
      locationName: event.locationName,
      status: event.status as "active" | "canceled",
    });
  }
  return items;
}

export interface AgendaScope {
  /** A personal agenda: the user's courses, classes, invitations and own events. Undefined: the institution's. */
  audience?: agendaRepo.Audience;
  sources?: readonly SourceType[];
  /** The institution's calendar with users' own events too (administrators and keys). */
  withPersonal?: boolean;
}

/** Every event of the window from every source, by start time. */
export async function collectAgenda(
  db: Executor,
  tenantId: string,
  window: agendaRepo.Window,
  scope: AgendaScope,
): Promise<AgendaItemRecord[]> {
  const timeZone = await institutionTimeZone(db, tenantId);
  const wants = (s: SourceType) => scope.sources === undefined || scope.sources.includes(s);
  const audience = scope.audience;
  const [custom, live, due, expiries] = await Promise.all([
    wants("manual") ? agendaRepo.customEventsIn(db, tenantId, window, audience, scope.withPersonal) : [],
    wants("live_class") ? agendaRepo.liveOccurrencesIn(db, tenantId, window, audience) : [],
    wants("lesson_due") ? agendaRepo.lessonDueDatesIn(db, tenantId, window, audience) : [],
    wants("enrollment_expiry") && audience !== undefined
      ? agendaRepo.enrollmentExpiriesIn(db, tenantId, window, audience.userId)
      : [],
  ]);
  const items: AgendaItemRecord[] = custom.flatMap((e) => expandCustom(e, window));
  for (const o of live) {
    const contextType: ContextType =
      o.courseId !== null ? "course" : o.classGroupId !== null ? "class_group" : "institution";
    items.push({
      id: `live_class:${o.occurrenceId}`,
      sourceType: "live_class",
      sourceId: o.liveClassId,
      occurrenceId: o.occurrenceId,
      title: o.title,
      description: o.description,
      startsAt: o.startsAt,
      endsAt: o.endsAt,
      allDay: false,
      timezone: o.timezone,
      contextType,
      contextId: o.courseId ?? o.classGroupId,
      url: null,
      locationName: null,
      status: o.status === "canceled" ? "canceled" : "active",
    });
  }
  for (const d of due) {
    items.push({
      id: `lesson_due:${d.lessonId}`,
      sourceType: "lesson_due",
      sourceId: d.lessonId,
      occurrenceId: null,
      title: d.title,
      description: d.courseTitle,
      startsAt: d.dueAt,
      endsAt: d.dueAt,
      allDay: false,
      timezone: timeZone,
      contextType: "course",
      contextId: d.courseId,
      url: null,
      locationName: null,
      status: "active",
    });
  }
  for (const x of expiries) {
    items.push({
      id: `enrollment_expiry:${x.enrollmentId}`,
      sourceType: "enrollment_expiry",
      sourceId: x.enrollmentId,
      occurrenceId: null,
      title: x.courseTitle,
      description: null,
      startsAt: x.expiresAt,
      endsAt: x.expiresAt,
      allDay: false,
      timezone: timeZone,
      contextType: "course",
      contextId: x.courseId,
      url: null,
      locationName: null,
      status: "active",
    });
  }
  return items.sort((x, y) =>
    x.startsAt < y.startsAt ? -1 : x.startsAt > y.startsAt ? 1 : x.id < y.id ? -1 : 1,
  );
}

/**
 * Students see their own agenda only (another `userId` is 403). Staff and keys see the institution's calendar,
 * or a user's agenda with `userId`.
 */
async function audienceFor(db: Executor, tenantId: string, principal: Principal, userId: string | undefined) {
  if (principal.kind === "session" && principal.role === "student") {
    if (userId !== undefined && userId !== principal.userId) throw new AppError("forbidden");
    userId = principal.userId;
  }
  if (userId === undefined) return undefined;
  if (!(await repo.userExists(db, tenantId, userId)))
    throw validationError("userId", "field.unknown_user", { id: userId });
  return { userId, ...(await agendaRepo.audienceOf(db, tenantId, userId)) };
}

export async function listAgenda(
  db: Executor,
  tenantId: string,
  principal: Principal,
  query: AgendaQueryType,
) {
  const timeZone = await institutionTimeZone(db, tenantId);
  const window = parseWindow(query.from, query.to, timeZone);
  const audience = await audienceFor(db, tenantId, principal, query.userId);
  // A teacher's institution view leaves out users' own events; administrators and keys see them.
  const withPersonal = principal.kind === "key" || principal.role === "institution_admin";
  let items = await collectAgenda(db, tenantId, window, {
    audience,
    sources: query.sourceType === undefined ? undefined : [query.sourceType],
    withPersonal,
  });
  if (query.contextType !== undefined) items = items.filter((i) => i.contextType === query.contextType);
  if (query.contextId !== undefined) items = items.filter((i) => i.contextId === query.contextId);
  const page = pageWindow(query);
  return pageEnvelope(items.slice(page.offset, page.offset + page.limit), items.length, page);
}
