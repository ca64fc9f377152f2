import type { PlanConfig } from "../../config/plans.js";
import { inChunks } from "../../db/chunks.js";
import type { Executor } from "../../db/client.js";
import { AppError, type DetailKey } from "../../platform/errors/app-error.js";
import type { BulkStatus } from "../../platform/http/bulk.js";
import { type Actor, eventActorOf, subjectOf } from "../events/actor.js";
import { type EventInput, emitEvents } from "../events/emit.js";
import { admitStudents, type PlanLimit, studentLimitReached } from "../users/service.js";
import { insertEnrollmentsSkippingCurrent } from "./bulk-repo.js";
import type { BulkItemInput } from "./bulk-schemas.js";
import { enrollmentAbout } from "./events.js";
import { existingClassGroups, existingCourses, findUsers, type UserBrief } from "./lookups.js";
import { findEnrollments } from "./repo.js";
import type { EnrollmentRecord } from "./schemas.js";
import { expiryDetail } from "./service.js";

export interface BulkItemResult {
  index: number;
  status: BulkStatus;
  enrollment?: EnrollmentRecord;
  reason?: "already_enrolled";
  error?: AppError;
}

/** An item whose user, course and class group were all found: ready to insert. */
interface Resolved {
  index: number;
  item: BulkItemInput;
  user: UserBrief;
}

const keyOf = (userId: string, courseId: string) => `${userId}:${courseId}`;

/** Ids as the database returns them (lowercase), so items and found rows match however a client spelled them. */
function normalisedIds(item: BulkItemInput): BulkItemInput {
  return {
    ...item,
    courseId: item.courseId.toLowerCase(),
    ...(item.userId === undefined ? {} : { userId: item.userId.toLowerCase() }),
    ...(typeof item.classGroupId === "string" ? { classGroupId: item.classGroupId.toLowerCase() } : {}),
  };
}

/** Checks that need no database: exactly one of userId and email, and an expiry in the future. */
function shapeDetails(item: BulkItemInput, now: string): DetailKey[] {
  const details: DetailKey[] = [];
  if ((item.userId === undefined) === (item.email === undefined)) {
    details.push({ field: item.userId === undefined ? "userId" : "email", key: "field.user_or_email" });
  }
  const expiry = expiryDetail(item.expiresAt, now);
  if (expiry !== undefined) details.push(expiry);
  return details;
}

/**
 * Enrolls up to 1000 (user, course) pairs in one transaction with a fixed number of statements, whatever the
 * number of items:
 *   1 users by id or e-mail, 1 courses, 0–1 class groups, 1 INSERT … ON CONFLICT DO NOTHING RETURNING,
 *   1 read of the created enrollments with their progress, and emitEvents' 2–3 (events, matching automations,
 *   their deliveries), plus BEGIN and COMMIT: 8 to 10 statements for the request, about 0.01 per item at
 *   1000 items (bulk.test.ts counts them).
 * Every item is created, skipped (`already_enrolled`: a current enrollment exists, or an earlier item of the
 * request made it) or failed (the `validation_failed` envelope the single route would give, naming the field, or
 * `student_limit_reached` for a non-student enrolled as a student past the plan's limit: the seats are taken in
 * one locked step for the whole request, in item order, and only when a non-student is enrolled as a student).
 * An item is one row and one event written together, so none is ever half-applied.
 */
