import { Redis } from "ioredis";

type Handler = (message: string) => void;

/**
 * Tells every API process about a change it must not wait out, such as a revoked API key. Handlers of this process
 * run at once, before `publish` returns; with Redis, the other processes hear it through pub/sub a moment later.
 * Without Redis there is only one process (the contract requires Redis for more than one), so local is enough.
 */
export class Broadcast {
  private readonly handlers = new Map<string, Handler[]>();
  private readonly publisher: Redis | undefined;
  private readonly subscriber: Redis | undefined;
  private readonly origin = `${process.pid}:${Math.random().toString(36).slice(2)}`;

  constructor(redisUrl?: string) {
    if (redisUrl === undefined) return;
    this.publisher = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
    this.subscriber = new Redis(redisUrl, { maxRetriesPerRequest: null });
    // Connection errors are retried by ioredis; a process that misses a message still expires its cache in seconds.
    this.publisher.on("error", () => {});
    this.subscriber.on("error", () => {});
    this.subscriber.on("message", (channel: string, raw: string) => {
      const separator = raw.indexOf("|");
      if (raw.slice(0, separator) === this.origin) return;
      for (const handler of this.handlers.get(channel) ?? []) handler(raw.slice(separator + 1));
    });
  }

  /** Resolves once Redis has the subscription, so a test can rely on hearing the next message. */
  async on(channel: string, handler: Handler): Promise<void> {
    const list = this.handlers.get(channel) ?? [];
    list.push(handler);
    this.handlers.set(channel, list);
    if (list.length === 1) await this.subscriber?.subscribe(channel).catch(() => {});
  }

  async publish(channel: string, message: string): Promise<void> {
    for (const handler of this.handlers.get(channel) ?? []) handler(message);
    await this.publisher?.publish(channel, `${this.origin}|${message}`).catch(() => {});
  }

  async close(): Promise<void> {
    await Promise.all([this.publisher?.quit().catch(() => {}), this.subscriber?.quit().catch(() => {})]);
  }
}
