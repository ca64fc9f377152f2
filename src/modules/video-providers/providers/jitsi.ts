import type { CheckResult, Connection, Meeting, Participant, ProviderDeps } from "./types.js";

export const JITSI_DEFAULT_BASE = "https://meet.jit.si";

function base(connection: Pick<Connection, "settings">): string {
  return (connection.settings.baseUrl ?? JITSI_DEFAULT_BASE).replace(/\/$/, "");
}

/**
 * Jitsi rooms exist as soon as someone opens them, so a join link is the room's URL; the display name travels in
 * the fragment (never sent to the server). The room name's random part is what keeps strangers out.
 */
export function jitsiJoinUrl(connection: Pick<Connection, "settings">, meeting: Meeting, who: Participant) {
  const name = encodeURIComponent(JSON.stringify(who.name));
  return `${base(connection)}/${encodeURIComponent(meeting.roomName)}#userInfo.displayName=${name}`;
}

/** The server answers its home page: enough to know the base URL is a reachable Jitsi (or proxy) host. */
export async function jitsiCheck(deps: ProviderDeps, connection: Connection): Promise<CheckResult> {
  const res = await deps.client.request(`${base(connection)}/`, { method: "GET", timeoutMs: 10_000 });
  if (!res.ok) return { ok: false, error: res.message };
  if (res.status >= 400) return { ok: false, error: `HTTP ${res.status}` };
  return { ok: true };
}
