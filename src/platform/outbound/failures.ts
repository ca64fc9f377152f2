/** How a failed attempt is reported: undici and net errors mapped onto the few kinds a worker acts on. */

/** Raised inside the connector; found again in the error's cause chain to report `blocked`. */
export class BlockedAddressError extends Error {
  readonly code = "ERR_OUTBOUND_BLOCKED";
  constructor(readonly detail: string) {
    super("destination address is not allowed");
  }
}

export class DeadlineError extends Error {
  readonly code = "ERR_OUTBOUND_DEADLINE";
}

export interface FailureDescription {
  kind: "blocked" | "timeout" | "network" | "invalid";
  message: string;
  detail?: string;
}

const TIMEOUT_CODES = new Set(["UND_ERR_CONNECT_TIMEOUT", "UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT"]);

/** undici wraps socket errors; the interesting one (ours, or the OS's) is at the end of `cause`. */
function errorChain(error: unknown): unknown[] {
  const chain: unknown[] = [];
  let current = error;
  while (current !== undefined && current !== null && chain.length < 8) {
    chain.push(current);
    current = current instanceof Error ? current.cause : undefined;
  }
  return chain;
}

function codeOf(error: unknown): string | undefined {
  if (typeof error !== "object" || error === null || !("code" in error)) return undefined;
  return typeof error.code === "string" ? error.code : undefined;
}

export function describeFailure(
  error: unknown,
  deadlinePassed: boolean,
  timeoutMs: number,
): FailureDescription {
  const chain = errorChain(error);
  const blocked = chain.find((e): e is BlockedAddressError => e instanceof BlockedAddressError);
  if (blocked !== undefined) return { kind: "blocked", message: blocked.message, detail: blocked.detail };
  if (deadlinePassed || chain.some((e) => TIMEOUT_CODES.has(codeOf(e) ?? ""))) {
    return { kind: "timeout", message: `no complete response within ${timeoutMs} ms` };
  }
  if (chain.some((e) => codeOf(e) === "UND_ERR_INVALID_ARG")) {
    return { kind: "invalid", message: error instanceof Error ? error.message : "invalid request" };
  }
  const cause = chain.at(-1);
  const code = codeOf(cause) ?? codeOf(error);
  const text = cause instanceof Error ? cause.message : String(cause);
  return { kind: "network", message: code === undefined ? text : `${code}: ${text}` };
}
