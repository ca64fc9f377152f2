import { promises as dns } from "node:dns";

export interface ResolvedAddress {
  address: string;
  family: number;
}

/**
 * Name → every address the system resolver returns. Injected everywhere a name is resolved so tests can
 * stand in a DNS stub (including answers that change between calls, for rebinding).
 * Only ever called with a validated host name, never an IP literal or inet_aton shorthand.
 */
export type Resolver = (hostname: string) => Promise<readonly ResolvedAddress[]>;

export const systemResolver: Resolver = (hostname) => dns.lookup(hostname, { all: true });

/** Error shaped like getaddrinfo's, so callers treat a stubbed miss exactly like a real one. */
export function notFound(hostname: string): NodeJS.ErrnoException {
  const error: NodeJS.ErrnoException = new Error(`getaddrinfo ENOTFOUND ${hostname}`);
  error.code = "ENOTFOUND";
  error.syscall = "getaddrinfo";
  return error;
}

export interface DnsStub {
  resolve: Resolver;
  /** How many times each name was asked for (lower-cased). */
  calls: Map<string, number>;
  /** Replace a name's answers from now on. */
  set(hostname: string, answers: readonly string[] | readonly (readonly string[])[]): void;
}

function familyOf(address: string): number {
  return address.includes(":") ? 6 : 4;
}

/**
 * A DNS stand-in for tests. Each name maps either to one answer (`["127.0.0.2"]`), or to a sequence of
 * answers (`[["127.0.0.2"], ["127.0.0.1"]]`) handed out one per call, repeating the last — the shape of
 * a rebinding attack. Unknown names fail with ENOTFOUND.
 */
export function createDnsStub(
  table: Record<string, readonly string[] | readonly (readonly string[])[]> = {},
): DnsStub {
  const answers = new Map<string, (readonly string[])[]>();
  const calls = new Map<string, number>();
  const set: DnsStub["set"] = (hostname, value) => {
    const sequence = value.length > 0 && Array.isArray(value[0]) ? value : [value];
    answers.set(hostname.toLowerCase(), sequence as (readonly string[])[]);
  };
  for (const [name, value] of Object.entries(table)) set(name, value);
  const resolve: Resolver = async (hostname) => {
    const key = hostname.toLowerCase();
    const n = calls.get(key) ?? 0;
    calls.set(key, n + 1);
    const sequence = answers.get(key);
    if (sequence === undefined || sequence.length === 0) throw notFound(hostname);
    const answer = sequence[Math.min(n, sequence.length - 1)]!;
    return answer.map((address) => ({ address, family: familyOf(address) }));
  };
  return { resolve, calls, set };
}
