/**
 * Which IP addresses a tenant-chosen URL may reach (SSRF, OWASP API7).
 *
 * The rule is an allow rule, not a deny list: an address is reachable only when it is clearly public
 * unicast. ipaddr.js names the IANA special-purpose ranges, but it files some dangerous forms under
 * `unicast` (IPv4-compatible `::7f00:1`, Azure's `168.63.129.16`, anything outside 2000::/3 it has no
 * name for), so those are handled here before its answer is trusted.
 */
import { isIP } from "node:net";
import ipaddr from "ipaddr.js";
import type { Cidr } from "../../config/outbound.js";

export type AllowList = readonly Cidr[];

export type AddressVerdict =
  | { allowed: true; via: "public" | "allow_list" }
  /** `reason` names the range for logs; it must never be shown to the tenant (no resolution oracle). */
  | { allowed: false; reason: string };

function cidr(text: string): Cidr {
  return ipaddr.parseCIDR(text);
}

/**
 * Public-space addresses that still reach a provider's control plane from inside a VM. Link-local,
 * CGNAT and reserved metadata addresses (169.254.169.254, 100.100.100.200, 192.0.0.192, fd00:ec2::254,
 * …) are refused by their range already; they are named here only so logs say what was hit.
 */
const METADATA: readonly (readonly [Cidr, string])[] = [
  [cidr("168.63.129.16/32"), "azure_wireserver"],
  [cidr("169.254.169.254/32"), "cloud_metadata"],
  [cidr("169.254.170.2/32"), "aws_ecs_metadata"],
  [cidr("100.100.100.200/32"), "alibaba_metadata"],
  [cidr("192.0.0.192/32"), "oracle_metadata"],
  [cidr("fd00:ec2::254/128"), "aws_metadata_v6"],
];

/** IANA's global unicast block; everything outside it is special-purpose or unassigned today. */
const GLOBAL_UNICAST_V6 = cidr("2000::/3");
/** Well-known NAT64 prefix (RFC 6052): a DNS64 resolver answers public IPv4-only names with these. */
const NAT64_WELL_KNOWN = cidr("64:ff9b::/96");
const IPV4_COMPATIBLE = cidr("::/96");

function matches(address: ipaddr.IPv4 | ipaddr.IPv6, range: Cidr): boolean {
  return address.kind() === range[0].kind() && address.match(range);
}

function v4FromParts(high: number, low: number): ipaddr.IPv4 {
  return new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
}

function metadataName(address: ipaddr.IPv4 | ipaddr.IPv6): string | undefined {
  return METADATA.find(([range]) => matches(address, range))?.[1];
}

function verdictV4(address: ipaddr.IPv4): AddressVerdict {
  const named = metadataName(address);
  if (named !== undefined) return { allowed: false, reason: named };
  const range = address.range();
  return range === "unicast" ? { allowed: true, via: "public" } : { allowed: false, reason: range };
}

function embedded(prefix: string, inner: AddressVerdict): AddressVerdict {
  return inner.allowed ? inner : { allowed: false, reason: `${prefix}:${inner.reason}` };
}

function verdictV6(address: ipaddr.IPv6): AddressVerdict {
  const p = address.parts;
  // Both of these reach the embedded IPv4 host, so that host decides; a DNS64 network returns NAT64
  // answers for ordinary public names, which must keep working.
  if (address.isIPv4MappedAddress()) return embedded("ipv4_mapped", verdictV4(address.toIPv4Address()));
  if (address.match(NAT64_WELL_KNOWN)) return embedded("nat64", verdictV4(v4FromParts(p[6]!, p[7]!)));

  const named = metadataName(address);
  if (named !== undefined) return { allowed: false, reason: named };
  const range = address.range();
  if (!address.match(GLOBAL_UNICAST_V6)) {
    // ipaddr.js calls `::7f00:1` unicast; the deprecated IPv4-compatible form is never a webhook host.
    if (range === "unicast" && address.match(IPV4_COMPATIBLE)) {
      return { allowed: false, reason: `ipv4_compatible:${v4FromParts(p[6]!, p[7]!).toString()}` };
    }
    return { allowed: false, reason: range === "unicast" ? "not_global_unicast" : range };
  }
  // Transition tunnels are refused outright (not "clearly public"); the embedded IPv4 is logged because
  // that is the host a relay would deliver to.
  if (range === "6to4") return { allowed: false, reason: `6to4:${v4FromParts(p[1]!, p[2]!).toString()}` };
  if (range === "teredo") {
    const client = v4FromParts(p[6]! ^ 0xffff, p[7]! ^ 0xffff);
    return { allowed: false, reason: `teredo:${client.toString()}` };
  }
  return range === "unicast" ? { allowed: true, via: "public" } : { allowed: false, reason: range };
}

/**
 * Judge one address as a socket would receive it: canonical IPv4 dotted decimal or IPv6 text.
 * Anything else (inet_aton shorthands such as `127.1`, zone ids) is refused rather than interpreted,
 * because a second parser might read it differently from the one that checked it.
 */
export function classifyAddress(ip: string, allow: AllowList = []): AddressVerdict {
  const family = isIP(ip);
  if (family === 0) return { allowed: false, reason: "not_an_ip" };
  if (ip.includes("%")) return { allowed: false, reason: "zone_id" };
  const address = ipaddr.parse(ip);
  const reached =
    address.kind() === "ipv6" && (address as ipaddr.IPv6).isIPv4MappedAddress()
      ? (address as ipaddr.IPv6).toIPv4Address()
      : address;
  if (allow.some((range) => matches(address, range) || matches(reached, range))) {
    return { allowed: true, via: "allow_list" };
  }
  return address.kind() === "ipv4" ? verdictV4(address as ipaddr.IPv4) : verdictV6(address as ipaddr.IPv6);
}

export function isForbiddenAddress(ip: string, allow: AllowList = []): boolean {
  return !classifyAddress(ip, allow).allowed;
}

/**
 * Suffixes that only a private resolver answers (RFC 6761/6762/8375, ICANN's `.internal`, and the
 * undelegated names commonly used inside companies and clusters). Refusing them by name keeps such
 * names from reaching the resolver at all; the address check after resolution stays the real guard.
 */
const PRIVATE_SUFFIXES = [
  "localhost",
  "local",
  "internal",
  "localdomain",
  "home.arpa",
  "in-addr.arpa",
  "ip6.arpa",
  "lan",
  "home",
  "corp",
  "intranet",
  "private",
  "svc",
  "consul",
];

/**
 * Names refused before resolution. A single-label name (`metadata`, `instance-data`, `rancher-metadata`,
 * `redis`) is refused because the resolver's search domains would complete it to an internal host;
 * `metadata.google.internal` falls under `.internal`.
 */
export function isForbiddenHostName(host: string): boolean {
  const name = host.toLowerCase().replace(/\.$/, "");
  if (name === "" || !name.includes(".")) return true;
  return PRIVATE_SUFFIXES.some((suffix) => name === suffix || name.endsWith(`.${suffix}`));
}
