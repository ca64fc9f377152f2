import type { Executor } from "../../db/client.js";
import { notFound, validationError } from "../../platform/errors/app-error.js";
import { pageEnvelope, pageWindow } from "../../platform/pagination/pagination.js";
import { type Actor, eventActorOf, subjectOf } from "../events/actor.js";
import { type EventInput, emitEvents } from "../events/emit.js";
import * as assignments from "./assignments-repo.js";
import * as repo from "./repo.js";
import type { AttachedRecord, AttachInput, ListAssignmentsQueryType, RemoveInput } from "./schemas.js";

/** The ids once each (uuids compare case-insensitively), in the order given. */
function distinctIds(ids: readonly string[]): string[] {
  const seen = new Set<string>();
  return ids.filter((id) => {
    const key = id.toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * One `user_tag_added`/`user_tag_removed` per user whose tagging changed, in the caller's transaction and in the
 * order the ids were given. The users are read in one query and the events written as one batch, so tagging a
 * thousand users costs a handful of statements, not thousands.
 */
async function emitUserTagEvents(
  tx: Executor,
  tenantId: string,
  actor: Actor,
  type: "user_tag_added" | "user_tag_removed",
  tag: { id: string; name: string },
  changedIds: readonly string[],
  requestOrder: readonly string[],
): Promise<void> {
  if (changedIds.length === 0) return;
  const byId = new Map((await assignments.usersByIds(tx, tenantId, changedIds)).map((u) => [u.id, u]));
  const events: EventInput[] = [];
  for (const id of requestOrder) {
    const user = byId.get(id.toLowerCase());
    if (user === undefined) continue;
    events.push({
      type,
      data: { userId: user.id, tagId: tag.id, tagName: tag.name },
      actor: eventActorOf(actor),
      subject: subjectOf(user),
    });
  }
  await emitEvents(tx, tenantId, events);
}

export async function listAssignments(
  db: Executor,
  tenantId: string,
  tagId: string,
  query: ListAssignmentsQueryType,
) {
  if ((await repo.findTag(db, tenantId, tagId)) === undefined) throw notFound();
  const window = pageWindow(query);
  const filter = { resourceType: query.resourceType };
  const [data, total] = await Promise.all([
    assignments.listAssignments(db, tenantId, tagId, filter, query.sort ?? "-createdAt", window),
    assignments.countAssignments(db, tenantId, tagId, filter),
  ]);
  return pageEnvelope(data, total, window);
}

/**
 * Attaches the tag to every id that names a resource of this institution, in one transaction and one
 * statement. Idempotent: ids already tagged are counted, not duplicated. Ids of other institutions are
 * reported in `notFound` exactly like ids that exist nowhere.
 */
export async function attachTag(
  db: Executor,
  tenantId: string,
  actor: Actor,
  tagId: string,
  input: AttachInput,
): Promise<AttachedRecord> {
  const ids = distinctIds(input.ids);
  return db.transaction(async (tx) => {
    const tag = await repo.lockTag(tx, tenantId, tagId, "share");
    if (tag === undefined) throw notFound();
    if (!tag.appliesTo.includes(input.resourceType)) {
      throw validationError("resourceType", "field.tag_not_applicable", { resourceType: input.resourceType });
    }
    const result = await assignments.attach(tx, tenantId, tagId, input.resourceType, ids);
    if (input.resourceType === "user") {
      const tagRef = { id: tagId, name: tag.name };
      await emitUserTagEvents(tx, tenantId, actor, "user_tag_added", tagRef, result.attached, ids);
    }
    const found = new Set(result.found);
    return {
      attached: result.attached.length,
      alreadyAttached: result.found.length - result.attached.length,
      notFound: ids.filter((id) => !found.has(id.toLowerCase())),
    };
  });
}

/** Detaches the tag from the given resources; ids that were not tagged (or do not exist) are ignored. */
export async function removeTag(
  db: Executor,
  tenantId: string,
  actor: Actor,
  tagId: string,
  input: RemoveInput,
): Promise<{ removed: number }> {
  const ids = distinctIds(input.ids);
  return db.transaction(async (tx) => {
    const tag = await repo.lockTag(tx, tenantId, tagId, "share");
    if (tag === undefined) throw notFound();
    const removed = await assignments.detach(tx, tenantId, tagId, input.resourceType, ids);
    if (input.resourceType === "user") {
      const tagRef = { id: tagId, name: tag.name };
      await emitUserTagEvents(tx, tenantId, actor, "user_tag_removed", tagRef, removed, ids);
    }
    return { removed: removed.length };
  });
}
