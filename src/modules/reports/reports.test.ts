import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../../db/rows.js";
import { fieldsOf, MANY_STUDENTS, useApi } from "../../test-support/api.js";
import { enrollDirectly, makeCourse } from "../../test-support/catalogue.js";
import { adminCookie, makeKey, makeUser, roleCookie } from "../../test-support/harness.js";
import { download, eventsOf, runJobs } from "../../test-support/reports.js";

const { h, tenants, call } = useApi({ env: MANY_STUDENTS, tenants: 2 });
const [a, b] = tenants;
let key: string;
let keyB: string;
let courseId: string;
let foreignCourse: string;

beforeAll(async () => {
  key = await makeKey(h, a, ["reports:read"]);
  keyB = await makeKey(h, b, ["reports:read"]);
  courseId = (await makeCourse(h.database.db, a.id, [{ lessons: [{}, {}] }], "=Formula course")).courseId;
  foreignCourse = (await makeCourse(h.database.db, b.id)).courseId;
  for (let i = 0; i < 3; i++) {
    const user = await makeUser(h, a, "student");
    await enrollDirectly(h.database.db, a.id, user.id, courseId);
  }
});

const run = async (body: object, tenant = a, k = key) => {
  const res = await call(tenant, k, "POST", "/reports", body);
  expect(res.statusCode, res.body).toBe(202);
  return res.json() as { id: string; status: string; jobId: string };
};

const csvLines = (body: string) => body.split("\r\n").filter((l) => l !== "");

describe("the catalogue", () => {
  it("lists the report types with their parameters and formats", async () => {
    const res = await call(a, key, "GET", "/reports/types");
    expect(res.statusCode, res.body).toBe(200);
    const keys = res.json().data.map((t: { key: string }) => t.key);
    expect(keys).toEqual([
      "enrollments",
      "course_progress",
      "grades",
      "users",
      "user_activity",
      "live_attendance",
      "certificates",
    ]);
    expect(res.json().data[0].parameters[0]).toMatchObject({
      name: "courseId",
      type: "uuid",
      required: false,
    });
  });
});

describe("a run, from 202 to its file", () => {
  it("queues a job, which a worker streams into a CSV behind a signed URL, with its events", async () => {
    const queued = await run({ type: "enrollments", parameters: { courseId } });
    expect(queued).toMatchObject({ status: "queued", jobId: queued.id, rowCount: 0, file: null });
    const early = await call(a, key, "GET", `/reports/${queued.id}/download`);
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toMatch(/queued/);
    const job = await call(a, key, "GET", `/jobs/${queued.id}`);
    expect(job.json()).toMatchObject({ type: "report", subtype: "enrollments", status: "queued" });

    expect(await runJobs(h, a)).toEqual(["succeeded"]);
    const done = (await call(a, key, "GET", `/reports/${queued.id}`)).json();
    expect(done).toMatchObject({ status: "completed", progress: 100, rowCount: 3, error: null });
    expect(done.file).toMatchObject({
      contentType: "text/csv; charset=utf-8",
      filename: expect.stringMatching(/\.csv$/),
    });
    const jobAfter = (await call(a, key, "GET", `/jobs/${queued.id}`)).json();
    expect(jobAfter).toMatchObject({ status: "succeeded", totalItems: 3, processedItems: 3, attempts: 1 });

    const file = await download(h, call, a, key, queued.id);
    expect(file.statusCode).toBe(200);
    expect(file.headers["content-type"]).toBe("text/csv; charset=utf-8");
    const lines = csvLines(file.body);
    expect(lines).toHaveLength(4);
    expect(lines[0]).toMatch(
      /^enrollment_id,user_id,user_name,user_email,course_id,course_title,role,status/,
    );
    // Formula-like text typed by users is defused (OWASP CSV injection).
    expect(lines[1]).toContain(",'=Formula course,");
    expect(file.body.length).toBe(done.file.sizeBytes);
    const asJson = await call(a, key, "GET", `/reports/${queued.id}/download?redirect=false`);
    expect(asJson.statusCode).toBe(200);
    expect(asJson.json()).toEqual({
      url: expect.stringContaining(`/api/reports/${queued.id}/file?token=`),
      expiresAt: expect.any(String),
    });

    const completed = await eventsOf(h, a, "report_completed");
    expect(completed.map((e) => e.data)).toContainEqual(
      expect.objectContaining({ runId: queued.id, type: "enrollments", rowCount: 3, format: "csv" }),
    );
    const jobEvents = await eventsOf(h, a, "job_completed");
    expect(jobEvents.map((e) => e.data)).toContainEqual(
      expect.objectContaining({ jobId: queued.id, status: "succeeded", processedItems: 3 }),
    );
  });

  it("writes JSON lines, and runs past several batches with progress and counts", async () => {
    await h.database.db.execute(sql`
      INSERT INTO users (tenant_id, name, email, role)
      SELECT ${a.id}::uuid, 'Bulk ' || i, 'bulk' || i || '@example.test', 'student' FROM generate_series(1, 2500) i`);
    const queued = await run({ type: "users", format: "jsonl", parameters: { role: "student" } });
    expect(await runJobs(h, a)).toEqual(["succeeded"]);
    const done = (await call(a, key, "GET", `/reports/${queued.id}`)).json();
    expect(done.rowCount).toBe(2503);
    const file = await download(h, call, a, key, queued.id);
    const lines = file.body.trimEnd().split("\n");
    expect(lines).toHaveLength(2503);
    const ids = new Set(lines.map((l) => JSON.parse(l).user_id));
    expect(ids.size).toBe(2503);
    expect(JSON.parse(lines[0] as string)).toMatchObject({ role: "student", status: "active" });
  });

  it("answers every type on this institution's data only", async () => {
    for (const type of ["course_progress", "grades", "user_activity", "live_attendance", "certificates"]) {
      const queued = await run({ type });
      expect(await runJobs(h, a)).toEqual(["succeeded"]);
      const body = (await download(h, call, a, key, queued.id)).body;
      expect(body).not.toContain(b.id);
      expect(csvLines(body).length).toBeGreaterThan(0);
    }
    const progress = await run({ type: "course_progress", parameters: { courseId } });
    await runJobs(h, a);
    const lines = csvLines((await download(h, call, a, key, progress.id)).body);
    expect(lines[0]).toContain("lessons_completed,lessons_required,progress_percent");
    expect(lines[1]).toMatch(/,0,2,0,/);
  });
});

