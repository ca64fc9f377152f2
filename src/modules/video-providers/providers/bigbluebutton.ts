import { createHash } from "node:crypto";
import type { CheckResult, Connection, Meeting, Participant, ProviderDeps } from "./types.js";
import { ProviderError } from "./types.js";

/**
 * BigBlueButton's API authenticates every call by a checksum: hex(sha(callName + queryString + sharedSecret)),
 * appended as the last query parameter (https://docs.bigbluebutton.org/development/api/#api-security-model).
 * SHA-1 is what every server accepts; SHA-256 when the server is configured for it.
 */
export function bbbChecksum(
  callName: string,
  query: string,
  secret: string,
  algorithm: "sha1" | "sha256" = "sha1",
): string {
  return createHash(algorithm)
    .update(callName + query + secret)
    .digest("hex");
}

/** `<baseUrl>/api/<call>?<query>&checksum=…`, with the query encoded once and checksummed as sent. */
export function bbbUrl(connection: Connection, callName: string, params: Record<string, string>): string {
  const secret = connection.credentials.sharedSecret;
  const baseUrl = connection.settings.baseUrl;
  if (secret === undefined || baseUrl === undefined) throw new ProviderError("incomplete connection");
  const query = new URLSearchParams(params).toString();
  const checksum = bbbChecksum(callName, query, secret, connection.settings.checksumAlgorithm);
  const sep = query === "" ? "" : "&";
  return `${baseUrl.replace(/\/$/, "")}/api/${callName}?${query}${sep}checksum=${checksum}`;
}

export function bbbCreateUrl(connection: Connection, meeting: Meeting): string {
  return bbbUrl(connection, "create", {
    meetingID: meeting.roomName,
    name: meeting.title,
    duration: String(meeting.durationMinutes),
    record: String(meeting.recordingEnabled),
  });
}

export function bbbJoinUrl(connection: Connection, meeting: Meeting, who: Participant): string {
  return bbbUrl(connection, "join", {
    meetingID: meeting.roomName,
    fullName: who.name,
    role: who.role === "host" ? "MODERATOR" : "VIEWER",
    userID: who.userId,
  });
}

function returnCode(xml: string): string | undefined {
  return /<returncode>\s*([A-Z]+)\s*<\/returncode>/.exec(xml)?.[1];
}

function messageKey(xml: string): string {
  return /<messageKey>\s*([^<]{1,100})\s*<\/messageKey>/.exec(xml)?.[1] ?? "unknown";
}

async function call(deps: ProviderDeps, url: string): Promise<CheckResult> {
  const res = await deps.client.request(url, { method: "GET", timeoutMs: 10_000 });
  if (!res.ok) return { ok: false, error: res.message };
  if (res.status !== 200) return { ok: false, error: `HTTP ${res.status}` };
  if (returnCode(res.body) !== "SUCCESS") return { ok: false, error: `FAILED: ${messageKey(res.body)}` };
  return { ok: true };
}

/** `getMeetings` needs a valid checksum, so a SUCCESS proves both the URL and the shared secret. */
export function bbbCheck(deps: ProviderDeps, connection: Connection): Promise<CheckResult> {
  return call(deps, bbbUrl(connection, "getMeetings", {}));
}

/** `create` is idempotent on a running meeting (BBB answers SUCCESS with `duplicateWarning`). */
export async function bbbEnsureMeeting(deps: ProviderDeps, connection: Connection, meeting: Meeting) {
  const result = await call(deps, bbbCreateUrl(connection, meeting));
  if (!result.ok) throw new ProviderError(`BigBlueButton create failed: ${result.error}`);
}
