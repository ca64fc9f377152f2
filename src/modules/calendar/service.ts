import { createHash, randomBytes } from "node:crypto";
import type { Db, Executor } from "../../db/client.js";
import { mayChangeOwned } from "../../platform/auth/owner.js";
import type { Principal } from "../../platform/auth/types.js";
import { AppError, type DetailKey, notFound } from "../../platform/errors/app-error.js";
import { checkRule, occurrences, ruleDetail } from "../../platform/recurrence/rrule.js";
import { canonicalTimezone } from "../institution/timezone.js";
import * as repo from "./repo.js";
import type {
  CalendarEventRecord,
  ContextType,
  CreateCalendarEventInput,
  UpdateCalendarEventInput,
} from "./schemas.js";
import { institutionTimeZone } from "./timezone.js";

export { listAgenda } from "./agenda.js";
export { institutionTimeZone } from "./timezone.js";

/** An event without `endsAt` lasts this long; an all-day one, a day. */
const DEFAULT_MINUTES = 60;

interface EventShape {
  title: string;
  description: string | null;
  startsAt: string;
  endsAt: string | null;
  allDay: boolean;
  timezone: string | null;
  locationName: string | null;
  locationAddress: string | null;
  url: string | null;
  contextType: ContextType;
  contextId: string | null;
  recurrence: string | null;
  status: string;
}

/** Everything the schema cannot check, on the event as it will be stored; returns the columns to write. */
async function normalise(db: Executor, tenantId: string, e: EventShape): Promise<repo.EventValues> {
  const details: DetailKey[] = [];
  let timeZone = e.timezone;
  if (timeZone !== null) {
    const canonical = canonicalTimezone(timeZone);
    if (canonical === undefined) details.push({ field: "timezone", key: "field.timezone" });
    else timeZone = canonical;
  }
  const zone = timeZone ?? (await institutionTimeZone(db, tenantId));
  const start = new Date(e.startsAt);
  const end =
    e.endsAt !== null
      ? new Date(e.endsAt)
      : new Date(start.getTime() + (e.allDay ? 86_400_000 : DEFAULT_MINUTES * 60_000));
  if (end.getTime() < start.getTime()) details.push({ field: "endsAt", key: "field.ends_before_starts" });
  if (e.contextType === "institution" && e.contextId !== null) {
    details.push({ field: "contextId", key: "field.unknown" });
  } else if (e.contextType !== "institution") {
    if (e.contextId === null) details.push({ field: "contextId", key: "field.required" });
    else if (!(await repo.contextExists(db, tenantId, e.contextType, e.contextId))) {
      details.push({ field: "contextId", key: "field.invalid" });
    }
  }
  let rule: string | null = null;
  if (e.recurrence !== null && details.length === 0) {
    const checked = checkRule(e.recurrence, start, zone);
    if (checked.ok) rule = checked.rule;
    else details.push(ruleDetail(checked.reason));
  }
  if (details.length > 0) throw new AppError("validation_failed", { details });
  const length = end.getTime() - start.getTime();
  const last = occurrences(rule, start, zone).at(-1) ?? start;
  return {
    title: e.title.trim(),
    description: e.description,
    startsAt: start.toISOString(),
    endsAt: end.toISOString(),
    allDay: e.allDay,
    timezone: timeZone,
    locationName: e.locationName,
    locationAddress: e.locationAddress,
    url: e.url,
    contextType: e.contextType,
    contextId: e.contextId,
    recurrence: rule,
    lastEndsAt: new Date(last.getTime() + length).toISOString(),
    status: e.status,
  };
}

export async function createEvent(
  db: Executor,
  tenantId: string,
  createdBy: string | null,
  input: CreateCalendarEventInput,
): Promise<CalendarEventRecord> {
  const values = await normalise(db, tenantId, {
    title: input.title,
    description: input.description ?? null,
    startsAt: input.startsAt,
    endsAt: input.endsAt ?? null,
    allDay: input.allDay ?? false,
    timezone: input.timezone ?? null,
    locationName: input.locationName ?? null,
    locationAddress: input.locationAddress ?? null,
    url: input.url ?? null,
    contextType: input.contextType,
    contextId: input.contextId ?? null,
    recurrence: input.recurrence ?? null,
    status: "active",
  });
  const id = await repo.insertEvent(db, tenantId, { ...values, createdBy });
  return (await repo.findEvent(db, tenantId, id)) as CalendarEventRecord;
}

