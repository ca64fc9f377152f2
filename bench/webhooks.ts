/**
 * The load of scenarios (e) and (f), POST /api/webhooks/stripe: Stripe events signed as Stripe signs them, with
 * the SDK's own test helper (one HMAC-SHA256 over the body, as src/test-support/stripe-events.ts does).
 *
 * (e) distinct events: `invoice.payment_succeeded` in the basil shape (the subscription under
 *     `parent.subscription_details`), round-robin over the subscribed tenants, each with its own id and a
 *     `created` one second after the previous event's. Every tenant's subscription is the one the invoice names
 *     and its last event is older, so each event is applied from the invoice alone, without a call to Stripe.
 *     Two events of one tenant are `created` 200 s apart (the tenant count), so none is "same second" (which
 *     would ask Stripe); one that commits after a newer event of its tenant is acknowledged as `stale`.
 * (f) duplicates: one event, applied once beforehand, sent again and again: each copy finds its payment-log row
 *     and answers `duplicate`.
 */
import { randomBytes } from "node:crypto";
import { createServer } from "node:net";
import Stripe from "stripe";

export const GROWTH_PRICE = "price_bench_growth_brl";
/** The route allows signatures up to 300 s old; the duplicates' signature is renewed well within that. */
const RESIGN_AFTER_SECONDS = 60;

export const nowSeconds = () => Math.floor(Date.now() / 1000);

/** A local port nobody listens on: a call to "Stripe" fails at once (connection refused) instead of leaving. */
function unusedPort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      server.close(() => resolvePort(port));
    });
  });
}

export interface BillingSetup {
  /** The webhook signing secret, known to the server (env) and to the load generator. */
  secret: string;
  /** For (e)'s app: ServerConfig.billingEnv. */
  env: Record<string, string>;
}

/**
 * Stripe settings for (e)'s app. A secret key is set so that the app builds its Stripe client as in
 * production, and the API base points at an unused local port: none of the benchmark's events should reach
 * Stripe, and one that did would fail (502) and show as non-2xx instead of waiting on the network.
 */
export async function billingSetup(): Promise<BillingSetup> {
  const secret = `whsec_bench_${randomBytes(24).toString("hex")}`;
  return {
    secret,
    env: {
      STRIPE_SECRET_KEY: "sk_test_aula_bench",
      STRIPE_WEBHOOK_SECRET: secret,
      STRIPE_API_BASE: `http://127.0.0.1:${await unusedPort()}`,
      STRIPE_MAX_NETWORK_RETRIES: "0",
      STRIPE_PRICE_GROWTH_BRL: GROWTH_PRICE,
    },
  };
}

export function signature(secret: string, payload: string, timestamp = nowSeconds()): string {
  return Stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp });
}

export interface SignedEvent {
  id: string;
  body: string;
  headers: Record<string, string>;
}

export interface InvoiceSubscriber {
  customer: string;
  subscription: string;
}

/** Distinct `invoice.payment_succeeded` events, round-robin over `subscribers`, `created` from `firstCreated` up. */
export class InvoiceEvents {
  private counter = 0;
  private readonly run = randomBytes(4).toString("hex");

  constructor(
    private readonly subscribers: InvoiceSubscriber[],
    private readonly firstCreated: number,
    private readonly secret: string,
  ) {
    if (subscribers.length === 0) throw new Error("no subscribers");
  }

  /** How many events were made so far. */
  get made(): number {
    return this.counter;
  }

  next(): SignedEvent {
    const n = this.counter++;
    const s = this.subscribers[n % this.subscribers.length] as InvoiceSubscriber;
    const id = `evt_bench_${this.run}_${n}`;
    const body = JSON.stringify({
      id,
      object: "event",
      api_version: "2025-03-31.basil",
      created: this.firstCreated + n,
      data: {
        object: {
          id: `in_bench_${this.run}_${n}`,
          object: "invoice",
          customer: s.customer,
          status: "paid",
          parent: { type: "subscription_details", subscription_details: { subscription: s.subscription } },
        },
      },
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type: "invoice.payment_succeeded",
    });
    return { id, body, headers: this.headers(body) };
  }

  /** The same event again: same bytes, a signature made now (what a Stripe retry looks like). */
  resign(event: SignedEvent): SignedEvent {
    return { ...event, headers: this.headers(event.body) };
  }

  private headers(body: string): Record<string, string> {
    return { "content-type": "application/json", "stripe-signature": signature(this.secret, body) };
  }
}

/**
 * One event sent again and again, as a Stripe retry would send it: the same bytes under a signature renewed
 * every minute, so that a long run stays inside the route's 300 s tolerance (a default run signs it once).
 */
export class RepeatedEvent {
  private signedAt = nowSeconds();

  constructor(
    private event: SignedEvent,
    private readonly events: InvoiceEvents,
  ) {}

  current(): SignedEvent {
    if (nowSeconds() - this.signedAt >= RESIGN_AFTER_SECONDS) {
      this.event = this.events.resign(this.event);
      this.signedAt = nowSeconds();
    }
    return this.event;
  }
}

/** What the responses of one load said, read from their bodies by the load generator. */
export class OutcomeTally {
  /** Requests built and handed to autocannon (each one is sent). */
  sent = 0;
  /** Responses received, any status. */
  answered = 0;
  readonly byOutcome: Record<string, number> = {};
  /** Ids of the events answered 2xx with `applied` or `stale`: each must have its payment-log row. */
  readonly logged: string[] = [];

  record(status: number, body: string, eventId: string | undefined): void {
    this.answered++;
    const outcome =
      status >= 200 && status < 300 ? (/"outcome":"(\w+)"/.exec(body)?.[1] ?? "?") : `HTTP ${status}`;
    this.byOutcome[outcome] = (this.byOutcome[outcome] ?? 0) + 1;
    if ((outcome === "applied" || outcome === "stale") && eventId !== undefined) this.logged.push(eventId);
  }
}
