import type { Executor } from "../../db/client.js";
import { AppError, notFound } from "../../platform/errors/app-error.js";
import type { BulkStatus } from "../../platform/http/bulk.js";
import { cappedPageEnvelope } from "../../platform/pagination/capped.js";
import { pageWindow } from "../../platform/pagination/pagination.js";
import type { Actor } from "../events/actor.js";
import { subjectOf } from "../events/actor.js";
import type { AddMembersInput, ClassMemberRecord, ListMembersQueryType } from "./member-schemas.js";
import * as repo from "./members-repo.js";
import {
  addMemberships,
  classFull,
  lockClassGroups,
  type NewMembership,
  removeMemberships,
  takeSeats,
} from "./membership.js";
import { findClass } from "./repo.js";

export interface MemberResult {
  index: number;
  userId: string;
  status: BulkStatus;
  member?: ClassMemberRecord;
  reason?: "already_member";
  error?: AppError;
}

export async function listMembers(
  db: Executor,
  tenantId: string,
  classId: string,
  query: ListMembersQueryType,
) {
  if ((await findClass(db, tenantId, classId)) === undefined) throw notFound();
  const window = pageWindow(query);
  const filter = { classGroupId: classId, role: query.role };
  const [data, total] = await Promise.all([
    repo.listMembers(db, tenantId, filter, query.sort ?? "-joinedAt", window),
    repo.countMembers(db, tenantId, filter),
  ]);
  return cappedPageEnvelope(data, total, window);
}

const unknownUser = (index: number, id: string) =>
  new AppError("validation_failed", {
    details: [{ field: `userIds[${index}]`, key: "field.unknown_user", params: { id } }],
  });

/**
 * Adds up to 1,000 users to a class with a handful of statements, whatever the batch size: the class is locked
 * (so its capacity holds against concurrent additions), the users and the existing members are read once, and
 * the new memberships are written in one insert. Items past the capacity fail with the `conflict` envelope.
 */
export async function addMembers(
  db: Executor,
  tenantId: string,
  actor: Actor,
  classId: string,
  input: AddMembersInput,
) {
  const role = input.role ?? "student";
  const ids = input.userIds.map((id) => id.toLowerCase());
  return db.transaction(async (tx) => {
    const groups = await lockClassGroups(tx, tenantId, [classId]);
    if (!groups.has(classId)) throw notFound();
    const [found, already] = await Promise.all([
      repo.findUsers(tx, tenantId, ids).then((rows) => new Map(rows.map((u) => [u.id, u]))),
      repo.memberIdsAmong(tx, tenantId, classId, ids),
    ]);
    const results: MemberResult[] = [];
    const adding: NewMembership[] = [];
    const seen = new Set<string>();
    ids.forEach((userId, index) => {
      const user = found.get(userId);
      if (user === undefined) {
        results.push({ index, userId, status: "failed", error: unknownUser(index, userId) });
      } else if (already.has(userId) || seen.has(userId)) {
        results.push({ index, userId, status: "skipped", reason: "already_member" });
      } else {
        const capacity = takeSeats(groups, [classId]);
        if (capacity !== undefined) {
          results.push({ index, userId, status: "failed", error: classFull(capacity) });
        } else {
          adding.push({ classGroupId: classId, role, user: subjectOf(user) });
          results.push({ index, userId, status: "created" });
        }
      }
      seen.add(userId);
    });
    const inserted = new Map(
      (await addMemberships(tx, tenantId, actor, adding)).map((row) => [row.userId, row]),
    );
    for (const result of results) {
      if (result.status !== "created") continue;
      const row = inserted.get(result.userId);
      const user = found.get(result.userId);
      if (row === undefined || user === undefined) {
        // Added by a concurrent request between our read and our insert.
        result.status = "skipped";
        result.reason = "already_member";
        continue;
      }
      result.member = {
        userId: row.userId,
        name: user.name,
        email: user.email,
        role: row.role as ClassMemberRecord["role"],
        joinedAt: row.joinedAt,
      };
    }
    return results;
  });
}

export async function removeMember(
  db: Executor,
  tenantId: string,
  actor: Actor,
  classId: string,
  userId: string,
): Promise<void> {
  await db.transaction(async (tx) => {
    const [user] = await repo.findUsers(tx, tenantId, [userId]);
    if (user === undefined) throw notFound();
    const removed = await removeMemberships(tx, tenantId, actor, subjectOf(user), [classId]);
    if (removed.length === 0) throw notFound();
  });
}