export async function getEvent(db: Executor, tenantId: string, id: string): Promise<CalendarEventRecord> {
  const event = await repo.findEvent(db, tenantId, id);
  if (event === undefined) throw notFound();
  return event;
}

/**
 * The rule live classes follow (see platform/auth/owner.ts): a teacher's session changes or deletes only the events
 * it created; an administrator's session and a key act for the institution. Called with the event's row locked, so
 * the owner checked is the owner when the change is written.
 */
async function requireCreator(
  tx: Executor,
  principal: Principal,
  tenantId: string,
  id: string,
): Promise<void> {
  const creator = await repo.creatorOf(tx, tenantId, id);
  if (creator === undefined) throw notFound();
  if (!mayChangeOwned(principal, creator)) {
    throw new AppError("forbidden", { messageKey: "forbidden.calendar_event_owner" });
  }
}

/** Changes apply to the whole series (RESOURCES' `scope=this|following` is not offered: see README). */
export async function updateEvent(
  db: Db,
  tenantId: string,
  principal: Principal,
  id: string,
  input: UpdateCalendarEventInput,
): Promise<CalendarEventRecord> {
  return db.transaction(async (tx) => {
    const current = await repo.findEvent(tx, tenantId, id, true);
    if (current === undefined) throw notFound();
    await requireCreator(tx, principal, tenantId, id);
    const storedZone = await repo.ownTimezone(tx, tenantId, id);
    const pick = <K extends keyof UpdateCalendarEventInput>(k: K, fallback: unknown) =>
      input[k] === undefined ? fallback : input[k];
    const contextType = (input.contextType ?? current.contextType) as ContextType;
    const values = await normalise(tx, tenantId, {
      title: pick("title", current.title) as string,
      description: pick("description", current.description) as string | null,
      startsAt: pick("startsAt", current.startsAt) as string,
      // Moving the start without an end keeps the event's length.
      endsAt:
        input.endsAt !== undefined
          ? input.endsAt
          : input.startsAt !== undefined
            ? new Date(
                Date.parse(input.startsAt) + (Date.parse(current.endsAt) - Date.parse(current.startsAt)),
              ).toISOString()
            : current.endsAt,
      allDay: pick("allDay", current.allDay) as boolean,
      timezone: pick("timezone", storedZone) as string | null,
      locationName: pick("locationName", current.locationName) as string | null,
      locationAddress: pick("locationAddress", current.locationAddress) as string | null,
      url: pick("url", current.url) as string | null,
      contextType,
      contextId: (input.contextId !== undefined
        ? input.contextId
        : input.contextType === "institution"
          ? null
          : current.contextId) as string | null,
      recurrence: pick("recurrence", current.recurrence) as string | null,
      status: pick("status", current.status) as string,
    });
    await repo.updateEvent(tx, tenantId, id, values);
    return (await repo.findEvent(tx, tenantId, id)) as CalendarEventRecord;
  });
}

export async function deleteEvent(db: Db, tenantId: string, principal: Principal, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    if ((await repo.findEvent(tx, tenantId, id, true)) === undefined) throw notFound();
    await requireCreator(tx, principal, tenantId, id);
    if (!(await repo.deleteEvent(tx, tenantId, id))) throw notFound();
  });
}

/** 64 hex characters; only the SHA-256 is stored. */
export function hashFeedToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

export async function feedStatus(db: Executor, tenantId: string, userId: string) {
  const feed = await repo.findFeed(db, tenantId, userId);
  return { active: feed !== undefined, createdAt: feed?.createdAt ?? null };
}

/** Issues (or rotates) the user's feed token; the previous URL stops working in the same statement. */
export async function issueFeed(db: Executor, tenantId: string, userId: string, base: string) {
  const token = randomBytes(32).toString("hex");
  const createdAt = await repo.upsertFeed(db, tenantId, userId, hashFeedToken(token));
  return { url: `${base}/api/calendar/feeds/${token}.ics`, createdAt };
}

export async function revokeFeed(db: Executor, tenantId: string, userId: string): Promise<void> {
  if (!(await repo.deleteFeed(db, tenantId, userId))) throw notFound();
}
