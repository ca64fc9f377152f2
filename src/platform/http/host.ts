import { isIPv6 } from "node:net";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { validationError } from "../errors/app-error.js";

const LABEL = "[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?";
/** A DNS name (an IPv4 literal is one too) or a bracketed IPv6 literal, then an optional `:port`. */
const HOST = new RegExp(`^(?:(${LABEL}(?:\\.${LABEL})*\\.?)|\\[([0-9a-f:.]+)\\])(?::(\\d{1,5}))?$`, "i");

/** True when `host` is `name[:port]`: a DNS name, an IPv4 literal or a bracketed IPv6 literal, port ≤ 65535. */
export function isValidHost(host: string): boolean {
  const match = HOST.exec(host);
  if (match === null) return false;
  const [, name, ipv6, port] = match;
  if (name !== undefined && name.replace(/\.$/, "").length > 253) return false;
  if (ipv6 !== undefined && !isIPv6(ipv6)) return false;
  return port === undefined || Number(port) <= 65_535;
}

/**
 * The Host header chooses the tenant and is copied into the public URLs the API answers (invitations, inbound
 * webhook URLs, Stripe return URLs). Anything but `name[:port]` (`acme.localhost:4000@evil.example`, spaces,
 * paths, userinfo) is refused for every route, before tenancy or anything else reads it, and so is an HTTP/1.1
 * request without one. An HTTP/1.0 request without Host passes and is served by no tenant.
 */
export function registerHostGuard(app: FastifyInstance): void {
  app.addHook("onRequest", async (request) => {
    const host = request.headers.host;
    if (host === undefined) {
      // HTTP/1.1 requires Host (RFC 9112, section 3.2). Node's own 400 for its absence (switched off in app.ts)
      // has no envelope, so the refusal is made here.
      if (request.raw.httpVersion === "1.1") throw validationError("Host", "field.required");
      return;
    }
    if (!isValidHost(host)) throw validationError("Host", "field.host_header");
  });
}

/**
 * `http(s)://host[:port]` of this request, for URLs given back to the client: the Host header was validated on
 * arrival, and the scheme is only ever http or https (a proxy's `X-Forwarded-Proto` cannot inject anything).
 */
export function publicOrigin(request: FastifyRequest): string {
  const host = request.headers.host ?? "";
  if (!isValidHost(host)) throw validationError("Host", "field.host_header");
  return `${request.protocol === "https" ? "https" : "http"}://${host.toLowerCase()}`;
}
