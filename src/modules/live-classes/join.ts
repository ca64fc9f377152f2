import type { Principal } from "../../platform/auth/types.js";
import { AppError, notFound, validationError } from "../../platform/errors/app-error.js";
import {
  ensureMeeting,
  joinUrl,
  type Meeting,
  openLiveConnection,
  ProviderError,
  providerDeps,
  type VideoDeps,
} from "../video-providers/service.js";
import * as repo from "./repo.js";
import type { JoinLinkInput } from "./schemas.js";

/** Deterministic per occurrence, unguessable thanks to the class's random secret (never shown by the API). */
export function roomName(c: repo.ClassRow, occurrenceId: string): string {
  return `aula-${c.roomSecret}-${occurrenceId}`;
}

export function meetingOf(
  c: repo.ClassRow,
  o: {
    id: string;
    startsAt: string;
    endsAt: string;
    externalMeetingId: string | null;
    externalJoinUrl: string | null;
  },
): Meeting {
  return {
    roomName: roomName(c, o.id),
    title: c.title,
    startsAt: o.startsAt,
    durationMinutes: c.durationMinutes,
    timezone: c.timezone,
    recordingEnabled: c.recordingEnabled,
    externalMeetingId: o.externalMeetingId,
    externalJoinUrl: o.externalJoinUrl,
  };
}

/**
 * A personal join link. Hosts and co-hosts join as hosts (BigBlueButton moderators); invitees, the course's
 * enrollees, the class group's members and administrators as attendees; anyone else is 403. A student may only
 * ask for their own link; a key must name `userId`. The provider's meeting is created on the first request for
 * an occurrence (Zoom: `POST /users/me/meetings`; BigBlueButton: `create`), outside any transaction.
 */
export async function joinLink(
  deps: VideoDeps,
  tenantId: string,
  principal: Principal,
  liveClassId: string,
  input: JoinLinkInput,
) {
  const db = deps.db;
  const c = await repo.findClass(db, tenantId, liveClassId);
  if (c === undefined) throw notFound();
  const self = principal.kind === "session" ? principal.userId : undefined;
  const userId = input.userId ?? self;
  if (userId === undefined) throw validationError("userId", "field.required");
  if (principal.kind === "session" && principal.role === "student" && userId !== principal.userId) {
    throw new AppError("forbidden");
  }
  const [user] = await repo.findUsers(db, tenantId, [userId]);
  if (user === undefined || user.status !== "active")
    throw validationError("userId", "field.unknown_user", { id: userId });
  const isHost = c.hostUserId === userId || c.coHostIds.includes(userId);
  const admitted =
    isHost ||
    c.inviteeIds.includes(userId) ||
    user.role === "institution_admin" ||
    (await repo.inAudience(db, tenantId, c, userId));
  if (!admitted) throw new AppError("forbidden");

  const occurrenceId = input.occurrenceId ?? (await repo.currentOccurrenceId(db, tenantId, liveClassId));
  if (occurrenceId === undefined) throw new AppError("conflict");
  let o = await repo.findOccurrence(db, tenantId, liveClassId, occurrenceId);
  if (o === undefined) throw validationError("occurrenceId", "field.unknown_occurrence");
  if (o.status === "canceled" || o.status === "ended") throw new AppError("conflict");

  const connection = await openLiveConnection(deps, tenantId, c.videoProviderId);
  try {
    const created = await ensureMeeting(providerDeps(deps), connection, meetingOf(c, o));
    if (created !== undefined) {
      await repo.claimExternalMeeting(db, tenantId, o.id, created);
      o = (await repo.findOccurrence(db, tenantId, liveClassId, occurrenceId)) as NonNullable<typeof o>;
    }
    const role = isHost ? ("host" as const) : ("attendee" as const);
    const url = joinUrl(connection, meetingOf(c, o), { userId, name: user.name, email: user.email, role });
    return { url, occurrenceId, userId, role, provider: connection.provider };
  } catch (error) {
    if (error instanceof ProviderError) throw new AppError("video_provider_error", { cause: error });
    throw error;
  }
}
