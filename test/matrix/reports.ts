import { and, eq } from "drizzle-orm";
import { jobs } from "../../src/db/schema/index.js";
import { createReport } from "../../src/modules/reports/service.js";
import type { Harness, TestTenant } from "../../src/test-support/harness.js";
import type { Fixtures } from "./fixture.js";

type Params = string | Record<string, string>;
const idOf = (params: Params) => (typeof params === "string" ? params : (params.id as string));

/** A queued report run (its job): made by the service, as POST /reports makes it. */
const run = async (h: Harness, t: TestTenant) =>
  (await createReport(h.database.db, t.id, { type: "users" }, { kind: "system" })).id;

const jobRow = async (h: Harness, t: TestTenant, params: Params) =>
  (
    await h.database.db
      .select()
      .from(jobs)
      .where(and(eq(jobs.tenantId, t.id), eq(jobs.id, idOf(params))))
  )[0];

const runObject = { makeObject: run, snapshot: jobRow };

export const fixtures: Fixtures = {
  "GET /api/institution/reports/types": { single: true },
  "POST /api/institution/reports": { body: { type: "users" } },
  "GET /api/institution/reports": {},
  "GET /api/institution/reports/:id": runObject,
  "GET /api/institution/reports/:id/download": runObject,
  "DELETE /api/institution/reports/:id": runObject,
  "GET /api/institution/jobs": {},
  "GET /api/institution/jobs/:id": runObject,
  "POST /api/institution/jobs/:id/cancel": runObject,
};
