import { ConfigError, type Env, str } from "./env.js";

/** Where the video providers' APIs live. Tests point Zoom at a local stand-in (with OUTBOUND_ALLOW_CIDRS). */
export interface VideoConfig {
  /** ZOOM_API_BASE: the REST API root, default `https://api.zoom.us/v2`. */
  zoomApiBase: string;
  /** ZOOM_OAUTH_BASE: where server-to-server OAuth tokens come from, default `https://zoom.us`. */
  zoomOAuthBase: string;
}

function httpBase(env: Env, name: string, fallback: string): string {
  const raw = str(env, name, fallback);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be an http(s) URL, got "${raw}"`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new ConfigError(`${name} must be an http(s) URL`);
  }
  return url.href.replace(/\/$/, "");
}

export function loadVideoConfig(env: Env): VideoConfig {
  return {
    zoomApiBase: httpBase(env, "ZOOM_API_BASE", "https://api.zoom.us/v2"),
    zoomOAuthBase: httpBase(env, "ZOOM_OAUTH_BASE", "https://zoom.us"),
  };
}
