import type { Executor } from "../../db/client.js";
import { readCounter } from "../../db/counters.js";
import { isUniqueViolation } from "../../db/errors.js";
import { AppError, type DetailKey, notFound } from "../../platform/errors/app-error.js";
import { cappedPageEnvelope } from "../../platform/pagination/capped.js";
import { pageWindow } from "../../platform/pagination/pagination.js";
import { type Actor, eventActorOf, subjectOf } from "../events/actor.js";
import * as membersRepo from "./members-repo.js";
import { emitInChunks } from "./membership.js";
import * as repo from "./repo.js";
import type {
  ClassGroupRecord,
  CreateClassInput,
  ListClassesQueryType,
  UpdateClassInput,
} from "./schemas.js";

export { addMembers, listMembers, removeMember } from "./members-service.js";
// What other modules use of classes: memberships (users, invites) go through these.
export {
  addMemberships,
  classFull,
  type GroupSeats,
  lockClassGroups,
  memberRoleFor,
  type NewMembership,
  removeMemberships,
  takeSeats,
  unknownClassGroups,
} from "./membership.js";

function codeTaken(err: unknown): never {
  if (isUniqueViolation(err, "class_groups_tenant_code_key")) {
    throw new AppError("conflict", { messageKey: "conflict.class_code_taken" });
  }
  throw err;
}

/** Course ids must name courses of this institution; the dates, when both are set, must be in order. */
async function validate(
  tx: Executor,
  tenantId: string,
  input: { courseIds?: string[]; startsAt?: string | null; endsAt?: string | null },
): Promise<void> {
  const details: DetailKey[] = [];
  const courseIds = input.courseIds ?? [];
  for (const id of await repo.missingCourses(tx, tenantId, courseIds)) {
    details.push({
      field: `courseIds[${courseIds.indexOf(id)}]`,
      key: "field.unknown_course",
      params: { id },
    });
  }
  const { startsAt, endsAt } = input;
  if (startsAt != null && endsAt != null && Date.parse(endsAt) <= Date.parse(startsAt)) {
    details.push({ field: "endsAt", key: "field.ends_before_starts" });
  }
  if (details.length > 0) throw new AppError("validation_failed", { details });
}

export async function listClasses(db: Executor, tenantId: string, query: ListClassesQueryType) {
  const window = pageWindow(query);
  const filter = { status: query.status, search: query.search, courseId: query.courseId?.toLowerCase() };
  const sort = query.sort ?? "-createdAt";
  const [data, total] = await Promise.all([
    repo.listClasses(db, tenantId, filter, sort, window),
    repo.countClasses(db, tenantId, filter),
  ]);
  return cappedPageEnvelope(data, total, window);
}

export async function getClass(db: Executor, tenantId: string, id: string): Promise<ClassGroupRecord> {
  const found = await repo.findClass(db, tenantId, id);
  if (found === undefined) throw notFound();
  return found;
}

export async function createClass(
  db: Executor,
  tenantId: string,
  input: CreateClassInput,
): Promise<ClassGroupRecord> {
  return db.transaction(async (tx) => {
    await validate(tx, tenantId, input);
    const id = await repo.insertClass(tx, tenantId, input).catch(codeTaken);
    return (await repo.findClass(tx, tenantId, id)) as ClassGroupRecord;
  });
}

/**
 * The row is locked first: a capacity lowered below the members already in the class is refused, and members
 * added meanwhile (which lock the same row) wait for this change.
 */
export async function updateClass(
  db: Executor,
  tenantId: string,
  id: string,
  input: UpdateClassInput,
): Promise<ClassGroupRecord> {
  return db.transaction(async (tx) => {
    const current = await repo.findClass(tx, tenantId, id, true);
    if (current === undefined) throw notFound();
    await validate(tx, tenantId, {
      courseIds: input.courseIds,
      startsAt: input.startsAt === undefined ? current.startsAt : input.startsAt,
      endsAt: input.endsAt === undefined ? current.endsAt : input.endsAt,
    });
    // Read after the lock, by its own statement: members added while this waited for the lock count too.
    const members = await readCounter(tx, tenantId, `class_group_members:class_group_id:${id}`);
    if (input.capacity != null && input.capacity < members) {
      throw new AppError("conflict", {
        messageKey: "conflict.capacity_below_members",
        params: { members },
      });
    }
    await repo.updateClass(tx, tenantId, id, input).catch(codeTaken);
    return (await repo.findClass(tx, tenantId, id)) as ClassGroupRecord;
  });
}

/** Deletes a class and its memberships, with `class_member_removed` for each member, in one transaction. */
export async function deleteClass(db: Executor, tenantId: string, actor: Actor, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    if ((await repo.findClass(tx, tenantId, id, true)) === undefined) throw notFound();
    const members = await membersRepo.membersAsSubjects(tx, tenantId, id);
    const by = eventActorOf(actor);
    await emitInChunks(
      tx,
      tenantId,
      members.map((user) => ({
        type: "class_member_removed" as const,
        data: { classGroupId: id, userId: user.id },
        actor: by,
        subject: subjectOf(user),
      })),
    );
    await repo.deleteClass(tx, tenantId, id);
  });
}
