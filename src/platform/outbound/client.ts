/**
 * The only way the platform sends HTTP to a tenant-chosen URL (OWASP API7 and API10).
 *
 * - The host is resolved inside undici's connector (`connect.lookup`), every answer is checked there,
 *   and the socket can only connect to an address that passed — so a DNS answer that flips to an
 *   internal address after the URL was saved (rebinding) is refused at connect, not merely at save.
 *   IP literals never reach a lookup, so the connector checks those itself.
 * - Redirects are never followed: undici 7 only follows them through its redirect interceptor, which is
 *   not installed, so a 3xx (including a 307/308 that would replay the signed body) is just a status.
 * - One deadline covers connect, headers and body; the body is read up to a cap and then dropped.
 * - TLS verification is Node's default and is never turned off.
 */
import type { LookupAddress, LookupOptions } from "node:dns";
import { isIP, type LookupFunction } from "node:net";
import { Agent, buildConnector, request } from "undici";
import type { OutboundConfig } from "../../config/outbound.js";
import { type AllowList, classifyAddress, isForbiddenHostName } from "./address-policy.js";
import { BlockedAddressError, DeadlineError, describeFailure } from "./failures.js";
import { HEADER_NAME, isClientOwnedHeader } from "./headers.js";
import { notFound, type Resolver, systemResolver } from "./resolver.js";
import { parseTarget } from "./target-url.js";

export const DEFAULT_TIMEOUT_MS = 15_000;
export const DEFAULT_MAX_RESPONSE_BYTES = 64 * 1024;

export interface OutboundClientOptions {
  /** OUTBOUND_ALLOW_CIDRS: dangerous, development and tests only. */
  allow?: AllowList;
  resolve?: Resolver;
  /** Default whole-attempt budget; also the connect timeout of the pooled connections. */
  timeoutMs?: number;
  maxResponseBytes?: number;
  /**
   * Trust roots that replace the system's. Only for tests that need a trusted local HTTPS receiver;
   * verification itself stays on either way.
   */
  ca?: string | Buffer;
}

export interface PostJsonRequest {
  /** Sent as given (signing headers included); `content-type` defaults to application/json. */
  headers?: Readonly<Record<string, string>>;
  /** Already serialised: signatures cover these exact bytes. */
  body: string | Uint8Array;
  timeoutMs?: number;
  maxResponseBytes?: number;
}

/** Any method, for provider APIs (video providers' REST calls); same checks and deadline as `postJson`. */
export interface OutboundRequest extends Omit<PostJsonRequest, "body"> {
  method: "GET" | "POST" | "PATCH" | "PUT" | "DELETE";
  body?: string | Uint8Array;
}

export interface OutboundResponse {
  ok: true;
  status: number;
  /** Only RESPONSE_HEADERS, each at most 1 KiB; the rest of a tenant's response is not our business. */
  headers: Record<string, string>;
  /** UTF-8 text of at most maxResponseBytes bytes. Never parsed into state. */
  body: string;
  truncated: boolean;
  durationMs: number;
}

export type OutboundFailureKind = "blocked" | "timeout" | "network" | "invalid";

export interface OutboundFailure {
  ok: false;
  /**
   * blocked: the URL or a resolved address is not allowed (nothing was sent).
   * timeout: the deadline passed. network: DNS, connection, TLS or protocol failure.
   * invalid: the request itself is malformed (a header value with CR/LF, a reserved header); retrying
   * cannot help.
   */
  kind: OutboundFailureKind;
  /**
   * For the tenant-visible delivery log. A `blocked` message never names the refused address (no
   * resolution oracle); a `network` message may name the address connected to, which passed the check.
   */
  message: string;
  /** For server logs only (names the range or address that was refused). */
  detail?: string;
  durationMs: number;
}

export type OutboundResult = OutboundResponse | OutboundFailure;

export const RESPONSE_HEADERS = ["content-type", "content-length", "retry-after", "location"] as const;

const BAD_HEADER_VALUE = /[\r\n\0]/;

export class OutboundClient {
  private readonly allow: AllowList;
  private readonly resolve: Resolver;
  private readonly timeoutMs: number;
  private readonly maxResponseBytes: number;
  private readonly agent: Agent;

  constructor(options: OutboundClientOptions = {}) {
    this.allow = options.allow ?? [];
    this.resolve = options.resolve ?? systemResolver;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.maxResponseBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
    const base = buildConnector({
      timeout: this.timeoutMs,
      lookup: this.lookup,
      ...(options.ca === undefined ? {} : { ca: options.ca }),
    });
    const connect: buildConnector.connector = (connectOptions, callback) => {
      // net.connect skips `lookup` for IP literals, so they are judged here instead.
      if (isIP(connectOptions.hostname) !== 0) {
        const verdict = classifyAddress(connectOptions.hostname, this.allow);
        if (!verdict.allowed) {
          callback(new BlockedAddressError(`${connectOptions.hostname}: ${verdict.reason}`), null);
          return;
        }
      }
      base(connectOptions, callback);
    };
    this.agent = new Agent({
      connect,
      headersTimeout: this.timeoutMs,
      bodyTimeout: this.timeoutMs,
      // Headers beyond this are a misbehaving (or hostile) receiver, not a webhook acknowledgement.
      maxHeaderSize: 16 * 1024,
      keepAliveTimeout: 4_000,
    });
  }

