import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { useApi } from "../../test-support/api.js";
import { bearer, makeKey } from "../../test-support/harness.js";
import { captureStatements, explainPlan, rowsRead, type Statement } from "../../test-support/plans.js";

/**
 * The agenda at a large size (issue 20): 50,000 custom events, 50,000 live class occurrences and 20,000 lessons
 * with due dates, one an hour from 2019 on, and a 30-day window in 2024. Each source's statement must read about
 * what the window holds, not the tenant's past: a btree on the start bounded only one end of the window, and read
 * every earlier event to keep the month's (no sequential scan showed it; the rows read do).
 */

const SIZE = 50_000;
const LESSONS = 20_000;
const FROM = "2024-03-01T00:00:00Z";
const TO = "2024-03-31T00:00:00Z";
/** Hourly rows in 30 days, and some slack for the edges and the recurring events. */
const IN_WINDOW = 30 * 24;
const READ_AT_MOST = IN_WINDOW + 50;

const { h, tenants } = useApi({ tenants: 1 });
const [t] = tenants;
let key: string;

async function seed(): Promise<void> {
  const db = h.database.db;
  await db.execute(sql`
    INSERT INTO calendar_events (tenant_id, title, starts_at, ends_at, context_type, last_ends_at)
    SELECT ${t.id}::uuid, 'Event ' || i, timestamptz '2019-01-01' + i * interval '1 hour',
           timestamptz '2019-01-01' + i * interval '1 hour' + interval '30 minutes', 'institution',
           timestamptz '2019-01-01' + i * interval '1 hour' + interval '30 minutes'
    FROM generate_series(1, ${SIZE}) AS i`);
  // Series that began long before the window and end long after it: found by their span, whatever their start.
  await db.execute(sql`
    INSERT INTO calendar_events (tenant_id, title, starts_at, ends_at, timezone, context_type, recurrence, last_ends_at)
    SELECT ${t.id}::uuid, 'Yearly ' || i, timestamptz '2019-03-10 12:00Z' + i * interval '1 hour',
           timestamptz '2019-03-10 13:00Z' + i * interval '1 hour', 'UTC', 'institution', 'FREQ=YEARLY;COUNT=12',
           timestamptz '2030-03-10 13:00Z' + i * interval '1 hour'
    FROM generate_series(1, 3) AS i`);
  const [live] = (
    (await db.execute(sql`
      INSERT INTO live_classes (tenant_id, title, host_user_id, starts_at, duration_minutes, timezone, room_secret)
      VALUES (${t.id}::uuid, 'Weekly', ${t.adminUserId}::uuid, '2019-01-01', 60, 'UTC', 'secret')
      RETURNING id`)) as unknown as { rows: { id: string }[] }
  ).rows;
  await db.execute(sql`
    INSERT INTO live_class_occurrences (tenant_id, live_class_id, starts_at, ends_at)
    SELECT ${t.id}::uuid, ${live?.id}::uuid, timestamptz '2019-01-01' + i * interval '1 hour',
           timestamptz '2019-01-01' + i * interval '1 hour' + interval '45 minutes'
    FROM generate_series(1, ${SIZE}) AS i`);
  const [course] = (
    (await db.execute(sql`
      INSERT INTO courses (tenant_id, title, status) VALUES (${t.id}::uuid, 'Course', 'published')
      RETURNING id`)) as unknown as { rows: { id: string }[] }
  ).rows;
  const [mod] = (
    (await db.execute(sql`
      INSERT INTO course_modules (tenant_id, course_id, title, position, status)
      VALUES (${t.id}::uuid, ${course?.id}::uuid, 'Module', 1, 'published') RETURNING id`)) as unknown as {
      rows: { id: string }[];
    }
  ).rows;
  // Lessons due one an hour from 2022 on (the window holds 720), and as many drafts and undated ones.
  await db.execute(sql`
    INSERT INTO lessons (tenant_id, course_id, module_id, title, type, position, status, due_at)
    SELECT ${t.id}::uuid, ${course?.id}::uuid, ${mod?.id}::uuid, 'Lesson ' || i, 'text', i,
           CASE WHEN i % 3 = 0 THEN 'draft' ELSE 'published' END,
           CASE WHEN i % 3 = 1 THEN NULL ELSE timestamptz '2022-01-01' + i * interval '1 hour' END
    FROM generate_series(1, ${LESSONS * 3}) AS i`);
  for (const table of ["calendar_events", "live_class_occurrences", "lessons"]) {
    await db.execute(sql.raw(`ANALYZE ${table}`));
  }
}

beforeAll(async () => {
  key = await makeKey(h, t, ["live-classes:read"]);
  await seed();
}, 240_000);

/** The statements the agenda ran, by the table each reads first. */
async function agenda(query: string) {
  let body: { data: { sourceType: string; title: string }[]; pagination: { total: number } } | undefined;
  const statements = await captureStatements(h, async () => {
    const res = await h.inject({
      method: "GET",
      url: `/api/institution/calendar/events?${query}`,
      headers: { host: t.host, ...bearer(key) },
    });
    expect(res.statusCode, res.body).toBe(200);
    body = res.json();
  });
  const reading = (table: string) =>
    statements.filter((s) => new RegExp(`from "${table}"`, "i").test(s.sql)) as Statement[];
  return { body: body as NonNullable<typeof body>, reading };
}

describe("the agenda at 50,000 events a source", () => {
  it("reads each source's window from an index bounded at both ends", async () => {
    const { body, reading } = await agenda(`from=${FROM}&to=${TO}&perPage=100`);
    // 720 one-off events and 720 occurrences start in the window (the hour at `to` is out), and the three
    // yearly series each have their 2024 occurrence in it; due lessons are one hour in three (the others are
    // drafts or undated).
    expect(body.pagination.total).toBe(720 + 3 + 720 + 240);

    const checks: [string, string][] = [
      ["calendar_events", "calendar_events_span_idx"],
      // Bounded on the start at both ends: the tenant's start index, or the class's (the one class here has
      // 50,000 occurrences, the worst case for the latter).
      ["live_class_occurrences", "live_class_occurrences_"],
      ["lessons", "lessons_due_idx"],
    ];
    for (const [table, index] of checks) {
      const statements = reading(table);
      expect(statements, table).toHaveLength(1);
      const statement = statements[0] as Statement;
      const plan = await explainPlan(h, statement.sql, statement.params, { analyze: true });
      expect(JSON.stringify(plan), table).toContain(index);
      expect(rowsRead(plan, table), `${table}: ${JSON.stringify(plan, null, 1)}`).toBeLessThanOrEqual(
        READ_AT_MOST,
      );
    }
  });

  it("finds a series that began years before the window by its span", async () => {
    const { body } = await agenda(
      "from=2024-03-10T00:00:00Z&to=2024-03-11T00:00:00Z&sourceType=manual&perPage=100",
    );
    expect(body.pagination.total).toBe(24 + 3);
    const yearly = body.data.filter((d) => d.title.startsWith("Yearly"));
    expect(yearly.map((d) => d.title).sort()).toEqual(["Yearly 1", "Yearly 2", "Yearly 3"]);
  });
});
