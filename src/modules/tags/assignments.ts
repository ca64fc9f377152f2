import { inChunks } from "../../db/chunks.js";
import type { Executor } from "../../db/client.js";
import { notFound, validationError } from "../../platform/errors/app-error.js";
import { cappedPageEnvelope } from "../../platform/pagination/capped.js";
import { pageWindow } from "../../platform/pagination/pagination.js";
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
 * order the ids were given. The users are read and the events written a chunk (BULK_CHUNK) at a time, so tagging
 * a thousand users costs a handful of statements, not thousands, and none holds the event loop for the batch.
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
  const users = await inChunks(changedIds, (chunk) => assignments.usersByIds(tx, tenantId, chunk));
  const byId = new Map(users.map((u) => [u.id, u]));
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
  await inChunks(events, (chunk) => emitEvents(tx, tenantId, chunk).then(() => undefined));
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
  return cappedPageEnvelope(data, total, window);
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
    // A chunk of ids a statement, the loop turning between them (the ids are distinct, so chunks never overlap).
    const result = { found: [] as string[], attached: [] as string[] };
    await inChunks(ids, async (chunk) => {
      const part = await assignments.attach(tx, tenantId, tagId, input.resourceType, chunk);
      result.found.push(...part.found);
      result.attached.push(...part.attached);
      return undefined;
    });
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
    const removed = await inChunks(ids, (chunk) =>
      assignments.detach(tx, tenantId, tagId, input.resourceType, chunk),
    );
    if (input.resourceType === "user") {
      const tagRef = { id: tagId, name: tag.name };
      await emitUserTagEvents(tx, tenantId, actor, "user_tag_removed", tagRef, removed, ids);
    }
    return { removed: removed.length };
  });
}
