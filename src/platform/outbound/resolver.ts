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

/**
 * Name → its TXT records, each record's chunks joined (a record longer than 255 bytes arrives split). Injected
 * like `Resolver`, so tests answer custom-domain verification from a stub and never touch real DNS.
 */
export type TxtResolver = (hostname: string) => Promise<readonly string[]>;

// Bounded: a verification request waits for DNS, and an unresponsive name server must not hold it for minutes.
const txtDns = new dns.Resolver({ timeout: 3000, tries: 2 });

export const systemTxtResolver: TxtResolver = async (hostname) =>
  (await txtDns.resolveTxt(hostname)).map((chunks) => chunks.join(""));

/** Error shaped like c-ares's for a name without records, so a stubbed miss reads like a real one. */
export function noTxtData(
  hostname: string,
  code: "ENOTFOUND" | "ENODATA" = "ENOTFOUND",
): NodeJS.ErrnoException {
  const error: NodeJS.ErrnoException = new Error(`queryTxt ${code} ${hostname}`);
  error.code = code;
  error.syscall = "queryTxt";
  return error;
}

export interface TxtStub {
  resolveTxt: TxtResolver;
  /** How many times each name was asked for (lower-cased). */
  calls: Map<string, number>;
  /** A name's records from now on, or the error its lookups fail with. */
  set(hostname: string, answer: readonly string[] | Error): void;
}

/** A TXT stand-in for tests. Unknown names fail with ENOTFOUND, as the system resolver does. */
export function createTxtStub(table: Record<string, readonly string[] | Error> = {}): TxtStub {
  const answers = new Map<string, readonly string[] | Error>();
  const calls = new Map<string, number>();
  const set: TxtStub["set"] = (hostname, answer) => {
    answers.set(hostname.toLowerCase(), answer);
  };
  for (const [name, answer] of Object.entries(table)) set(name, answer);
  const resolveTxt: TxtResolver = async (hostname) => {
    const key = hostname.toLowerCase();
    calls.set(key, (calls.get(key) ?? 0) + 1);
    const answer = answers.get(key);
    if (answer === undefined) throw noTxtData(hostname);
    if (answer instanceof Error) throw answer;
    return answer;
  };
  return { resolveTxt, calls, set };
}
