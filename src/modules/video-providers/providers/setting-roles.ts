import type { ProviderName, ProviderSettings } from "./types.js";

/**
 * What one setting is to one provider:
 * - `endpoint`: decides where the connection's credentials are sent (a host, an API root, a region…). It is bound
 *   to the credentials: on a connection that holds credentials, only whoever may write the credentials may change
 *   it (service.ts). Otherwise a key that cannot write a secret could send the sealed one to a host of its choice
 *   (BigBlueButton's checksum does not cover the host, so a `join` signed for that host works on the real one);
 * - `option`: changes what is asked of the provider, not where;
 * - `unused`: the provider has no such setting (400 `field.unknown`).
 *
 * A Record over every setting of every provider, so neither a new setting nor a new provider compiles until it is
 * classified here: nothing becomes key-writable by omission.
 */
export type SettingRole = "endpoint" | "option" | "unused";

export const SETTING_ROLES: Record<ProviderName, Record<keyof ProviderSettings, SettingRole>> = {
  jitsi: { baseUrl: "endpoint", checksumAlgorithm: "unused", defaultRecording: "option" },
  bigbluebutton: { baseUrl: "endpoint", checksumAlgorithm: "option", defaultRecording: "option" },
  // Zoom's API and OAuth hosts are the operator's configuration (ZOOM_API_BASE, ZOOM_OAUTH_BASE), never a
  // tenant's setting, and its account id is one of the credentials: nothing here moves where they go.
  zoom: { baseUrl: "unused", checksumAlgorithm: "unused", defaultRecording: "option" },
};

const SETTINGS = Object.keys(SETTING_ROLES.jitsi) as (keyof ProviderSettings)[];

export function settingsWithRole(provider: ProviderName, role: SettingRole): (keyof ProviderSettings)[] {
  return SETTINGS.filter((name) => SETTING_ROLES[provider][name] === role);
}

/** The endpoint settings whose value differs between two settings objects (an absent value counts). */
export function movedEndpoints(
  provider: ProviderName,
  before: ProviderSettings,
  after: ProviderSettings,
): (keyof ProviderSettings)[] {
  return settingsWithRole(provider, "endpoint").filter((name) => before[name] !== after[name]);
}
