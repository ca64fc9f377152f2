import { isClientOwnedHeader } from "../../platform/outbound/headers.js";

/**
 * Header names an automation's `action.headers` may not set, in any case: the HTTP client's own (framing,
 * hop-by-hop, `proxy-*`: a delivery carrying one could never be sent), and the Standard Webhooks `webhook-*`
 * headers the platform signs every delivery with (send.ts). `content-type` and `user-agent` are accepted and
 * replaced by the platform's at send.
 */
export function isReservedHeader(name: string): boolean {
  return isClientOwnedHeader(name) || name.toLowerCase().startsWith("webhook-");
}
