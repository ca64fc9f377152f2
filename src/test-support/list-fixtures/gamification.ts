import { sql } from "drizzle-orm";
import { AT, analyze, insertedId, type ListFixture, rare } from "./types.js";

/** `size` badges, a rare few archived (their image need not exist for a list). */
const seedBadges: ListFixture["seed"] = async (db, tenant, size) => {
  await db.execute(sql`
    INSERT INTO gamification_badges (tenant_id, name, description, image_media_id, criteria_narrative, status,
      created_at, updated_at)
    SELECT ${tenant.id}::uuid, 'Badge ' || i, 'Earned by doing', gen_random_uuid(), 'Do it',
           CASE WHEN ${rare(size)} THEN 'archived' ELSE 'active' END, ${AT}, ${AT}
    FROM generate_series(1, ${size}) AS i`);
  await analyze(db, "gamification_badges");
  return {};
};

/** One learner with `size` ledger entries of 1 point, and the balance row whose counter is the list's total. */
const seedLedger: ListFixture["seed"] = async (db, tenant, size) => {
  const userId = await insertedId(
    db,
    sql`INSERT INTO users (tenant_id, name, email, role, status)
        VALUES (${tenant.id}::uuid, 'Learner', 'learner@' || ${tenant.slug} || '.test', 'student', 'active')
        RETURNING id`,
  );
  await db.execute(sql`
    INSERT INTO gamification_ledger (tenant_id, user_id, points, reason, note, balance_after, actor, created_at)
    SELECT ${tenant.id}::uuid, ${userId}::uuid, 1, 'manual', 'seed', i, '{"type":"system"}'::jsonb, ${AT}
    FROM generate_series(1, ${size}) AS i`);
  await db.execute(sql`
    INSERT INTO gamification_balances (tenant_id, user_id, points, entries)
    VALUES (${tenant.id}::uuid, ${userId}::uuid, ${size}, ${size})`);
  await analyze(db, "gamification_ledger", "gamification_balances");
  return { id: userId };
};

export const GAMIFICATION: ListFixture[] = [
  {
    name: "badges",
    path: "/api/institution/gamification/badges",
    scopes: ["gamification:read"],
    tables: ["gamification_badges"],
    seed: seedBadges,
    queries: [
      { name: "oldest first", query: "" },
      { name: "status rare", query: "status=archived", rare: true, filtered: true },
      { name: "status common", query: "status=active", filtered: true },
    ],
  },
  {
    name: "a user's points",
    path: "/api/institution/gamification/users/:id/points",
    scopes: ["gamification:read"],
    tables: ["gamification_ledger"],
    seed: seedLedger,
    queries: [{ name: "newest first", query: "", counter: true }],
  },
];
