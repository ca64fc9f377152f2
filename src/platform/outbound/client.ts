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
import { Agent, buildConnector, fetch as undiciFetch } from "undici";
import type { OutboundConfig } from "../../config/outbound.js";
import { type AllowList, classifyAddress, isForbiddenHostName } from "./address-policy.js";
import { type Answer, CappedResponse } from "./capped-response.js";
import { BlockedAddressError, describeFailure } from "./failures.js";
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

/** What the receiver answered (status, reported headers, capped body: capped-response.ts) and how long it took. */
export interface OutboundResponse extends Answer {
  ok: true;
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

const BAD_HEADER_VALUE = /[\r\n\0]/;

/** URLs whose parsed target a client keeps (it is emptied when full). */
const MAX_TARGETS = 10_000;

/** A URL as the client sends to it, or why it may not. */
type Target = { ok: true; origin: string; path: string } | { ok: false; reason: string; detail: string };

export class OutboundClient {
  private readonly allow: AllowList;
  private readonly resolve: Resolver;
  private readonly timeoutMs: number;
  private readonly maxResponseBytes: number;
  private readonly agent: Agent;
  private readonly targets = new Map<string, Target>();

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
    return this.perform(url, req, "POST");
  }

  /**
   * parseTarget's answer for a URL, kept per client: the rules and the allow-list are fixed for the client's life,
   * and a worker sends to the same few URLs over and over (parsing one is a fair share of a local attempt's CPU).
   */
  private target(raw: string): Target {
    let target = this.targets.get(raw);
    if (target === undefined) {
      const parsed = parseTarget(raw, this.allow);
      target = parsed.ok
        ? { ok: true, origin: parsed.url.origin, path: `${parsed.url.pathname}${parsed.url.search}` }
        : parsed;
      if (this.targets.size >= MAX_TARGETS) this.targets.clear();
      this.targets.set(raw, target);
    }
    return target;
  }

  request(url: string | URL, req: OutboundRequest): Promise<OutboundResult> {
    return this.perform(url, req, req.method);
  }

  private async perform(
    url: string | URL,
    req: Omit<OutboundRequest, "method">,
    method: OutboundRequest["method"],
  ): Promise<OutboundResult> {
    const started = performance.now();
    const fail = (kind: OutboundFailureKind, message: string, detail?: string): OutboundFailure => ({
      ok: false,
      kind,
      message,
      ...(detail === undefined ? {} : { detail }),
      durationMs: Math.round(performance.now() - started),
    });

    // The stored URL passed the save-time check once; the rules or the allow-list may have changed since.
    const target = this.target(typeof url === "string" ? url : url.href);
    if (!target.ok)
      return fail("blocked", "destination is not allowed", `${target.reason}: ${target.detail}`);

    const headers: Record<string, string> = {};
    if (req.body !== undefined) headers["content-type"] = "application/json";
    headers["user-agent"] = "Aula-Webhooks/1";
    for (const [name, value] of Object.entries(req.headers ?? {})) {
      const lower = name.toLowerCase();
      // Framing and routing headers belong to the client; a template must not be able to set them.
      if (!HEADER_NAME.test(name) || isClientOwnedHeader(lower)) return fail("invalid", `header "${name}"`);
      if (BAD_HEADER_VALUE.test(value)) return fail("invalid", `header "${name}" has a control character`);
      headers[lower] = value;
    }

    const timeoutMs = req.timeoutMs ?? this.timeoutMs;
    const attempt = new CappedResponse(req.maxResponseBytes ?? this.maxResponseBytes);
    // One deadline for connect, headers and body. undici only hands out a request's abort once it is written
    // to a connection, so a hung lookup or connect would outlive undici's own timeouts: the deadline settles the
    // attempt itself, and aborts the request if it has started.
    const timer = setTimeout(() => attempt.expire(), timeoutMs);
    try {
      this.agent.dispatch(
        {
          origin: target.origin,
          path: target.path,
          method,
          headers,
          ...(req.body === undefined ? {} : { body: req.body }),
          headersTimeout: timeoutMs,
          bodyTimeout: timeoutMs,
        },
        attempt,
      );
      const response = await attempt.settled;
      return { ok: true, ...response, durationMs: Math.round(performance.now() - started) };
    } catch (error) {
      const failure = describeFailure(error, attempt.expired, timeoutMs);
      return fail(failure.kind, failure.message, failure.detail);
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * A WHATWG `fetch` through this client's connector, for SDKs that take one (the OpenAI-compatible client):
   * the URL passes the same rules, the socket only reaches an address that passed, redirects are refused. The
   * caller owns deadlines (an AbortSignal) and reads the body as a stream, so nothing here caps it.
   */
  readonly fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const raw = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    const target = this.target(raw);
    if (!target.ok) throw new BlockedAddressError(`${target.reason}: ${target.detail}`);
    const response = await undiciFetch(raw, {
      ...(init as Parameters<typeof undiciFetch>[1]),
      redirect: "manual",
      dispatcher: this.agent,
    });
    return response as unknown as Response;
  };

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
