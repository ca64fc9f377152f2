import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { useApi } from "../../test-support/api.js";
import { makeKey } from "../../test-support/harness.js";
import { eventsOf, HANDLERS, runJobs } from "../../test-support/reports.js";
import { claimJobs, type JobHandler, runClaimed } from "./run.js";

const { h, tenants, call } = useApi({ tenants: 3 });
const [a, b, c] = tenants;
let key: string;
let keyC: string;

beforeAll(async () => {
  key = await makeKey(h, a, ["reports:read"]);
  keyC = await makeKey(h, c, ["reports:read"]);
  await h.database.db.execute(sql`
    INSERT INTO users (tenant_id, name, email, role)
    SELECT ${a.id}::uuid, 'User ' || i, 'u' || i || '@example.test', 'student' FROM generate_series(1, 2200) i`);
});

const queue = async (body: object = { type: "users" }, t = a, k = key) => {
  const res = await call(t, k, "POST", "/reports", body);
  expect(res.statusCode, res.body).toBe(202);
  return res.json().id as string;
};
const claim = (tenantId: string, leaseSeconds = 60, perTenant = 1) =>
  claimJobs(h.database.db, { limit: 1, leaseSeconds, perTenant, tenantIds: [tenantId] });
const job = async (id: string, t = a, k = key) => (await call(t, k, "GET", `/jobs/${id}`)).json();

describe("canceling", () => {
  it("cancels a queued job at once, with job_completed, and refuses a second cancel", async () => {
    const id = await queue();
    const res = await call(a, key, "POST", `/jobs/${id}/cancel`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ status: "canceled", cancelRequested: false });
    const again = await call(a, key, "POST", `/jobs/${id}/cancel`);
    expect(again.statusCode).toBe(409);
    expect((await eventsOf(h, a, "job_completed")).map((e) => e.data)).toContainEqual(
      expect.objectContaining({ jobId: id, status: "canceled" }),
    );
    expect(await runJobs(h, a)).toEqual([]);
    expect((await call(a, key, "GET", `/reports/${id}`)).json().status).toBe("canceled");
  });

  it("stops a running report at its next batch, keeps no file, and emits no report event", async () => {
    const id = await queue();
    const [claimed] = await claim(a.id);
    expect(claimed?.id).toBe(id);
    const res = await call(a, key, "POST", `/jobs/${id}/cancel`);
    expect(res.json()).toMatchObject({ status: "running", cancelRequested: true });
    expect(await runClaimed(h.ctx, HANDLERS, claimed as never, undefined)).toBe("canceled");
    const after = await job(id);
    expect(after).toMatchObject({ status: "canceled", cancelRequested: true });
    expect((await call(a, key, "GET", `/reports/${id}`)).json().file).toBeNull();
    const reportEvents = [
      ...(await eventsOf(h, a, "report_completed")),
      ...(await eventsOf(h, a, "report_failed")),
    ];
    expect(reportEvents.map((e) => (e.data as { runId: string }).runId)).not.toContain(id);
  });
});

describe("leases and fencing", () => {
  it("takes over a job whose worker died, and the dead worker's writes match nothing", async () => {
    const id = await queue({ type: "user_activity" });
    const [first] = await claim(a.id);
    expect(first?.attempt).toBe(1);
    // A live lease holds the job (and, at one job per institution, the institution's slot).
    expect(await claim(a.id)).toEqual([]);
    await h.database.db.execute(
      sql`UPDATE jobs SET lease_until = now() - interval '1 second', run_at = now() - interval '1 second' WHERE id = ${id}`,
    );
    const [second] = await claim(a.id);
    expect(second).toMatchObject({ id, attempt: 2 });
    expect(await runClaimed(h.ctx, HANDLERS, first as never, undefined)).toBe("stale");
    expect(await runClaimed(h.ctx, HANDLERS, second as never, undefined)).toBe("succeeded");
    expect(await job(id)).toMatchObject({ status: "succeeded", attempts: 2, processedItems: 2201 });
  });

  it("gives up on a job whose worker died on every attempt", async () => {
    const id = await queue({ type: "user_activity" });
    for (let i = 0; i < 3; i++) {
      expect((await claim(a.id))[0]?.attempt).toBe(i + 1);
      await h.database.db.execute(
        sql`UPDATE jobs SET lease_until = now() - interval '1 second', run_at = now() - interval '1 second' WHERE id = ${id}`,
      );
    }
    const [fourth] = await claim(a.id);
    expect(await runClaimed(h.ctx, HANDLERS, fourth as never, undefined)).toBe("failed");
    expect(await job(id)).toMatchObject({
      status: "failed",
      error: expect.stringMatching(/gave up after 3/),
    });
    expect((await eventsOf(h, a, "report_failed")).map((e) => e.data)).toContainEqual(
      expect.objectContaining({ runId: id, type: "user_activity" }),
    );
  });

  it("retries a failed attempt later, then fails it for good", async () => {
    const broken: JobHandler = {
      ...HANDLERS.report,
      run: async () => {
        throw new Error("SELECT secret FROM somewhere");
      },
    } as JobHandler;
    const id = await queue({ type: "users" }, c, keyC);
    expect(await runJobs(h, c, { report: broken })).toEqual(["retried"]);
    const retried = await job(id, c, keyC);
    expect(retried).toMatchObject({ status: "queued", attempts: 1 });
    expect(retried.error).not.toMatch(/SELECT/);
    for (let i = 0; i < 2; i++) {
      await h.database.db.execute(sql`UPDATE jobs SET run_at = now() WHERE id = ${id}`);
      await runJobs(h, c, { report: broken });
    }
    expect(await job(id, c, keyC)).toMatchObject({ status: "failed", attempts: 3 });
  });
});

describe("fairness", () => {
  it("runs one job per institution at a time, so another institution's job is claimed meanwhile", async () => {
    const first = await queue({ type: "user_activity" });
    const second = await queue({ type: "user_activity" });
    const keyB = await makeKey(h, b, ["reports:read"]);
    const theirs = await queue({ type: "users" }, b, keyB);
    const both = [a.id, b.id];
    const take = () =>
      claimJobs(h.database.db, { limit: 1, leaseSeconds: 60, perTenant: 1, tenantIds: both });
    const [one] = await take();
    expect(one?.id).toBe(first);
    const [two] = await take();
    expect(two?.id).toBe(theirs);
    expect(await take()).toEqual([]);
    for (const claimed of [one, two]) await runClaimed(h.ctx, HANDLERS, claimed as never, undefined);
    const [three] = await take();
    expect(three?.id).toBe(second);
    await runClaimed(h.ctx, HANDLERS, three as never, undefined);
  });

  it("lists jobs newest first with counter totals", async () => {
    const res = await call(a, key, "GET", "/jobs?perPage=2");
    expect(res.statusCode).toBe(200);
    const page = res.json();
    expect(page.data).toHaveLength(2);
    expect(page.pagination.totalRelation).toBe("eq");
    const all = (await call(a, key, "GET", "/jobs?perPage=100")).json();
    expect(page.pagination.total).toBe(all.data.length);
    const times = all.data.map((j: { createdAt: string }) => j.createdAt);
    expect([...times].sort().reverse()).toEqual(times);
    const failed = (await call(a, key, "GET", "/jobs?status=failed")).json();
    expect(failed.pagination.total).toBe(failed.data.length);
    expect(failed.data.every((j: { status: string }) => j.status === "failed")).toBe(true);
  });
});
