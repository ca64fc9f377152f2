import { eq, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import { institutionSettings, tenants } from "../../db/schema/index.js";

export interface SettingsRow {
  locale: string;
  timezone: string;
  /** Only the keys an administrator set: `{namespace: {key: value}}`. */
  overrides: Record<string, Record<string, unknown>>;
  version: number;
}

/** The tenant's stored settings in one indexed read (a tenant that never saved any has no settings row). */
export async function readSettings(db: Executor, tenantId: string): Promise<SettingsRow | undefined> {
  const rows = await db
    .select({
      locale: tenants.defaultLocale,
      timezone: tenants.timezone,
      overrides: sql<
        Record<string, Record<string, unknown>>
      >`coalesce(${institutionSettings.overrides}, '{}'::jsonb)`,
      version: sql<number>`coalesce(${institutionSettings.version}, 0)`,
    })
    .from(tenants)
    .leftJoin(institutionSettings, eq(institutionSettings.tenantId, tenants.id))
    .where(eq(tenants.id, tenantId));
  return rows[0];
}

/**
 * Locks the tenant's settings for a change (creating the row the first time), so concurrent patches apply one
 * after the other and each sees the other's result: no lost update between read, merge and write.
 */
export async function lockSettings(db: Executor, tenantId: string): Promise<SettingsRow | undefined> {
  await db.insert(institutionSettings).values({ tenantId }).onConflictDoNothing();
  const rows = await db
    .select({
      locale: tenants.defaultLocale,
      timezone: tenants.timezone,
      overrides: sql<Record<string, Record<string, unknown>>>`${institutionSettings.overrides}`,
      version: institutionSettings.version,
    })
    .from(institutionSettings)
    .innerJoin(tenants, eq(tenants.id, institutionSettings.tenantId))
    .where(eq(institutionSettings.tenantId, tenantId))
    .for("update", { of: [institutionSettings, tenants] });
  return rows[0];
}

export async function writeSettings(
  db: Executor,
  tenantId: string,
  overrides: Record<string, Record<string, unknown>>,
  general: { locale: string; timezone: string } | undefined,
): Promise<number> {
  if (general !== undefined) {
    await db
      .update(tenants)
      .set({ defaultLocale: general.locale, timezone: general.timezone, updatedAt: sql`now()` })
      .where(eq(tenants.id, tenantId));
  }
  const rows = await db
    .update(institutionSettings)
    .set({ overrides, version: sql`${institutionSettings.version} + 1`, updatedAt: sql`now()` })
    .where(eq(institutionSettings.tenantId, tenantId))
    .returning({ version: institutionSettings.version });
  return (rows[0] as { version: number }).version;
}
