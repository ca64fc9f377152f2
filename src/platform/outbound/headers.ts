/**
 * Request headers a tenant may not choose: the ones HTTP/1.1 framing and connection management own (the client
 * writes them, or they describe a hop rather than the request), in any case. A template cannot set them at save,
 * and the OutboundClient refuses them at send, from this one list.
 */
const CLIENT_OWNED = new Set([
  "host",
  "content-length",
  "transfer-encoding",
  "connection",
  "keep-alive",
  "upgrade",
  "expect",
  "te",
  "trailer",
]);

/** Whether `name` belongs to the HTTP client: the set above, and every `proxy-*` header. */
export function isClientOwnedHeader(name: string): boolean {
  const lower = name.toLowerCase();
  return CLIENT_OWNED.has(lower) || lower.startsWith("proxy-");
}

/** RFC 9110 token: what a header name may be made of. */
export const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
