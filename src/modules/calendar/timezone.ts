import type { Executor } from "../../db/client.js";
import { timezoneOf } from "./repo.js";

/**
 * The institution's IANA time zone: `tenants.timezone`, which is the settings' `general.timezone` (the settings
 * group stores it there, and the institution profile shows the same value). The one place the calendar and live
 * classes read it; one indexed read instead of the whole settings document.
 */
export function institutionTimeZone(db: Executor, tenantId: string): Promise<string> {
  return timezoneOf(db, tenantId);
}
