import type { Executor } from "../../db/client.js";
import type { TenantResolver } from "../../platform/tenancy/resolver.js";
import { suspendExpiredGrace } from "./repo.js";

/**
 * Moves every `past_due` subscription whose 7-day grace has elapsed to `suspended`, after which the access gate
 * closes the institution API, at once in every process. Run by the cron route and hourly by the worker; running
 * it twice is harmless. Returns how many were suspended.
 */
export async function expireGracePeriods(
  db: Executor,
  tenants: TenantResolver,
  now: Date = new Date(),
): Promise<number> {
  const suspended = await suspendExpiredGrace(db, now);
  for (const tenantId of suspended) await tenants.changed(tenantId);
  return suspended.length;
}
