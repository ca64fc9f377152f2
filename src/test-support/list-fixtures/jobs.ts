import { sql } from "drizzle-orm";
import { AT, analyze, type ListFixture, rare } from "./types.js";

/** `size` report runs (jobs of type `report`), a rare few failed and a rare few of the grades report. */
async function seedJobs(db: Parameters<ListFixture["seed"]>[0], tenantId: string, size: number) {
  await db.execute(sql`
    INSERT INTO jobs (tenant_id, type, subtype, status, progress, payload, created_at, updated_at)
    SELECT ${tenantId}::uuid, 'report', CASE WHEN ${rare(size)} THEN 'grades' ELSE 'users' END,
           CASE WHEN ${rare(size)} THEN 'failed' ELSE 'succeeded' END, 100,
           '{"format": "csv", "parameters": {}}'::jsonb, ${AT}, ${AT}
    FROM generate_series(1, ${size}) AS i`);
  await analyze(db, "jobs");
  return {};
}

export const JOBS: ListFixture[] = [
  {
    name: "jobs",
    path: "/api/institution/jobs",
    scopes: ["reports:read"],
    tables: ["jobs"],
    seed: (db, t, size) => seedJobs(db, t.id, size),
    queries: [
      { name: "newest first", query: "" },
      { name: "status rare", query: "status=failed", rare: true, filtered: true, counter: true },
      { name: "status common", query: "status=succeeded", filtered: true, counter: true },
      { name: "type", query: "type=report", filtered: true, counter: true },
      {
        name: "type and status",
        query: "type=report&status=failed",
        rare: true,
        filtered: true,
        counter: true,
      },
    ],
  },
  {
    name: "report runs",
    path: "/api/institution/reports",
    scopes: ["reports:read"],
    tables: ["jobs"],
    seed: (db, t, size) => seedJobs(db, t.id, size),
    queries: [
      { name: "newest first", query: "" },
      { name: "type rare", query: "type=grades", rare: true, filtered: true, counter: true },
      { name: "type common", query: "type=users", filtered: true, counter: true },
      { name: "status rare", query: "status=failed", rare: true, filtered: true, counter: true },
      { name: "status common", query: "status=completed", filtered: true, counter: true },
    ],
  },
];
