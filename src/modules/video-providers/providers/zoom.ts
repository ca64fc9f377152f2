import type { CheckResult, Connection, Meeting, ProviderAttendance, ProviderDeps } from "./types.js";
import { ProviderError } from "./types.js";

/**
 * Zoom through its REST API with a Server-to-Server OAuth app (https://developers.zoom.us/docs/internal-apps/s2s-oauth/):
 * `account_credentials` grant for a bearer token, then `POST /users/me/meetings` and the past meeting's
 * participants report. Every call goes through the SSRF-checked outbound client.
 */
const TIMEOUT_MS = 10_000;
const MAX_BODY = 1024 * 1024;

function parse(body: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(body);
    return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

async function token(deps: ProviderDeps, connection: Connection): Promise<string> {
  const { accountId, clientId, clientSecret } = connection.credentials;
  if (accountId === undefined || clientId === undefined || clientSecret === undefined) {
    throw new ProviderError("incomplete connection");
  }
  const query = new URLSearchParams({ grant_type: "account_credentials", account_id: accountId });
  const res = await deps.client.request(`${deps.video.zoomOAuthBase}/oauth/token?${query}`, {
    method: "POST",
    headers: { authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString("base64")}` },
    timeoutMs: TIMEOUT_MS,
  });
  if (!res.ok) throw new ProviderError(`Zoom OAuth: ${res.message}`);
  const accessToken = parse(res.body).access_token;
  if (res.status !== 200 || typeof accessToken !== "string") {
    throw new ProviderError(`Zoom OAuth refused the credentials (HTTP ${res.status})`);
  }
  return accessToken;
}

async function api(
  deps: ProviderDeps,
  bearer: string,
  method: "GET" | "POST",
  path: string,
  body?: unknown,
): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await deps.client.request(`${deps.video.zoomApiBase}${path}`, {
    method,
    headers: { authorization: `Bearer ${bearer}` },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    timeoutMs: TIMEOUT_MS,
    maxResponseBytes: MAX_BODY,
  });
  if (!res.ok) throw new ProviderError(`Zoom API: ${res.message}`);
  return { status: res.status, json: parse(res.body) };
}

export async function zoomCheck(deps: ProviderDeps, connection: Connection): Promise<CheckResult> {
  try {
    const bearer = await token(deps, connection);
    const me = await api(deps, bearer, "GET", "/users/me");
    return me.status === 200 ? { ok: true } : { ok: false, error: `Zoom API: HTTP ${me.status}` };
  } catch (error) {
    if (error instanceof ProviderError) return { ok: false, error: error.message };
    throw error;
  }
}

/** A scheduled meeting (type 2) for one occurrence: its id and join URL are kept on the occurrence. */
export async function zoomCreateMeeting(
  deps: ProviderDeps,
  connection: Connection,
  meeting: Meeting,
): Promise<{ externalMeetingId: string; joinUrl: string }> {
  const bearer = await token(deps, connection);
  const res = await api(deps, bearer, "POST", "/users/me/meetings", {
    topic: meeting.title,
    type: 2,
    start_time: meeting.startsAt.replace(/\.\d{3}Z$/, "Z"),
    duration: meeting.durationMinutes,
    timezone: meeting.timezone,
    settings: {
      auto_recording: meeting.recordingEnabled ? "cloud" : "none",
      join_before_host: false,
      waiting_room: true,
    },
  });
  const { id, join_url: joinUrl } = res.json;
  if (
    res.status !== 201 ||
    (typeof id !== "number" && typeof id !== "string") ||
    typeof joinUrl !== "string"
  ) {
    throw new ProviderError(`Zoom refused to create the meeting (HTTP ${res.status})`);
  }
  return { externalMeetingId: String(id), joinUrl };
}

const MAX_PAGES = 20;

/** The past meeting's participants, one entry per join (Zoom reports a rejoin as another entry). */
export async function zoomParticipants(
  deps: ProviderDeps,
  connection: Connection,
  externalMeetingId: string,
): Promise<ProviderAttendance[]> {
  const bearer = await token(deps, connection);
  const out: ProviderAttendance[] = [];
  let next = "";
  for (let page = 0; page < MAX_PAGES; page++) {
    const query = new URLSearchParams({
      page_size: "300",
      ...(next === "" ? {} : { next_page_token: next }),
    });
    const path = `/past_meetings/${encodeURIComponent(externalMeetingId)}/participants?${query}`;
    const res = await api(deps, bearer, "GET", path);
    if (res.status !== 200) throw new ProviderError(`Zoom participants report: HTTP ${res.status}`);
    const list = Array.isArray(res.json.participants) ? (res.json.participants as unknown[]) : [];
    for (const item of list) {
      const p = item as Record<string, unknown>;
      if (typeof p.user_email !== "string" || typeof p.join_time !== "string") continue;
      if (typeof p.leave_time !== "string" || typeof p.duration !== "number") continue;
      if (Number.isNaN(Date.parse(p.join_time)) || Number.isNaN(Date.parse(p.leave_time))) continue;
      out.push({
        email: p.user_email.toLowerCase(),
        joinedAt: new Date(p.join_time).toISOString(),
        leftAt: new Date(p.leave_time).toISOString(),
        durationSeconds: Math.max(0, Math.floor(p.duration)),
      });
    }
    next = typeof res.json.next_page_token === "string" ? res.json.next_page_token : "";
    if (next === "") break;
  }
  return out;
}
