/**
 * Seeding through the service's own migrations and services: a tenant and its key are made by createTenant and
 * createApiKey; courses go in by one INSERT … SELECT FROM generate_series per batch, which fires the statement-level
 * triggers that keep tenant_counters exact, like any other insert. The webhook measurements' subscribed tenants
 * are two plain inserts (they need no administrator, and createTenant would hash a password for each).
 */
import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import type { PlanConfig } from "../src/config/plans.js";
import type { Db } from "../src/db/client.js";
import { billingSubscriptions, tenants } from "../src/db/schema/index.js";
import { createApiKey } from "../src/modules/api-keys/service.js";
import { createTenant } from "../src/modules/tenants/service.js";

export interface BenchTenant {
  id: string;
  slug: string;
  adminUserId: string;
}

/** A tenant and its administrator (`admin@<slug>.test`), whose password is random unless given (to log in). */
export async function makeTenant(
  db: Db,
  plans: PlanConfig,
  prefix: string,
  adminPassword = randomBytes(12).toString("hex"),
): Promise<BenchTenant> {
  const slug = `${prefix}-${randomBytes(4).toString("hex")}`;
  const created = await createTenant(db, plans, {
    slug,
    name: `Bench ${prefix}`,
    adminEmail: `admin@${slug}.test`,
    adminPassword,
  });
  return { id: created.tenantId, slug, adminUserId: created.adminUserId };
}

/**
 * The key for variant (c). The issue asks for "a standard key"; a `standard` key allows 100 requests a minute,
 * so a 10-second run at 50 connections would measure the 429 path after its first 100 requests. The key is
 * therefore `custom` with limits no run reaches: every request still goes through the standard pipeline (host →
 * tenant, key lookup, both rate-limit windows counted, scope check), and the windows never refuse. The service
 * layer takes these limits; the HTTP route's schema would cap them lower.
 */
export async function makeReadKey(db: Db, tenant: BenchTenant): Promise<string> {
  return makeKey(db, tenant, ["courses:read"]);
}

/** A `custom` key with these scopes and limits no run reaches (see makeReadKey); its secret. */
export async function makeKey(db: Db, tenant: BenchTenant, scopes: string[]): Promise<string> {
  const key = await createApiKey(db, tenant.id, tenant.adminUserId, {
    name: "bench",
    scopes,
    rateTier: "custom",
    customLimits: { perHour: 1_000_000_000, perMinute: 1_000_000_000 },
  });
  return key.secret;
}

const BATCH = 250_000;

/**
 * Courses numbered from+1 … to for one tenant. `created_at` rises with the number (three courses per minute, so
 * ties exist and `id` breaks them), with `offsetMinutes` shifting a tenant's timeline; titles are a mix of
 * plain and accented ones, a third of the descriptions are null, statuses rotate.
 */
export async function insertCourses(
  db: Db,
  tenantId: string,
  from: number,
  to: number,
  offsetMinutes = 0,
): Promise<void> {
  for (let start = from + 1; start <= to; start += BATCH) {
    const end = Math.min(to, start + BATCH - 1);
    await db.execute(sql`
      INSERT INTO courses (tenant_id, title, description, status, created_at, updated_at)
      SELECT ${tenantId}::uuid,
        CASE g % 5
          WHEN 0 THEN 'Introducción a la programación ' || g
          WHEN 1 THEN 'Éléments de géométrie analytique ' || g
          WHEN 2 THEN 'Grundlagen der Übersetzung ' || g
          ELSE 'Course ' || g || ': data structures and algorithms'
        END,
        CASE WHEN g % 3 = 0 THEN NULL
          ELSE 'A course about topic ' || (g % 997) || ', with exercises, readings and a final project.'
        END,
        (ARRAY['draft', 'published', 'archived'])[1 + g % 3],
        ts, ts + interval '1 hour'
      FROM generate_series(${start}::int, ${end}::int) AS g,
        LATERAL (SELECT timestamptz '2020-01-01 00:00:00+00'
          + ((g / 3) + ${offsetMinutes}::int) * interval '1 minute' AS ts) AS t
    `);
  }
}

/** Refresh statistics after a bulk insert (and set hint bits / the visibility map, as autovacuum would). */
export async function analyze(db: Db): Promise<void> {
  await db.execute(sql`VACUUM (ANALYZE) courses`);
  await db.execute(sql`VACUUM (ANALYZE) tenant_counters`);
}

export async function courseCount(db: Db, tenantId: string): Promise<number> {
  const res = (await db.execute(
    sql`SELECT value::int AS n FROM tenant_counters WHERE tenant_id = ${tenantId}::uuid AND counter = 'courses'`,
  )) as unknown as { rows: { n: number }[] };
  return res.rows[0]?.n ?? 0;
}

/** A tenant with a live Stripe subscription, as the webhook finds it: its customer and subscription ids. */
export interface Subscriber {
  tenantId: string;
  customer: string;
  subscription: string;
}

/**
 * `count` tenants on the growth plan, each with an active growth subscription in billing_subscriptions whose
 * newest applied event is `lastEventAt` (unix seconds): the state after a checkout and its first invoice.
 */
export async function makeSubscribers(
  db: Db,
  count: number,
  priceId: string,
  lastEventAt: number,
): Promise<Subscriber[]> {
  const run = randomBytes(4).toString("hex");
  const rows = await db
    .insert(tenants)
    .values(
      Array.from({ length: count }, (_, i) => ({
        slug: `hook-${run}-${i}`,
        name: `Bench webhook ${i}`,
        plan: "growth",
      })),
    )
    .returning({ id: tenants.id, slug: tenants.slug });
  const subscribers = rows.map((r) => ({
    tenantId: r.id,
    customer: `cus_bench_${r.slug.replaceAll("-", "_")}`,
    subscription: `sub_bench_${r.slug.replaceAll("-", "_")}`,
  }));
  const at = new Date(lastEventAt * 1000).toISOString();
  await db.insert(billingSubscriptions).values(
    subscribers.map((s) => ({
      tenantId: s.tenantId,
      stripeCustomerId: s.customer,
      stripeSubscriptionId: s.subscription,
      plan: "growth",
      priceId,
      currency: "brl",
      status: "active",
      lastEventAt: at,
      lastEventId: "evt_bench_seed",
    })),
  );
  return subscribers;
}
