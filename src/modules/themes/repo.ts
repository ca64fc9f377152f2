import { and, asc, desc, eq, type SQL, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import { readCounter } from "../../db/counters.js";
import { themes } from "../../db/schema/index.js";
import type { PageWindow } from "../../platform/pagination/pagination.js";
import type { ThemeRecord, ThemeSort } from "./schemas.js";

const columns = {
  id: themes.id,
  name: themes.name,
  status: themes.status,
  variables: themes.variables,
  logoMediaId: themes.logoMediaId,
  faviconMediaId: themes.faviconMediaId,
  loginBackgroundMediaId: themes.loginBackgroundMediaId,
  customCss: themes.customCss,
  version: themes.version,
  createdAt: themes.createdAt,
  updatedAt: themes.updatedAt,
};

const ORDER: Record<ThemeSort, SQL[]> = {
  "-createdAt": [desc(themes.createdAt), desc(themes.id)],
  createdAt: [asc(themes.createdAt), asc(themes.id)],
  name: [asc(themes.name), asc(themes.id)],
  "-name": [desc(themes.name), desc(themes.id)],
};

const where = (tenantId: string, status?: string) =>
  and(eq(themes.tenantId, tenantId), status === undefined ? undefined : eq(themes.status, status));

export async function listThemes(
  db: Executor,
  tenantId: string,
  status: string | undefined,
  sort: ThemeSort,
  window: PageWindow,
): Promise<ThemeRecord[]> {
  const rows = await db
    .select(columns)
    .from(themes)
    .where(where(tenantId, status))
    .orderBy(...ORDER[sort])
    .limit(window.limit)
    .offset(window.offset);
  return rows as ThemeRecord[];
}

/** The trigger-kept counters `themes` and `themes:status:<s>` (migration 0041): no row is counted. */
export function countThemes(db: Executor, tenantId: string, status: string | undefined): Promise<number> {
  return readCounter(db, tenantId, status === undefined ? "themes" : `themes:status:${status}`);
}

export async function findTheme(db: Executor, tenantId: string, id: string, lock = false) {
  const query = db
    .select(columns)
    .from(themes)
    .where(and(eq(themes.tenantId, tenantId), eq(themes.id, id)));
  const rows = lock ? await query.for("update") : await query;
  return rows[0] as ThemeRecord | undefined;
}

/** The active theme, through themes_one_active_key. */
export async function findActive(db: Executor, tenantId: string, lock = false) {
  const query = db
    .select(columns)
    .from(themes)
    .where(and(eq(themes.tenantId, tenantId), eq(themes.status, "active")));
  const rows = lock ? await query.for("update") : await query;
  return rows[0] as ThemeRecord | undefined;
}

export type ThemeValues = Partial<
  Pick<
    ThemeRecord,
    | "name"
    | "variables"
    | "logoMediaId"
    | "faviconMediaId"
    | "loginBackgroundMediaId"
    | "customCss"
    | "status"
  >
>;

export async function insertTheme(db: Executor, tenantId: string, values: ThemeValues & { name: string }) {
  const rows = await db
    .insert(themes)
    .values({ tenantId, ...values })
    .returning(columns);
  return rows[0] as ThemeRecord;
}

/** Every change is a new version, so a cached compiled document is never mistaken for the current one. */
export async function updateTheme(db: Executor, tenantId: string, id: string, values: ThemeValues) {
  const rows = await db
    .update(themes)
    .set({ ...values, version: sql`${themes.version} + 1`, updatedAt: sql`now()` })
    .where(and(eq(themes.tenantId, tenantId), eq(themes.id, id)))
    .returning(columns);
  return rows[0] as ThemeRecord;
}

export async function deleteTheme(db: Executor, tenantId: string, id: string): Promise<void> {
  await db.delete(themes).where(and(eq(themes.tenantId, tenantId), eq(themes.id, id)));
}
