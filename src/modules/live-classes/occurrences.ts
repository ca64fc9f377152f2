import type { Db, Executor } from "../../db/client.js";
import type { Principal } from "../../platform/auth/types.js";
import { AppError, notFound } from "../../platform/errors/app-error.js";
import { pageEnvelope, pageWindow } from "../../platform/pagination/pagination.js";
import { eventActorOf } from "../events/actor.js";
import { emitEvent } from "../events/emit.js";
import { requireHostRight } from "./host.js";
import * as repo from "./repo.js";
import type { OccurrenceRecord } from "./schemas.js";
import { lifecycle } from "./service.js";

export async function listOccurrences(
  db: Executor,
  tenantId: string,
  liveClassId: string,
  query: { page?: number; perPage?: number; status?: string },
  viewer?: string,
) {
  if ((await repo.findClass(db, tenantId, liveClassId, false, viewer)) === undefined) throw notFound();
  const window = pageWindow(query);
  const { rows, total } = await repo.listOccurrences(db, tenantId, liveClassId, query.status, window);
  return pageEnvelope(rows, total, window);
}

type Transition = "cancel" | "start" | "end";

/** Which status each action moves an occurrence from, and to. Anything else is 409. */
const MOVES: Record<Transition, { from: string; to: string }> = {
  cancel: { from: "scheduled", to: "canceled" },
  start: { from: "scheduled", to: "live" },
  end: { from: "live", to: "ended" },
};

/**
 * Cancels, starts or ends one occurrence, with its event, in one transaction. The class follows: `live` while an
 * occurrence is live, `ended` once none is left to come, `scheduled` otherwise.
 */
export async function moveOccurrence(
  db: Db,
  tenantId: string,
  principal: Principal,
  liveClassId: string,
  occurrenceId: string,
  action: Transition,
): Promise<OccurrenceRecord> {
  return db.transaction(async (tx) => {
    const c = await repo.findClass(tx, tenantId, liveClassId, true);
    if (c === undefined) throw notFound();
    // Canceling an occurrence changes the schedule (the host's); starting and ending runs it (co-hosts too).
    requireHostRight(principal, c, action === "cancel" ? "manage" : "run");
    const o = await repo.findOccurrence(tx, tenantId, liveClassId, occurrenceId, true);
    if (o === undefined) throw notFound();
    const move = MOVES[action];
    if (o.status !== move.from) throw new AppError("conflict");
    const now = new Date().toISOString();
    await repo.updateOccurrence(tx, tenantId, occurrenceId, {
      status: move.to,
      ...(action === "start" ? { startedAt: now } : action === "end" ? { endedAt: now } : {}),
    });
    const next = await repo.nextOccurrences(tx, tenantId, [liveClassId]);
    const classStatus = action === "start" ? "live" : next.has(liveClassId) ? "scheduled" : "ended";
    if (c.status !== "canceled") await repo.updateClass(tx, tenantId, liveClassId, { status: classStatus });
    const actor = eventActorOf(principal);
    const base = lifecycle(c);
    if (action === "cancel") {
      await emitEvent(tx, { tenantId, type: "live_class_canceled", data: { ...base, occurrenceId }, actor });
    } else if (action === "start") {
      await emitEvent(tx, { tenantId, type: "live_class_started", data: { ...base, occurrenceId }, actor });
    } else {
      await emitEvent(tx, {
        tenantId,
        type: "live_class_ended",
        data: { ...base, occurrenceId, endedAt: now },
        actor,
      });
    }
    const moved = await repo.findOccurrence(tx, tenantId, liveClassId, occurrenceId);
    const { externalMeetingId: _m, externalJoinUrl: _u, ...record } = moved as NonNullable<typeof moved>;
    return record as OccurrenceRecord;
  });
}
