/**
 * The settings as every reader sees them: the defaults under the stored overrides. Kept apart from service.ts,
 * which writes them, so that email-domains.ts can read them without importing the service that re-exports it.
 */
import type { Executor } from "../../db/client.js";
import { notFound } from "../../platform/errors/app-error.js";
import * as repo from "./repo.js";
import { DEFAULT_SETTINGS, NAMESPACE_NAMES, type Namespace, type SettingsRecord } from "./schemas.js";

/** Defaults, then the stored overrides (only keys the schema still knows), then the tenant row's locale and zone. */
export function effective(row: repo.SettingsRow): SettingsRecord {
  const out = structuredClone(DEFAULT_SETTINGS) as unknown as Record<Namespace, Record<string, unknown>>;
  for (const ns of NAMESPACE_NAMES) {
    const stored = row.overrides[ns];
    if (stored === undefined || stored === null) continue;
    for (const [key, value] of Object.entries(stored)) if (Object.hasOwn(out[ns], key)) out[ns][key] = value;
  }
  out.general.locale = row.locale;
  out.general.timezone = row.timezone;
  return out as unknown as SettingsRecord;
}

/**
 * The institution's settings with every default filled in: what calendar, e-mail, sessions, user creation and
 * the inactivity scans read. One indexed query; callers that need it several times in a request keep the result.
 */
export async function getSettings(db: Executor, tenantId: string): Promise<SettingsRecord> {
  const row = await repo.readSettings(db, tenantId);
  if (row === undefined) throw notFound();
  return effective(row);
}
