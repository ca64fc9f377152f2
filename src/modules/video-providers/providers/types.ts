import type { VideoConfig } from "../../../config/video.js";
import type { OutboundClient } from "../../../platform/outbound/client.js";

export const PROVIDERS = ["jitsi", "bigbluebutton", "zoom"] as const;
export type ProviderName = (typeof PROVIDERS)[number];

/** The union of every provider's credential fields; each provider requires its own subset. */
export interface Credentials {
  sharedSecret?: string;
  accountId?: string;
  clientId?: string;
  clientSecret?: string;
}

export interface ProviderSettings {
  baseUrl?: string;
  checksumAlgorithm?: "sha1" | "sha256";
  defaultRecording?: boolean;
}

/** An opened connection: what an adapter needs to talk to its provider. */
export interface Connection {
  provider: ProviderName;
  credentials: Credentials;
  settings: ProviderSettings;
}

export interface ProviderDeps {
  client: OutboundClient;
  video: VideoConfig;
}

/** One occurrence of a live class, as a provider sees it. */
export interface Meeting {
  /** Deterministic per occurrence and unguessable (it carries the class's random room secret). */
  roomName: string;
  title: string;
  startsAt: string;
  durationMinutes: number;
  timezone: string;
  recordingEnabled: boolean;
  /** What the provider answered when the meeting was created, if it was. */
  externalMeetingId: string | null;
  externalJoinUrl: string | null;
}

export interface Participant {
  name: string;
  email: string;
  role: "host" | "attendee";
  userId: string;
}

/** A provider's attendance record of one participant (join and leave in ISO 8601, total seconds present). */
export interface ProviderAttendance {
  email: string;
  joinedAt: string;
  leftAt: string;
  durationSeconds: number;
}

export type CheckResult = { ok: true } | { ok: false; error: string };

/** Thrown when a provider cannot be reached or refuses: the route answers 502 with `message` (no secrets). */
export class ProviderError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ProviderError";
  }
}
