/**
 * The save-time check of a tenant's webhook URL (CONTRACT "Automations and webhooks"). The delivery
 * client re-runs the syntactic part and re-checks every address at connect time, so this is the first
 * of two gates, not the only one.
 */
import { isIPv4 } from "node:net";
import { type AllowList, classifyAddress, isForbiddenHostName } from "./address-policy.js";
import { type Resolver, systemResolver } from "./resolver.js";

/**
 * Why a URL was refused, for logs and tests only: the API answers every refusal with the same body, so
 * a tenant cannot use it to learn how our resolver sees a name.
 */
export type TargetRefusal =
  | "invalid_url"
  | "scheme"
  | "userinfo"
  | "host_syntax"
  | "forbidden_host"
  | "forbidden_address";

export type TargetHost = { kind: "ip"; address: string } | { kind: "name"; name: string };

export type ParsedTarget =
  | { ok: true; url: URL; host: TargetHost }
  | { ok: false; reason: TargetRefusal; detail: string };

export type TargetCheck =
  | { ok: true; url: URL; unresolved: false; addresses: string[] }
  /** The name did not resolve now; accepted (contract), and checked again at every delivery. */
  | { ok: true; url: URL; unresolved: true; addresses: [] }
  | { ok: false; reason: TargetRefusal; detail: string };

export interface TargetCheckOptions {
  /** OUTBOUND_ALLOW_CIDRS: dangerous, development and tests only. */
  allow?: AllowList;
  resolve?: Resolver;
  /** A resolver that hangs is treated as "does not resolve", like any other failure. Default 5000. */
  resolveTimeoutMs?: number;
}

export const MAX_URL_LENGTH = 2048;

/** LDH labels (plus `_`, which real DNS names carry), 1–63 characters each, 253 in all. */
const HOST_NAME =
  /^(?=.{1,253}$)[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?(?:\.[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?)*$/;
/** A last label that an inet_aton-style parser would read as a number. */
const NUMERIC_LABEL = /^(?:0x[0-9a-f]*|[0-9]+)$/;

function refuse(reason: TargetRefusal, detail: string): { ok: false; reason: TargetRefusal; detail: string } {
  return { ok: false, reason, detail };
}

/**
 * Everything about a URL that needs no DNS. The host is taken from WHATWG `new URL()`, which already
 * folds every IPv4 notation (`2130706433`, `0x7f.1`, `0177.0.0.1`, ideographic dots, percent-escapes)
 * into dotted decimal and compresses IPv6, so the address judged is the one a socket would use.
 */
export function parseTarget(raw: string, allow: AllowList = []): ParsedTarget {
  if (raw.length > MAX_URL_LENGTH) return refuse("invalid_url", "longer than 2048 characters");
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return refuse("invalid_url", "not a URL");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return refuse("scheme", url.protocol);
  // Credentials in the URL would be sent to (and logged by) whoever the host turns out to be.
  if (url.username !== "" || url.password !== "") return refuse("userinfo", "credentials in URL");

  const hostname = url.hostname;
  if (hostname.startsWith("[")) {
    const address = hostname.slice(1, -1);
    const verdict = classifyAddress(address, allow);
    if (!verdict.allowed) return refuse("forbidden_address", `${address}: ${verdict.reason}`);
    return { ok: true, url, host: { kind: "ip", address } };
  }
  if (isIPv4(hostname)) {
    const verdict = classifyAddress(hostname, allow);
    if (!verdict.allowed) return refuse("forbidden_address", `${hostname}: ${verdict.reason}`);
    return { ok: true, url, host: { kind: "ip", address: hostname } };
  }
  // WHATWG keeps characters such as `{` `}` `*` `!` in a host; a template or wildcard is never a host.
  const name = hostname.endsWith(".") ? hostname.slice(0, -1) : hostname;
  if (!HOST_NAME.test(name)) return refuse("host_syntax", "not a DNS name");
  if (NUMERIC_LABEL.test(name.slice(name.lastIndexOf(".") + 1))) {
    return refuse("host_syntax", "numeric last label");
  }
  if (isForbiddenHostName(name)) return refuse("forbidden_host", name);
  return { ok: true, url, host: { kind: "name", name } };
}

async function resolveWithin(resolve: Resolver, name: string, ms: number) {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error("resolution timed out")), ms);
  });
  try {
    return await Promise.race([resolve(name), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Save-time check: syntax, then every address the name resolves to. One forbidden address among
 * several refuses the URL, since the connection could be steered to any of them.
 */
export async function checkTargetUrl(raw: string, options: TargetCheckOptions = {}): Promise<TargetCheck> {
  const allow = options.allow ?? [];
  const parsed = parseTarget(raw, allow);
  if (!parsed.ok) return parsed;
  const { url, host } = parsed;
  if (host.kind === "ip") return { ok: true, url, unresolved: false, addresses: [host.address] };

  let answers: readonly { address: string }[];
  try {
    answers = await resolveWithin(
      options.resolve ?? systemResolver,
      host.name,
      options.resolveTimeoutMs ?? 5000,
    );
  } catch {
    return { ok: true, url, unresolved: true, addresses: [] };
  }
  if (answers.length === 0) return { ok: true, url, unresolved: true, addresses: [] };
  for (const { address } of answers) {
    const verdict = classifyAddress(address, allow);
    if (!verdict.allowed) return refuse("forbidden_address", `${host.name} → ${address}: ${verdict.reason}`);
  }
  return { ok: true, url, unresolved: false, addresses: answers.map((a) => a.address) };
}