export async function bulkEnroll(
  db: Executor,
  plans: PlanConfig,
  tenantId: string,
  actor: Actor,
  items: readonly BulkItemInput[],
  options: { source?: "bulk" | "invite" | "learning_path" } = {},
): Promise<BulkItemResult[]> {
  const results: BulkItemResult[] = [];
  const fail = (index: number, details: DetailKey[]) =>
    results.push({ index, status: "failed", error: new AppError("validation_failed", { details }) });
  const now = new Date().toISOString();
  const pending: { index: number; item: BulkItemInput }[] = [];
  items.forEach((given, index) => {
    const item = normalisedIds(given);
    const details = shapeDetails(item, now);
    if (details.length > 0) fail(index, details);
    else pending.push({ index, item });
  });

  await db.transaction(async (tx) => {
    const resolved = await resolve(tx, tenantId, pending, fail);
    const toInsert: Resolved[] = [];
    const seen = new Set<string>();
    for (const r of resolved) {
      const key = keyOf(r.user.id, r.item.courseId);
      if (seen.has(key)) results.push({ index: r.index, status: "skipped", reason: "already_enrolled" });
      else {
        seen.add(key);
        toInsert.push(r);
      }
    }
    const refused = await seatsRefused(tx, plans, tenantId, toInsert);
    if (refused !== undefined) {
      for (let i = toInsert.length - 1; i >= 0; i--) {
        const r = toInsert[i] as Resolved;
        if (!refused.users.has(r.user.id) || roleOf(r.item) !== "student") continue;
        results.push({ index: r.index, status: "failed", error: studentLimitReached(refused) });
        toInsert.splice(i, 1);
      }
    }

    const inserted = await insertEnrollmentsSkippingCurrent(
      tx,
      tenantId,
      toInsert.map(({ item, user }) => ({
        userId: user.id,
        courseId: item.courseId,
        classGroupId: item.classGroupId ?? null,
        role: roleOf(item),
        source: options.source ?? "bulk",
        expiresAt: item.expiresAt ?? null,
      })),
    );
    const idByKey = new Map(inserted.map((row) => [keyOf(row.userId, row.courseId), row.id]));
    const records = new Map(
      (await inChunks([...idByKey.values()], (ids) => findEnrollments(tx, tenantId, ids))).map((e) => [
        e.id,
        e,
      ]),
    );

    const events: EventInput[] = [];
    const eventActor = eventActorOf(actor);
    for (const r of toInsert) {
      const id = idByKey.get(keyOf(r.user.id, r.item.courseId));
      const enrollment = id === undefined ? undefined : records.get(id);
      if (enrollment === undefined) {
        results.push({ index: r.index, status: "skipped", reason: "already_enrolled" });
        continue;
      }
      results.push({ index: r.index, status: "created", enrollment });
      events.push({
        type: "enrollment_created",
        data: {
          ...enrollmentAbout(enrollment),
          role: enrollment.role,
          status: enrollment.status,
          source: enrollment.source,
          classGroupId: enrollment.classGroupId,
        },
        actor: eventActor,
        subject: subjectOf(r.user),
      });
    }
    await inChunks(events, (chunk) => emitEvents(tx, tenantId, chunk).then(() => undefined));
  });
  return results.sort((x, y) => x.index - y.index);
}

const roleOf = (item: BulkItemInput) => item.role ?? "student";

/**
 * The non-students this request enrolls as students take seats under the plan's student limit, in item order;
 * answers those left without one (their student items fail), or nothing when no such user is involved, which
 * takes no lock and no statement.
 */
async function seatsRefused(
  tx: Executor,
  plans: PlanConfig,
  tenantId: string,
  items: readonly Resolved[],
): Promise<(PlanLimit & { users: Set<string> }) | undefined> {
  const candidates = items.filter((r) => roleOf(r.item) === "student" && r.user.role !== "student");
  if (candidates.length === 0) return undefined;
  const { plan, limit, upgrade, refused } = await admitStudents(
    tx,
    plans,
    tenantId,
    candidates.map((r) => r.user.id),
  );
  return refused.size === 0 ? undefined : { plan, limit, upgrade, users: refused };
}

/** Finds every item's user, course and class group with one query each; an item missing any of them fails. */
async function resolve(
  tx: Executor,
  tenantId: string,
  pending: readonly { index: number; item: BulkItemInput }[],
  fail: (index: number, details: DetailKey[]) => void,
): Promise<Resolved[]> {
  const unique = <T>(values: (T | null | undefined)[]) =>
    [...new Set(values)].filter((v): v is T => v !== undefined && v !== null);
  const users = await findUsers(
    tx,
    tenantId,
    unique(pending.map((p) => p.item.userId)),
    unique(pending.map((p) => p.item.email)),
    "share",
  );
  const courses = await existingCourses(tx, tenantId, unique(pending.map((p) => p.item.courseId)));
  const groups = await existingClassGroups(tx, tenantId, unique(pending.map((p) => p.item.classGroupId)));
  const byId = new Map(users.map((u) => [u.id, u]));
  const byEmail = new Map(users.map((u) => [u.email.toLowerCase(), u]));

  const resolved: Resolved[] = [];
  for (const { index, item } of pending) {
    const details: DetailKey[] = [];
    const user =
      item.userId !== undefined ? byId.get(item.userId) : byEmail.get((item.email ?? "").toLowerCase());
    if (user === undefined) {
      details.push(
        item.userId !== undefined
          ? { field: "userId", key: "field.unknown_user", params: { id: item.userId } }
          : { field: "email", key: "field.unknown_user_email", params: { email: item.email ?? "" } },
      );
    }
    if (!courses.has(item.courseId)) {
      details.push({ field: "courseId", key: "field.unknown_course", params: { id: item.courseId } });
    }
    const groupId = item.classGroupId ?? null;
    if (groupId !== null && !groups.has(groupId)) {
      details.push({ field: "classGroupId", key: "field.unknown_class_group", params: { id: groupId } });
    }
    if (details.length > 0 || user === undefined) fail(index, details);
    else resolved.push({ index, item, user });
  }
  return resolved;
}
