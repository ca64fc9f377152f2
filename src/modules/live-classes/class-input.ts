/**
 * What creating or changing a live class checks in its input before it writes: the people it names, its time zone,
 * and the schedule its start and rule make (the occurrences, or the 400 they earn). Each adds its details to the
 * caller's list, so one 400 names every problem.
 */
import type { Executor } from "../../db/client.js";
import type { DetailKey } from "../../platform/errors/app-error.js";
import { checkRule, occurrences, ruleDetail } from "../../platform/recurrence/rrule.js";
import { institutionTimeZone } from "../calendar/service.js";
import { canonicalTimezone } from "../institution/timezone.js";
import * as repo from "./repo.js";

const STAFF = new Set(["teacher", "institution_admin"]);

/** Users named by id must exist; hosts must be active staff. Adds a detail per problem. */
export async function checkPeople(
  db: Executor,
  tenantId: string,
  details: DetailKey[],
  ids: { field: string; ids: string[]; staff: boolean }[],
) {
  const all = [...new Set(ids.flatMap((g) => g.ids))];
  const found = new Map((await repo.findUsers(db, tenantId, all)).map((u) => [u.id, u]));
  for (const group of ids) {
    for (const id of group.ids) {
      const user = found.get(id);
      if (user === undefined) details.push({ field: group.field, key: "field.unknown_user", params: { id } });
      else if (group.staff && (!STAFF.has(user.role) || user.status !== "active")) {
        details.push({ field: group.field, key: "field.not_active_staff" });
      }
    }
  }
}

interface Schedule {
  startsAt: string;
  durationMinutes: number;
  timezone: string;
  recurrence: string | null;
}

/** The occurrences of a schedule, or the 400 its rule or start earns. */
export function slotsOf(s: Schedule, details: DetailKey[]) {
  const start = new Date(s.startsAt);
  if (start.getTime() <= Date.now()) details.push({ field: "startsAt", key: "field.future_required" });
  let rule: string | null = null;
  if (s.recurrence !== null) {
    const checked = checkRule(s.recurrence, start, s.timezone);
    if (checked.ok) rule = checked.rule;
    else details.push(ruleDetail(checked.reason));
  }
  if (details.length > 0) return { rule, slots: [] };
  const ms = s.durationMinutes * 60_000;
  const slots = occurrences(rule, start, s.timezone).map((d) => ({
    startsAt: d.toISOString(),
    endsAt: new Date(d.getTime() + ms).toISOString(),
  }));
  return { rule, slots };
}

export async function zoneOf(
  db: Executor,
  tenantId: string,
  given: string | undefined,
  details: DetailKey[],
) {
  if (given === undefined) return institutionTimeZone(db, tenantId);
  const zone = canonicalTimezone(given);
  if (zone === undefined) details.push({ field: "timezone", key: "field.timezone" });
  return zone ?? "UTC";
}
