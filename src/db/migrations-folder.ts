import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export interface MigrationReport {
  applied: number;
  total: number;
}

/** "3 applied (44 in all)", or "up to date (71)": what start-up and the CLI say after migrating. */
export function migrationSummary({ applied, total }: MigrationReport): string {
  return applied === 0 ? `up to date (${total})` : `${applied} applied (${total} in all)`;
}

/**
 * Migrations live in src/db/migrations. Code run from src/ finds them beside this file; compiled code (dist/db,
 * dist-bench/src/db, …) walks up to the project root, the folder holding package.json.
 */
export function migrationsFolder(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  if (existsSync(join(dir, "migrations", "meta"))) return join(dir, "migrations");
  for (let depth = 0; depth < 6; depth++) {
    if (existsSync(join(dir, "package.json"))) return join(dir, "src", "db", "migrations");
    dir = dirname(dir);
  }
  throw new Error("cannot find src/db/migrations above the running code");
}

/** How many migrations this code has (drizzle's journal). */
export function knownMigrations(): number {
  const journal = JSON.parse(readFileSync(join(migrationsFolder(), "meta", "_journal.json"), "utf8")) as {
    entries: unknown[];
  };
  return journal.entries.length;
}

type Query = (text: string) => Promise<{ rows: unknown[] }>;

/** The migrations drizzle has recorded in this database (none before the first). */
export async function recordedMigrations(query: Query): Promise<number> {
  // Two statements: a query naming a table that does not exist fails when it is parsed, whatever guards it.
  const exists = await query("SELECT to_regclass('drizzle.__drizzle_migrations') IS NOT NULL AS e");
  if (!(exists.rows[0] as { e: boolean }).e) return 0;
  const result = await query("SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations");
  return (result.rows[0] as { n: number }).n;
}

/** Migrations around `run`: the count it applied, from drizzle's own record of them. */
export async function reportingMigration(query: Query, run: () => Promise<void>): Promise<MigrationReport> {
  const before = await recordedMigrations(query);
  await run();
  const total = await recordedMigrations(query);
  return { applied: total - before, total };
}