  /**
   * net's `lookup` hook: resolve through the injected resolver and hand net only addresses that pass.
   * Any forbidden answer refuses the whole name, as at save time.
   */
  private readonly lookup: LookupFunction = (hostname, options: LookupOptions, callback) => {
    this.checkedAddresses(hostname).then(
      (answers) => {
        const wanted = options.family === 4 || options.family === 6 ? options.family : 0;
        const usable = answers.filter((a) => wanted === 0 || a.family === wanted);
        const first = usable[0];
        if (first === undefined) {
          callback(notFound(hostname), "", 0);
        } else if (options.all === true) {
          callback(null, usable);
        } else {
          callback(null, first.address, first.family);
        }
      },
      (error: NodeJS.ErrnoException) => callback(error, "", 0),
    );
  };

  private async checkedAddresses(hostname: string): Promise<LookupAddress[]> {
    // Same spelling as the save-time check resolved, so both ask the resolver the same question.
    const name = hostname.replace(/\.$/, "");
    if (isForbiddenHostName(name)) throw new BlockedAddressError(`${name}: forbidden name`);
    const answers = await this.resolve(name);
    for (const { address } of answers) {
      const verdict = classifyAddress(address, this.allow);
      if (!verdict.allowed) throw new BlockedAddressError(`${name} → ${address}: ${verdict.reason}`);
    }
    return answers.map(({ address, family }) => ({ address, family }));
  }

  postJson(url: string | URL, req: PostJsonRequest): Promise<OutboundResult> {
    return this.request(url, { ...req, method: "POST" });
  }

  async request(url: string | URL, req: OutboundRequest): Promise<OutboundResult> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    const fail = (kind: OutboundFailureKind, message: string, detail?: string): OutboundFailure => ({
      ok: false,
      kind,
      message,
      ...(detail === undefined ? {} : { detail }),
      durationMs: elapsed(),
    });

    // The stored URL passed the save-time check once; the rules or the allow-list may have changed since.
    const target = parseTarget(typeof url === "string" ? url : url.href, this.allow);
    if (!target.ok)
      return fail("blocked", "destination is not allowed", `${target.reason}: ${target.detail}`);

    const headers: Record<string, string> = {
      ...(req.body === undefined ? {} : { "content-type": "application/json" }),
      "user-agent": "Aula-Webhooks/1",
    };
    for (const [name, value] of Object.entries(req.headers ?? {})) {
      const lower = name.toLowerCase();
      // Framing and routing headers belong to the client; a template must not be able to set them.
      if (!HEADER_NAME.test(name) || isClientOwnedHeader(lower)) return fail("invalid", `header "${name}"`);
      if (BAD_HEADER_VALUE.test(value)) return fail("invalid", `header "${name}" has a control character`);
      headers[lower] = value;
    }

    const timeoutMs = req.timeoutMs ?? this.timeoutMs;
    const maxBytes = req.maxResponseBytes ?? this.maxResponseBytes;
    const deadline = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    // undici defers a signal's abort until the connection is up, so a hung lookup or connect would
    // outlive the budget; racing the attempt against the deadline keeps the promise to the caller.
    const expired = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const error = new DeadlineError("deadline");
        deadline.abort(error);
        reject(error);
      }, timeoutMs);
    });
    const attempt = this.send(
      req.method,
      target.url,
      headers,
      req.body,
      timeoutMs,
      maxBytes,
      deadline.signal,
    );
    // Whichever loses the race still settles later; its outcome is no longer anyone's concern.
    attempt.catch(() => {});
    try {
      const response = await Promise.race([attempt, expired]);
      return { ok: true, ...response, durationMs: elapsed() };
    } catch (error) {
      const failure = describeFailure(error, deadline.signal.aborted, timeoutMs);
      return fail(failure.kind, failure.message, failure.detail);
    } finally {
      clearTimeout(timer);
    }
  }

  private async send(
    method: OutboundRequest["method"],
    url: URL,
    headers: Record<string, string>,
    body: string | Uint8Array | undefined,
    timeoutMs: number,
    maxBytes: number,
    signal: AbortSignal,
  ): Promise<Omit<OutboundResponse, "ok" | "durationMs">> {
    const response = await request(url, {
      dispatcher: this.agent,
      method,
      headers,
      ...(body === undefined ? {} : { body }),
      signal,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
    const chunks: Buffer[] = [];
    let size = 0;
    let truncated = false;
    for await (const chunk of response.body as AsyncIterable<Buffer>) {
      const room = maxBytes - size;
      if (chunk.length > room) {
        chunks.push(chunk.subarray(0, room));
        truncated = true;
        // Leaving the loop destroys the stream and its socket: the rest is never read.
        break;
      }
      chunks.push(chunk);
      size += chunk.length;
    }
    const picked: Record<string, string> = {};
    for (const name of RESPONSE_HEADERS) {
      const value = response.headers[name];
      const text = Array.isArray(value) ? value.join(", ") : value;
      if (text !== undefined) picked[name] = text.slice(0, 1024);
    }
    return {
      status: response.statusCode,
      headers: picked,
      body: new TextDecoder().decode(Buffer.concat(chunks)),
      truncated,
    };
  }

  /** Closes pooled connections; in-flight requests finish first. */
  close(): Promise<void> {
    return this.agent.close();
  }

  /** Drops every connection now, in-flight attempts included (shutdown, tests). */
  destroy(): Promise<void> {
    return this.agent.destroy();
  }
}

export function createOutboundClient(
  config: OutboundConfig,
  deps: { resolve?: Resolver } = {},
): OutboundClient {
  return new OutboundClient({
    allow: config.allowCidrs,
    timeoutMs: config.timeoutMs,
    ...(deps.resolve === undefined ? {} : { resolve: deps.resolve }),
  });
}
