/** Shared by the reports and jobs tests: running a tenant's queued jobs, reading events and a run's file. */
import { and, eq } from "drizzle-orm";
import { platformEvents } from "../db/schema/index.js";
import { drainJobs, type JobHandlers } from "../modules/jobs/service.js";
import { reportJobHandler } from "../modules/reports/service.js";
import type { Caller } from "./api.js";
import type { Harness, TestTenant } from "./harness.js";

export const HANDLERS: JobHandlers = { report: reportJobHandler };

/** Runs every due job of the tenant, as a worker would. */
export const runJobs = (h: Harness, t: TestTenant, handlers = HANDLERS) =>
  drainJobs(h.ctx, handlers, { tenantIds: [t.id] });

export async function eventsOf(h: Harness, t: TestTenant, type: string) {
  return h.database.db
    .select()
    .from(platformEvents)
    .where(and(eq(platformEvents.tenantId, t.id), eq(platformEvents.type, type)));
}

/** Follows GET /reports/{id}/download's redirect to the local file route; answers the response of the file. */
export async function download(h: Harness, call: Caller, t: TestTenant, key: string, id: string) {
  const redirect = await call(t, key, "GET", `/reports/${id}/download`);
  if (redirect.statusCode !== 302) throw new Error(`download: ${redirect.statusCode} ${redirect.body}`);
  const url = new URL(String(redirect.headers.location));
  return h.inject({ method: "GET", url: `${url.pathname}${url.search}`, headers: { host: t.host } });
}
