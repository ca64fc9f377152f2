import { and, asc, desc, eq, ne, type SQL, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import { readCounter } from "../../db/counters.js";
import { liveClasses, videoProviders } from "../../db/schema/index.js";
import { type CappedTotal, countCapped, exactTotal } from "../../platform/pagination/capped.js";
import type { PageWindow } from "../../platform/pagination/pagination.js";
import type { ProviderSettings } from "./providers/types.js";
import type { VideoProviderRecord, VideoProviderSort } from "./schemas.js";

const columns = {
  id: videoProviders.id,
  provider: videoProviders.provider,
  purpose: videoProviders.purpose,
  name: videoProviders.name,
  settings: videoProviders.settings,
  isDefault: videoProviders.isDefault,
  hasCredentials: sql<boolean>`(${videoProviders.credentials} IS NOT NULL)`,
  credentialsFingerprint: videoProviders.credentialsFingerprint,
  status: videoProviders.status,
  lastCheckedAt: videoProviders.lastCheckedAt,
  lastError: videoProviders.lastError,
  createdAt: videoProviders.createdAt,
  updatedAt: videoProviders.updatedAt,
};

export interface ProviderFilter {
  purpose?: string;
  provider?: string;
  status?: string;
}

function where(tenantId: string, filter: ProviderFilter): SQL {
  return and(
    eq(videoProviders.tenantId, tenantId),
    filter.purpose === undefined ? undefined : eq(videoProviders.purpose, filter.purpose),
    filter.provider === undefined ? undefined : eq(videoProviders.provider, filter.provider),
    filter.status === undefined ? undefined : eq(videoProviders.status, filter.status),
  ) as SQL;
}

const ORDER: Record<VideoProviderSort, SQL[]> = {
  createdAt: [asc(videoProviders.createdAt), asc(videoProviders.id)],
  "-createdAt": [desc(videoProviders.createdAt), desc(videoProviders.id)],
  name: [asc(sql`lower(${videoProviders.name})`), asc(videoProviders.id)],
  "-name": [desc(sql`lower(${videoProviders.name})`), desc(videoProviders.id)],
};

export async function listProviders(
  db: Executor,
  tenantId: string,
  filter: ProviderFilter,
  sort: VideoProviderSort,
  window: PageWindow,
): Promise<VideoProviderRecord[]> {
  const rows = await db
    .select(columns)
    .from(videoProviders)
    .where(where(tenantId, filter))
    .orderBy(...ORDER[sort])
    .limit(window.limit)
    .offset(window.offset);
  return rows as VideoProviderRecord[];
}

/**
 * Unfiltered or filtered by one of purpose, provider and status, the total is a trigger-kept counter
 * (`video_providers`, `video_providers:<filter>:<value>`, migration 0041), exact. Two or more filters together
 * count their matches up to the platform's cap, walking the list's default order (`countCapped`).
 */
export async function countProviders(
  db: Executor,
  tenantId: string,
  filter: ProviderFilter,
): Promise<CappedTotal> {
  const present = (Object.keys(filter) as (keyof ProviderFilter)[]).filter((k) => filter[k] !== undefined);
  if (present.length === 0) return exactTotal(await readCounter(db, tenantId, "video_providers"));
  const [only] = present;
  if (present.length === 1 && only !== undefined) {
    return exactTotal(await readCounter(db, tenantId, `video_providers:${only}:${filter[only]}`));
  }
  return countCapped(db, videoProviders, where(tenantId, filter), ORDER["-createdAt"]);
}

export async function findProvider(
  db: Executor,
  tenantId: string,
  id: string,
): Promise<VideoProviderRecord | undefined> {
  const rows = await db
    .select(columns)
    .from(videoProviders)
    .where(and(eq(videoProviders.tenantId, tenantId), eq(videoProviders.id, id)));
  return rows[0] as VideoProviderRecord | undefined;
}

export interface SealedRow {
  id: string;
  provider: string;
  purpose: string;
  status: string;
  credentials: string | null;
  settings: ProviderSettings;
}

/** The row with its sealed credentials, for the service only (never serialised). */
export async function findSealed(
  db: Executor,
  tenantId: string,
  id: string,
  lock = false,
): Promise<SealedRow | undefined> {
  const query = db
    .select({
      id: videoProviders.id,
      provider: videoProviders.provider,
      purpose: videoProviders.purpose,
      status: videoProviders.status,
      credentials: videoProviders.credentials,
      settings: videoProviders.settings,
    })
    .from(videoProviders)
    .where(and(eq(videoProviders.tenantId, tenantId), eq(videoProviders.id, id)));
  const rows = lock ? await query.for("update") : await query;
  return rows[0] as SealedRow | undefined;
}

/** The purpose's default connection, if one is set. */
export async function findDefaultId(
  db: Executor,
  tenantId: string,
  purpose: string,
): Promise<string | undefined> {
  const rows = await db
    .select({ id: videoProviders.id })
    .from(videoProviders)
    .where(
      and(
        eq(videoProviders.tenantId, tenantId),
        eq(videoProviders.purpose, purpose),
        eq(videoProviders.isDefault, true),
      ),
    );
  return rows[0]?.id;
}

export type NewProvider = typeof videoProviders.$inferInsert;

export async function insertProvider(db: Executor, values: NewProvider): Promise<void> {
  await db.insert(videoProviders).values(values);
}

export async function updateProvider(
  db: Executor,
  tenantId: string,
  id: string,
  changes: Partial<NewProvider>,
): Promise<void> {
  await db
    .update(videoProviders)
    .set({ ...changes, updatedAt: sql`now()` })
    .where(and(eq(videoProviders.tenantId, tenantId), eq(videoProviders.id, id)));
}

/** Clears the purpose's default except `keepId`, before another becomes the default. */
export async function clearDefault(db: Executor, tenantId: string, purpose: string, keepId: string) {
  await db
    .update(videoProviders)
    .set({ isDefault: false, updatedAt: sql`now()` })
    .where(
      and(
        eq(videoProviders.tenantId, tenantId),
        eq(videoProviders.purpose, purpose),
        eq(videoProviders.isDefault, true),
        ne(videoProviders.id, keepId),
      ),
    );
}

export async function deleteProvider(db: Executor, tenantId: string, id: string): Promise<boolean> {
  const rows = await db
    .delete(videoProviders)
    .where(and(eq(videoProviders.tenantId, tenantId), eq(videoProviders.id, id)))
    .returning({ id: videoProviders.id });
  return rows.length > 0;
}

export async function usedByScheduledClass(db: Executor, tenantId: string, id: string): Promise<boolean> {
  const rows = await db
    .select({ id: liveClasses.id })
    .from(liveClasses)
    .where(
      and(
        eq(liveClasses.tenantId, tenantId),
        eq(liveClasses.videoProviderId, id),
        sql`${liveClasses.status} IN ('scheduled', 'live')`,
      ),
    )
    .limit(1);
  return rows.length > 0;
}
