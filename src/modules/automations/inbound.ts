import { and, eq, gt, lte, sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { inboundReceipts } from "../../db/schema/index.js";
import { INACTIVE_STATUSES } from "../../platform/auth/pipeline.js";
import { AppError, notFound } from "../../platform/errors/app-error.js";
import { emitEvent } from "../events/emit.js";
import * as repo from "./repo.js";
import { hashInboundToken } from "./service.js";

/** Tokens are 64 hex characters; anything else cannot be one, and is answered like an unknown token. */
export const INBOUND_TOKEN = /^[0-9a-f]{64}$/;
const REPLAY_WINDOW_HOURS = 24;

export interface InboundAcceptance {
  eventId: string;
  /** True when this was a repeat of a request already accepted within 24 h. */
  replayed: boolean;
}

/**
 * Turns a JSON object posted to an inbound URL into a `webhook` event of the automation that owns the token, in
 * one transaction with its deliveries. A repeated `Idempotency-Key` (or `webhook-id`) within 24 hours answers the
 * first event's id and does nothing: senders retry, and the spec warns that duplicates happen.
 */
export async function acceptInbound(
  db: Db,
  token: string,
  body: Record<string, unknown>,
  idempotencyKey: string | undefined,
): Promise<InboundAcceptance> {
  if (!INBOUND_TOKEN.test(token)) throw notFound();
  const automation = await repo.findByInboundToken(db, hashInboundToken(token));
  if (automation === undefined) throw notFound();
  // The tenant's inbound URLs close with its API (CONTRACT "Billing"); nothing is stored.
  if (automation.billingStatus !== null && INACTIVE_STATUSES.has(automation.billingStatus)) {
    throw new AppError("subscription_inactive", { params: { status: automation.billingStatus } });
  }
  const { tenantId, id: automationId } = automation;
  return db.transaction(async (tx) => {
    if (idempotencyKey !== undefined) {
      // Copies of one request wait for each other here, so the second sees the first one's receipt.
      await tx.execute(
        sql`SELECT pg_advisory_xact_lock(hashtextextended(${`inbound:${automationId}:${idempotencyKey}`}, 0))`,
      );
      const window = sql`now() - make_interval(hours => ${REPLAY_WINDOW_HOURS})`;
      const seen = await tx
        .select({ eventId: inboundReceipts.eventId })
        .from(inboundReceipts)
        .where(
          and(
            eq(inboundReceipts.tenantId, tenantId),
            eq(inboundReceipts.automationId, automationId),
            eq(inboundReceipts.idempotencyKey, idempotencyKey),
            gt(inboundReceipts.receivedAt, window),
          ),
        );
      if (seen[0] !== undefined) return { eventId: seen[0].eventId, replayed: true };
      await tx
        .delete(inboundReceipts)
        .where(
          and(
            eq(inboundReceipts.tenantId, tenantId),
            eq(inboundReceipts.automationId, automationId),
            eq(inboundReceipts.idempotencyKey, idempotencyKey),
            lte(inboundReceipts.receivedAt, window),
          ),
        );
    }
    const event = await emitEvent(tx, {
      tenantId,
      type: "webhook",
      data: body,
      actor: { type: "webhook", automationId },
      automationIds: [automationId],
    });
    if (idempotencyKey !== undefined) {
      await tx.insert(inboundReceipts).values({ tenantId, automationId, idempotencyKey, eventId: event.id });
    }
    return { eventId: event.id, replayed: false };
  });
}
