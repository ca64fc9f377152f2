import { bbbCheck, bbbEnsureMeeting, bbbJoinUrl } from "./bigbluebutton.js";
import { jitsiCheck, jitsiJoinUrl } from "./jitsi.js";
import type {
  CheckResult,
  Connection,
  Meeting,
  Participant,
  ProviderAttendance,
  ProviderDeps,
} from "./types.js";
import { ProviderError } from "./types.js";
import { zoomCheck, zoomCreateMeeting, zoomParticipants } from "./zoom.js";

export * from "./types.js";

export function checkConnection(deps: ProviderDeps, connection: Connection): Promise<CheckResult> {
  switch (connection.provider) {
    case "jitsi":
      return jitsiCheck(deps, connection);
    case "bigbluebutton":
      return bbbCheck(deps, connection);
    case "zoom":
      return zoomCheck(deps, connection);
  }
}

/**
 * Makes sure the provider has a meeting for the occurrence (network; never inside a transaction). Returns what
 * to store on the occurrence when the provider created something, or undefined.
 */
export async function ensureMeeting(
  deps: ProviderDeps,
  connection: Connection,
  meeting: Meeting,
): Promise<{ externalMeetingId: string; joinUrl: string } | undefined> {
  switch (connection.provider) {
    case "jitsi":
      return undefined;
    case "bigbluebutton":
      await bbbEnsureMeeting(deps, connection, meeting);
      return undefined;
    case "zoom":
      if (meeting.externalMeetingId !== null) return undefined;
      return zoomCreateMeeting(deps, connection, meeting);
  }
}

export function joinUrl(connection: Connection, meeting: Meeting, who: Participant): string {
  switch (connection.provider) {
    case "jitsi":
      return jitsiJoinUrl(connection, meeting, who);
    case "bigbluebutton":
      return bbbJoinUrl(connection, meeting, who);
    case "zoom":
      if (meeting.externalJoinUrl === null) throw new ProviderError("the Zoom meeting was not created");
      return meeting.externalJoinUrl;
  }
}

/** Attendance as the provider reports it, where it does (Zoom); undefined where it does not. */
export function providerAttendance(
  deps: ProviderDeps,
  connection: Connection,
  meeting: Meeting,
): Promise<ProviderAttendance[]> | undefined {
  if (connection.provider !== "zoom" || meeting.externalMeetingId === null) return undefined;
  return zoomParticipants(deps, connection, meeting.externalMeetingId);
}