describe("the encoding", () => {
  it("writes formulas, quotes, line breaks, numbers, times and profile values as the contract says, byte for byte", async () => {
    const fields = await queryRows<{ id: string }>(
      h.database.db,
      sql`INSERT INTO profile_fields (tenant_id, key, label, type, position) VALUES
        (${b.id}, 'score', 'Score', 'number', 1), (${b.id}, 'tags', 'Tags', 'multiselect', 2),
        (${b.id}, 'note', 'Note', 'text', 3), (${b.id}, 'ok', 'OK', 'checkbox', 4) RETURNING id`,
    );
    const name = 'Núñez, "Zé"\t=1';
    const email = "@weird,mail@b.test";
    const [user] = await queryRows<{ id: string; created_at: Date | string }>(
      h.database.db,
      sql`INSERT INTO users (tenant_id, name, email, role, status) VALUES (${b.id}, ${name}, ${email}, 'student', 'active')
          RETURNING id, created_at`,
    );
    const id = user?.id as string;
    const note = '-minus "quoted"\nline';
    const values = [1.5, ["a", "b,c", "=x", 2], note];
    for (const [i, value] of values.entries()) {
      await h.database.db.execute(sql`INSERT INTO user_profile_values (tenant_id, user_id, field_id, value)
        VALUES (${b.id}, ${id}, ${fields[i]?.id}, ${JSON.stringify(value)}::jsonb)`);
    }
    const createdAt = new Date(user?.created_at as string).toISOString();
    const csv = await run({ type: "users", parameters: { role: "student" } }, b, keyB);
    await runJobs(h, b);
    const lines = csvLines((await download(h, call, b, keyB, csv.id)).body);
    expect(lines[0]).toBe(
      "user_id,user_name,user_email,role,status,created_at,last_login_at,profile.score,profile.tags,profile.note,profile.ok",
    );
    // Split on CRLF only: the note's LF stays inside its quoted field.
    expect(lines[1]).toBe(
      `${id},"Núñez, ""Zé""\t=1","'@weird,mail@b.test",student,active,${createdAt},,1.5,"a; b,c; =x; 2","'-minus ""quoted""\nline",`,
    );
    const jsonl = await run({ type: "users", format: "jsonl", parameters: { role: "student" } }, b, keyB);
    await runJobs(h, b);
    const body = (await download(h, call, b, keyB, jsonl.id)).body;
    expect(body).toBe(
      `${JSON.stringify({
        user_id: id,
        user_name: name,
        user_email: email,
        role: "student",
        status: "active",
        created_at: createdAt,
        last_login_at: null,
        "profile.score": 1.5,
        "profile.tags": "a; b,c; =x; 2",
        "profile.note": note,
        "profile.ok": null,
      })}\n`,
    );
  });
});

