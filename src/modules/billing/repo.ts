import { and, desc, eq, lte, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import { readCounter } from "../../db/counters.js";
import { runPageQuery } from "../../db/page-query.js";
import { billingSubscriptions, paymentEvents, tenants } from "../../db/schema/index.js";
import type { PageWindow } from "../../platform/pagination/pagination.js";

export type BillingRow = typeof billingSubscriptions.$inferSelect;
export type BillingChanges = Partial<Omit<typeof billingSubscriptions.$inferInsert, "tenantId">>;

export async function findBilling(db: Executor, tenantId: string): Promise<BillingRow | undefined> {
  const rows = await db
    .select()
    .from(billingSubscriptions)
    .where(eq(billingSubscriptions.tenantId, tenantId));
  return rows[0];
}

/**
 * Locks the tenant row, then its billing row, for the rest of the transaction: the same order as student
 * creation (which locks the tenant row), so a plan change and a seat reservation never deadlock.
 */
export async function lockTenantBilling(
  db: Executor,
  tenantId: string,
): Promise<{ plan: string; billing: BillingRow | undefined } | undefined> {
  const tenant = await db
    .select({ plan: tenants.plan })
    .from(tenants)
    .where(eq(tenants.id, tenantId))
    .for("update");
  if (tenant[0] === undefined) return undefined;
  const billing = await db
    .select()
    .from(billingSubscriptions)
    .where(eq(billingSubscriptions.tenantId, tenantId))
    .for("update");
  return { plan: tenant[0].plan, billing: billing[0] };
}

export async function tenantOfCustomer(db: Executor, customerId: string): Promise<string | undefined> {
  const rows = await db
    .select({ tenantId: billingSubscriptions.tenantId })
    .from(billingSubscriptions)
    .where(eq(billingSubscriptions.stripeCustomerId, customerId));
  return rows[0]?.tenantId;
}

export async function tenantExists(db: Executor, tenantId: string): Promise<boolean> {
  const rows = await db.select({ id: tenants.id }).from(tenants).where(eq(tenants.id, tenantId));
  return rows.length > 0;
}

/** Keeps the first customer stored for the tenant; returns the one stored either way. */
export async function storeCustomer(db: Executor, tenantId: string, customerId: string): Promise<string> {
  await db
    .insert(billingSubscriptions)
    .values({ tenantId, stripeCustomerId: customerId })
    .onConflictDoNothing({ target: billingSubscriptions.tenantId });
  const row = await findBilling(db, tenantId);
  if (row === undefined) throw new Error("billing row vanished after insert");
  return row.stripeCustomerId;
}

export async function updateBilling(db: Executor, tenantId: string, changes: BillingChanges): Promise<void> {
  await db
    .update(billingSubscriptions)
    .set({ ...changes, updatedAt: sql`now()` })
    .where(eq(billingSubscriptions.tenantId, tenantId));
}

export async function setTenantPlan(db: Executor, tenantId: string, plan: string): Promise<void> {
  await db.update(tenants).set({ plan, updatedAt: sql`now()` }).where(eq(tenants.id, tenantId));
}

export async function readTenantPlan(db: Executor, tenantId: string): Promise<string | undefined> {
  const rows = await db.select({ plan: tenants.plan }).from(tenants).where(eq(tenants.id, tenantId));
  return rows[0]?.plan;
}

/**
 * Serialises every copy of one provider event across processes for the rest of the transaction, so that of two
 * concurrent deliveries the second sees the first one's log row (or, if the first rolled back, does the work).
 */
export async function lockProviderEvent(db: Executor, provider: string, eventId: string): Promise<void> {
  await db.execute(sql`SELECT pg_advisory_xact_lock(hashtextextended(${`${provider}:${eventId}`}, 0))`);
}

export async function providerEventLogged(db: Executor, provider: string, eventId: string): Promise<boolean> {
  const rows = await db
    .select({ id: paymentEvents.id })
    .from(paymentEvents)
    .where(and(eq(paymentEvents.provider, provider), eq(paymentEvents.eventId, eventId)));
  return rows.length > 0;
}

export type NewPaymentEvent = Omit<typeof paymentEvents.$inferInsert, "id" | "receivedAt">;

export async function insertPaymentEvent(db: Executor, event: NewPaymentEvent): Promise<void> {
  await db.insert(paymentEvents).values(event);
}

const eventColumns = {
  id: paymentEvents.id,
  provider: paymentEvents.provider,
  externalEventId: paymentEvents.eventId,
  type: paymentEvents.type,
  outcome: paymentEvents.outcome,
  reason: paymentEvents.reason,
  eventCreatedAt: paymentEvents.eventCreatedAt,
  receivedAt: paymentEvents.receivedAt,
  rawPayload: paymentEvents.payload,
};

export type PaymentEventRow = {
  [K in keyof typeof eventColumns]: (typeof eventColumns)[K]["_"]["data"];
};

export async function listPaymentEvents(
  db: Executor,
  tenantId: string,
  window: PageWindow,
): Promise<PaymentEventRow[]> {
  const rows = await runPageQuery(db, "payment_events", tenantId, {}, window, (p, name) =>
    db
      .select(eventColumns)
      .from(paymentEvents)
      .where(eq(paymentEvents.tenantId, p.tenantId))
      .orderBy(desc(paymentEvents.receivedAt), desc(paymentEvents.id))
      .limit(p.limit)
      .offset(p.offset)
      .prepare(name),
  );
  return rows as PaymentEventRow[];
}

export function countPaymentEvents(db: Executor, tenantId: string): Promise<number> {
  return readCounter(db, tenantId, "payment_events");
}

/** `past_due` subscriptions whose grace ended at or before `now` become `suspended`; returns their tenants. */
export async function suspendExpiredGrace(db: Executor, now: Date): Promise<string[]> {
  const rows = await db
    .update(billingSubscriptions)
    .set({ status: "suspended", updatedAt: sql`now()` })
    .where(
      and(
        eq(billingSubscriptions.status, "past_due"),
        lte(billingSubscriptions.graceDeadline, now.toISOString()),
      ),
    )
    .returning({ tenantId: billingSubscriptions.tenantId });
  return rows.map((r) => r.tenantId);
}
