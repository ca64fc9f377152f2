import type { Static } from "typebox";
import { isPlan, type PlanConfig } from "../../config/plans.js";
import type { Executor } from "../../db/client.js";
import { pageEnvelope, pageWindow } from "../../platform/pagination/pagination.js";
import { studentSeatsUsed } from "../users/service.js";
import * as repo from "./repo.js";
import type { PaymentEvent, SubscriptionStatus } from "./schemas.js";

type Status = Static<typeof SubscriptionStatus>;

/** The plan, its subscription, and the seats its student limit counts (the figure the limit check reads). */
export async function subscriptionStatus(db: Executor, plans: PlanConfig, tenantId: string): Promise<Status> {
  const [plan, billing, used] = await Promise.all([
    repo.readTenantPlan(db, tenantId),
    repo.findBilling(db, tenantId),
    studentSeatsUsed(db, tenantId),
  ]);
  const planName = plan ?? "free";
  return {
    plan: planName as Status["plan"],
    students: { used, limit: isPlan(planName) ? plans.studentLimits[planName] : null },
    status: (billing?.status ?? null) as Status["status"],
    subscribedPlan: (billing?.plan ?? null) as Status["subscribedPlan"],
    currency: (billing?.currency ?? null) as Status["currency"],
    currentPeriodStart: billing?.currentPeriodStart ?? null,
    currentPeriodEnd: billing?.currentPeriodEnd ?? null,
    cancelAtPeriodEnd: billing?.cancelAtPeriodEnd ?? false,
    graceDeadline: billing?.graceDeadline ?? null,
  };
}

export async function listPaymentEvents(
  db: Executor,
  tenantId: string,
  query: { page?: number; perPage?: number },
) {
  const window = pageWindow(query);
  const [rows, total] = await Promise.all([
    repo.listPaymentEvents(db, tenantId, window),
    repo.countPaymentEvents(db, tenantId),
  ]);
  // The outcome column only holds what handleStripeEvent writes, and the payload is always an event object.
  return pageEnvelope(rows as Static<typeof PaymentEvent>[], total, window);
}