describe("parameters", () => {
  it("refuses what the type does not take, values off its list, and ids of another institution", async () => {
    const bad = [
      [{ type: "grades", parameters: { role: "student" } }, ["parameters.role"]],
      [{ type: "enrollments", parameters: { status: "bogus" } }, ["parameters.status"]],
      [{ type: "enrollments", parameters: { courseId: foreignCourse } }, ["parameters.courseId"]],
      [{ type: "nope" }, ["type"]],
      [{ type: "users", format: "xlsx" }, ["format"]],
    ] as const;
    for (const [body, fields] of bad) {
      const res = await call(a, key, "POST", "/reports", body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(fieldsOf(res)).toEqual(fields);
    }
  });
});

describe("access and isolation", () => {
  it("takes reports:read on a key, an administrator on a session", async () => {
    const other = await makeKey(h, a, ["users:read"]);
    expect((await call(a, other, "POST", "/reports", { type: "users" })).statusCode).toBe(403);
    expect((await call(a, await roleCookie(h, a, "teacher"), "GET", "/reports")).statusCode).toBe(403);
    expect((await call(a, await adminCookie(h, a), "GET", "/reports/types")).statusCode).toBe(200);
  });

  it("never shows, serves, cancels or deletes another institution's run", async () => {
    const theirs = await run({ type: "users" }, b, keyB);
    for (const [method, url] of [
      ["GET", `/reports/${theirs.id}`],
      ["GET", `/reports/${theirs.id}/download`],
      ["DELETE", `/reports/${theirs.id}`],
      ["GET", `/jobs/${theirs.id}`],
      ["POST", `/jobs/${theirs.id}/cancel`],
    ] as const) {
      expect((await call(a, key, method, url)).statusCode, `${method} ${url}`).toBe(404);
    }
    expect(
      (await call(a, key, "GET", "/reports")).json().data.map((r: { id: string }) => r.id),
    ).not.toContain(theirs.id);
    await runJobs(h, b);
    // The signed URL of B's file is B's host's: on A's host, with A's tenant, it is nothing.
    const redirect = await call(b, keyB, "GET", `/reports/${theirs.id}/download`);
    const url = new URL(String(redirect.headers.location));
    const onA = await h.inject({
      method: "GET",
      url: `${url.pathname}${url.search}`,
      headers: { host: a.host },
    });
    expect(onA.statusCode).toBe(404);
    const forged = await h.inject({
      method: "GET",
      url: `${url.pathname}?token=1.${"A".repeat(43)}`,
      headers: { host: b.host },
    });
    expect(forged.statusCode).toBe(403);
  });
});

describe("lists and deletion", () => {
  it("lists runs newest first, by type and status, with exact totals", async () => {
    const all = (await call(a, key, "GET", "/reports?perPage=100")).json();
    expect(all.pagination.totalRelation).toBe("eq");
    expect(all.pagination.total).toBe(all.data.length);
    const users = (await call(a, key, "GET", "/reports?type=users")).json();
    expect(users.data.every((r: { type: string }) => r.type === "users")).toBe(true);
    expect(users.pagination.total).toBe(users.data.length);
    const completed = (await call(a, key, "GET", "/reports?status=completed")).json();
    expect(completed.pagination.total).toBe(all.pagination.total);
    const jobs = (await call(a, key, "GET", "/jobs?type=report&status=succeeded")).json();
    expect(jobs.pagination.total).toBe(all.pagination.total);
  });

  it("deletes a run with its job and file", async () => {
    const queued = await run({ type: "user_activity" });
    await runJobs(h, a);
    const redirect = await call(a, key, "GET", `/reports/${queued.id}/download`);
    const url = new URL(String(redirect.headers.location));
    expect((await call(a, key, "DELETE", `/reports/${queued.id}`)).statusCode).toBe(204);
    expect((await call(a, key, "GET", `/reports/${queued.id}`)).statusCode).toBe(404);
    expect((await call(a, key, "GET", `/jobs/${queued.id}`)).statusCode).toBe(404);
    const gone = await h.inject({
      method: "GET",
      url: `${url.pathname}${url.search}`,
      headers: { host: a.host },
    });
    expect(gone.statusCode).toBe(404);
  });
});
