import { BULK_CHUNK, inChunks } from "../../db/chunks.js";
import type { Executor } from "../../db/client.js";
import { AppError } from "../../platform/errors/app-error.js";
import { type Actor, eventActorOf } from "../events/actor.js";
import type { EventSubject } from "../events/catalogue.js";
import { type EventInput, emitEvents } from "../events/emit.js";
import type { MemberRole } from "./member-schemas.js";
import * as repo from "./members-repo.js";

/**
 * Class memberships, whichever route changes them (classes' members, users' `classGroupIds`, accepted invites):
 * every path locks the classes it adds to, respects their capacity and emits the same events.
 */

export interface GroupSeats {
  capacity: number | null;
  /** Members, counting the seats taken so far by the batch being planned. */
  members: number;
}

/** The class groups among `ids` that exist, locked for this transaction, with their seats. */
export async function lockClassGroups(
  tx: Executor,
  tenantId: string,
  ids: readonly string[],
): Promise<Map<string, GroupSeats>> {
  const unique = [...new Set(ids)].sort();
  const rows = await repo.lockGroups(tx, tenantId, unique);
  return new Map(rows.map((r) => [r.id, { capacity: r.capacity, members: r.members }]));
}

/**
 * Takes a seat in each of `ids` for one member, or none if any class is full: returns the capacity of the class
 * that refused. Call with classes from `lockClassGroups`, while their locks are held.
 */
export function takeSeats(groups: Map<string, GroupSeats>, ids: readonly string[]): number | undefined {
  for (const id of ids) {
    const g = groups.get(id);
    if (g !== undefined && g.capacity !== null && g.members >= g.capacity) return g.capacity;
  }
  for (const id of ids) {
    const g = groups.get(id);
    if (g !== undefined) g.members++;
  }
  return undefined;
}

export function unknownClassGroups(
  ids: readonly string[],
  missing: readonly string[],
  field = "classGroupIds",
): AppError {
  return new AppError("validation_failed", {
    details: missing.map((id) => ({
      field: `${field}[${ids.indexOf(id)}]`,
      key: "field.unknown_class_group",
      params: { id },
    })),
  });
}

export const classFull = (capacity: number) =>
  new AppError("conflict", { messageKey: "conflict.class_full", params: { capacity } });

/** The role a user gets in a class joined through the users API or an invite, where no role is given. */
export function memberRoleFor(userRole: string): MemberRole {
  return userRole === "teacher" ? "teacher" : "student";
}

export interface NewMembership {
  classGroupId: string;
  role: MemberRole;
  user: EventSubject;
}

/** Inserts the memberships (one statement per 5,000) and emits `class_member_added` for each one that is new. */
export async function addMemberships(
  tx: Executor,
  tenantId: string,
  actor: Actor,
  memberships: readonly NewMembership[],
): Promise<repo.MembershipRow[]> {
  const inserted = await repo.insertMemberships(
    tx,
    tenantId,
    memberships.map((x) => ({ classGroupId: x.classGroupId, userId: x.user.id, role: x.role })),
  );
  const subjects = new Map(memberships.map((x) => [x.user.id, x.user]));
  const by = eventActorOf(actor);
  await emitInChunks(
    tx,
    tenantId,
    inserted.map((row) => ({
      type: "class_member_added" as const,
      data: { classGroupId: row.classGroupId, userId: row.userId, role: row.role },
      actor: by,
      subject: subjects.get(row.userId) ?? null,
    })),
  );
  return inserted;
}

/** Removes a user from the classes and emits `class_member_removed` for each membership that existed. */
export async function removeMemberships(
  tx: Executor,
  tenantId: string,
  actor: Actor,
  user: EventSubject,
  classGroupIds: readonly string[],
): Promise<string[]> {
  const removed = await repo.deleteMemberships(tx, tenantId, user.id, classGroupIds);
  const by = eventActorOf(actor);
  await emitInChunks(
    tx,
    tenantId,
    removed.map((classGroupId) => ({
      type: "class_member_removed" as const,
      data: { classGroupId, userId: user.id },
      actor: by,
      subject: user,
    })),
  );
  return removed;
}

// Events a statement: each chunk's insert and fan-out stay short (see BULK_CHUNK).
const EVENT_CHUNK = BULK_CHUNK;

/** A batch's events in a few statements; chunks keep each insert far below PostgreSQL's parameter limit. */
export async function emitInChunks(
  tx: Executor,
  tenantId: string,
  events: readonly EventInput[],
): Promise<void> {
  await inChunks(events, (chunk) => emitEvents(tx, tenantId, chunk).then(() => undefined), EVENT_CHUNK);
}
