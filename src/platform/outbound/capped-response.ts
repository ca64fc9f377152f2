/**
 * The handler undici dispatches one outbound attempt to (client.ts): what `request()` would give, without its body
 * stream and AbortSignal.
 */
import type { Dispatcher } from "undici";
import { DeadlineError } from "./failures.js";

/** Response headers an attempt reports (the rest of a tenant's response is not our business), each at most 1 KiB. */
export const RESPONSE_HEADERS = ["content-type", "content-length", "retry-after", "location"] as const;

/**
 * What one attempt received: the part of client.ts's OutboundResponse that undici's answer fills in. Declared here,
 * below the client, so that the handler does not import the client that dispatches to it.
 */
export interface Answer {
  status: number;
  /** Only RESPONSE_HEADERS, each at most 1 KiB; the rest of a tenant's response is not our business. */
  headers: Record<string, string>;
  /** UTF-8 text of at most maxResponseBytes bytes. Never parsed into state. */
  body: string;
  truncated: boolean;
}

/**
 * undici's dispatch handler for one attempt: it keeps the status, the response headers we report and the body up
 * to `maxBytes`, and settles `settled` once. Past `maxBytes` it aborts the request, which closes the connection, so
 * the rest is never read. It is what undici's `request()` does minus the body stream and the AbortSignal, which were
 * most of a local attempt's CPU.
 */
export class CappedResponse implements Dispatcher.DispatchHandler {
  readonly settled: Promise<Answer>;
  /** Set when the deadline passed before the attempt settled. */
  private deadline: DeadlineError | undefined;
  private resolve!: (answer: Answer) => void;
  private reject!: (error: unknown) => void;
  private done = false;
  private controller: Dispatcher.DispatchController | undefined;
  private status = 0;
  private headers: Record<string, string> = {};
  private readonly chunks: Buffer[] = [];
  private size = 0;

  constructor(private readonly maxBytes: number) {
    this.settled = new Promise<Answer>((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    // The deadline passed while the request waited for a connection.
    if (this.deadline !== undefined) controller.abort(this.deadline);
  }

  onResponseStart(
    _controller: Dispatcher.DispatchController,
    statusCode: number,
    headers: Record<string, string | string[] | undefined>,
  ): void {
    this.status = statusCode;
    const picked: Record<string, string> = {};
    for (const name of RESPONSE_HEADERS) {
      const value = headers[name];
      const text = Array.isArray(value) ? value.join(", ") : value;
      if (text !== undefined) picked[name] = text.slice(0, 1024);
    }
    this.headers = picked;
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.done) return;
    const room = this.maxBytes - this.size;
    if (chunk.length <= room) {
      this.chunks.push(chunk);
      this.size += chunk.length;
      return;
    }
    this.chunks.push(chunk.subarray(0, room));
    this.finish(true);
    controller.abort(new Error("response cap reached"));
  }

  onResponseEnd(): void {
    this.finish(false);
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    this.fail(error);
  }

  /** The deadline passed before the attempt settled. */
  get expired(): boolean {
    return this.deadline !== undefined;
  }

  /** The deadline: settles now, and aborts the request if undici has started it. */
  expire(): void {
    if (this.done) return;
    this.deadline = new DeadlineError("deadline");
    this.fail(this.deadline);
    this.controller?.abort(this.deadline);
  }

  private finish(truncated: boolean): void {
    if (this.done) return;
    this.done = true;
    const body = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks);
    this.resolve({ status: this.status, headers: this.headers, body: body.toString("utf8"), truncated });
  }

  private fail(error: unknown): void {
    if (this.done) return;
    this.done = true;
    this.reject(error);
  }
}
