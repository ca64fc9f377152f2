import type { Executor } from "../../db/client.js";
import { timezoneOf } from "./repo.js";

/**
 * The institution's IANA time zone (its `tenants.timezone`). The one place the calendar and live classes read
 * it, so that institution settings can take it over by rewiring this function alone.
 */
export function institutionTimeZone(db: Executor, tenantId: string): Promise<string> {
  return timezoneOf(db, tenantId);
}
