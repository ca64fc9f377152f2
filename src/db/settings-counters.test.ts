import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { useApi } from "../test-support/api.js";

/**
 * The counters of migrations 0041, 0045 and 0047 (aula_count_rows with several bucket columns) against a recount of the
 * rows, after inserts, upserts, updates of a counted column and deletes, cascaded ones included.
 */

const { h, tenants } = useApi({ tenants: 2 });
const [t, other] = tenants;

const run = (query: ReturnType<typeof sql>) => h.database.db.execute(query);

/** Every non-zero counter of `table` next to its recount: `name` and each `buckets` column's values. */
async function mismatches(tenantId: string, table: string, name: string, buckets: string[]) {
  const recounts = [
    `SELECT '${name}' AS counter, count(*)::int AS value FROM ${table} WHERE tenant_id = $1 HAVING count(*) > 0`,
    // A composite bucket (`a+b`) is keyed by its columns' values joined by ':'.
    ...buckets.map((b) => {
      const columns = b.split("+");
      return `SELECT '${name}:${b}:' || ${columns.join(" || ':' || ")}, count(*)::int FROM ${table}
              WHERE tenant_id = $1 GROUP BY ${columns.join(", ")}`;
    }),
  ].join(" UNION ALL ");
  const { rows } = (await run(
    sql.raw(
      `
      WITH kept AS (
        SELECT counter, value::int AS value FROM tenant_counters
        WHERE tenant_id = $1 AND value <> 0
          AND (counter = '${name}' ${buckets.map((b) => `OR counter LIKE '${name}:${b}:%'`).join(" ")})
      ), recount AS (${recounts})
      SELECT coalesce(kept.counter, recount.counter) AS counter, kept.value AS kept, recount.value AS recounted
      FROM kept FULL JOIN recount ON recount.counter = kept.counter
      ORDER BY 1`.replaceAll("$1", `'${tenantId}'::uuid`),
    ),
  )) as unknown as { rows: { counter: string; kept: number | null; recounted: number | null }[] };
  return { all: rows, wrong: rows.filter((r) => r.kept !== r.recounted) };
}

async function expectCounted(table: string, name: string, buckets: string[]) {
  for (const tenant of [t, other]) {
    const { all, wrong } = await mismatches(tenant.id, table, name, buckets);
    expect(wrong).toEqual([]);
    if (tenant === t) expect(all.length).toBeGreaterThan(buckets.length);
  }
}

describe("settings list counters", () => {
  it("count video providers by status, purpose and provider through inserts, updates and deletes", async () => {
    for (const tenant of [t, other]) {
      await run(sql`
        INSERT INTO video_providers (tenant_id, provider, purpose, name, status)
        SELECT ${tenant.id}::uuid, (ARRAY['jitsi', 'zoom', 'bigbluebutton'])[1 + i % 3],
               (ARRAY['live', 'on_demand'])[1 + i % 2], 'P' || i, 'connected'
        FROM generate_series(1, 12) AS i`);
    }
    await run(
      sql`UPDATE video_providers SET status = 'error' WHERE tenant_id = ${t.id} AND provider = 'zoom'`,
    );
    await run(sql`UPDATE video_providers SET name = name || '!' WHERE tenant_id = ${t.id}`);
    await run(
      sql`DELETE FROM video_providers WHERE tenant_id = ${t.id} AND purpose = 'live' AND provider = 'jitsi'`,
    );
    await expectCounted("video_providers", "video_providers", ["status", "purpose", "provider"]);
  });

  it("count profile fields by status and type, themes by status, and domains", async () => {
    await run(sql`
      INSERT INTO profile_fields (tenant_id, key, label, type, position, status)
      SELECT ${t.id}::uuid, 'f' || i, 'F' || i, (ARRAY['text', 'number', 'date'])[1 + i % 3], i, 'active'
      FROM generate_series(1, 9) AS i`);
    await run(sql`UPDATE profile_fields SET status = 'archived' WHERE tenant_id = ${t.id} AND position <= 4`);
    await run(sql`DELETE FROM profile_fields WHERE tenant_id = ${t.id} AND position = 9`);
    await expectCounted("profile_fields", "profile_fields", ["status", "type"]);

    await run(sql`
      INSERT INTO themes (tenant_id, name) SELECT ${t.id}::uuid, 'T' || i FROM generate_series(1, 5) AS i`);
    await run(sql`UPDATE themes SET status = 'active' WHERE tenant_id = ${t.id} AND name = 'T1'`);
    await run(sql`UPDATE themes SET status = 'archived' WHERE tenant_id = ${t.id} AND name IN ('T2', 'T3')`);
    await run(sql`DELETE FROM themes WHERE tenant_id = ${t.id} AND name = 'T3'`);
    await expectCounted("themes", "themes", ["status"]);

    await run(sql`
      INSERT INTO tenant_domains (tenant_id, host, verification_token)
      SELECT ${t.id}::uuid, 'd' || i || '.' || ${t.slug} || '.example', 'tok' || i FROM generate_series(1, 3) AS i`);
    await run(sql`DELETE FROM tenant_domains WHERE tenant_id = ${t.id} AND host LIKE 'd1.%'`);
    await expectCounted("tenant_domains", "tenant_domains", []);
  });

  it("count a class's attendance through upserts and deletes cascaded from its occurrences and users", async () => {
    const { rows } = (await run(sql`
      INSERT INTO live_classes (tenant_id, title, host_user_id, starts_at, duration_minutes, timezone, room_secret)
      VALUES (${t.id}::uuid, 'A', ${t.adminUserId}::uuid, now(), 60, 'UTC', 's'),
             (${t.id}::uuid, 'B', ${t.adminUserId}::uuid, now(), 60, 'UTC', 's')
      RETURNING id`)) as unknown as { rows: { id: string }[] };
    for (const { id } of rows) {
      await run(sql`
        INSERT INTO live_class_occurrences (tenant_id, live_class_id, starts_at, ends_at, status)
        SELECT ${t.id}::uuid, ${id}::uuid, now() + n * interval '1 day', now() + n * interval '1 day' + interval '1 hour',
               'ended'
        FROM generate_series(1, 3) AS n`);
    }
    await run(sql`
      INSERT INTO users (tenant_id, name, email, role)
      SELECT ${t.id}::uuid, 'S' || i, 's' || i || '@' || ${t.slug} || '.test', 'student' FROM generate_series(1, 4) AS i`);
    const attend = sql`
      INSERT INTO live_class_attendance (tenant_id, occurrence_id, user_id, live_class_id, status, source)
      SELECT ${t.id}::uuid, o.id, u.id, o.live_class_id, 'present', 'manual'
      FROM live_class_occurrences o CROSS JOIN users u
      WHERE o.tenant_id = ${t.id} AND u.tenant_id = ${t.id} AND u.role = 'student'
      ON CONFLICT (tenant_id, occurrence_id, user_id) DO UPDATE SET status = 'late'`;
    await run(attend);
    // The second time every row exists: the upsert updates them and counts none again.
    await run(attend);
    await run(sql`DELETE FROM live_class_occurrences WHERE tenant_id = ${t.id} AND live_class_id = ${rows[0]?.id}
                  AND starts_at = (SELECT min(starts_at) FROM live_class_occurrences WHERE live_class_id = ${rows[0]?.id})`);
    await run(sql`DELETE FROM users WHERE tenant_id = ${t.id} AND email LIKE 's1@%'`);
    await expectCounted("live_class_attendance", "live_class_attendance", ["live_class_id", "occurrence_id"]);
  });

  it("count stored e-mail templates by locale through upserts and deletes", async () => {
    const upsert = sql`
      INSERT INTO email_templates (tenant_id, key, locale, subject, body_html, body_text)
      SELECT ${t.id}::uuid, 'custom.k' || i, (ARRAY['pt-BR', 'en-US'])[1 + i % 2], 'S', 'B', 'B'
      FROM generate_series(1, 6) AS i
      ON CONFLICT (tenant_id, key, locale) DO UPDATE SET subject = 'S2'`;
    await run(upsert);
    await run(upsert);
    await run(sql`DELETE FROM email_templates WHERE tenant_id = ${t.id} AND key = 'custom.k1'`);
    await expectCounted("email_templates", "email_templates", ["locale"]);
  });

  it("count enrollments by course and by user through inserts and deletes cascaded from courses and users", async () => {
    for (const tenant of [t, other]) {
      await run(sql`
        INSERT INTO courses (tenant_id, title) SELECT ${tenant.id}::uuid, 'C' || i FROM generate_series(1, 3) AS i`);
      await run(sql`
        INSERT INTO users (tenant_id, name, email, role)
        SELECT ${tenant.id}::uuid, 'E' || i, 'e' || i || '@' || ${tenant.slug} || '.test', 'student'
        FROM generate_series(1, 4) AS i`);
      await run(sql`
        INSERT INTO enrollments (tenant_id, user_id, course_id)
        SELECT ${tenant.id}::uuid, u.id, c.id FROM users u CROSS JOIN courses c
        WHERE u.tenant_id = ${tenant.id} AND c.tenant_id = ${tenant.id} AND u.email LIKE 'e%'
          AND (c.title <> 'C3' OR u.name = 'E1')`);
    }
    await run(sql`UPDATE enrollments SET status = 'completed' WHERE tenant_id = ${t.id}
                  AND user_id IN (SELECT id FROM users WHERE tenant_id = ${t.id} AND email LIKE 'e3@%')`);
    await run(sql`DELETE FROM users WHERE tenant_id = ${t.id} AND email LIKE 'e2@%'`);
    await run(sql`DELETE FROM courses WHERE tenant_id = ${t.id} AND title = 'C1'`);
    await expectCounted("enrollments", "course_enrollments", ["course_id", "user_id"]);
    await expectCounted("enrollments", "enrollments", [
      "status",
      "user_id+status",
      "course_id+status",
      "course_id+role+status",
    ]);
  });

  it("count a class's members by role and a tag's resources by type (composite buckets)", async () => {
    for (const tenant of [t, other]) {
      await run(sql`
        INSERT INTO class_groups (tenant_id, name) SELECT ${tenant.id}::uuid, 'G' || i FROM generate_series(1, 2) AS i`);
      await run(sql`
        INSERT INTO class_group_members (tenant_id, class_group_id, user_id, role)
        SELECT ${tenant.id}::uuid, g.id, u.id, CASE WHEN u.name = 'E1' THEN 'teacher' ELSE 'student' END
        FROM class_groups g CROSS JOIN users u WHERE g.tenant_id = ${tenant.id} AND u.tenant_id = ${tenant.id}`);
      await run(sql`
        INSERT INTO tags (tenant_id, name, slug, applies_to)
        VALUES (${tenant.id}::uuid, 'T1', 't1', ARRAY['user', 'course']), (${tenant.id}::uuid, 'T2', 't2', ARRAY['user'])`);
      await run(sql`
        INSERT INTO tag_assignments (tenant_id, tag_id, resource_type, resource_id)
        SELECT ${tenant.id}::uuid, tg.id, 'user', u.id FROM tags tg CROSS JOIN users u
        WHERE tg.tenant_id = ${tenant.id} AND u.tenant_id = ${tenant.id}
        UNION ALL
        SELECT ${tenant.id}::uuid, tg.id, 'course', c.id FROM tags tg CROSS JOIN courses c
        WHERE tg.tenant_id = ${tenant.id} AND c.tenant_id = ${tenant.id} AND tg.name = 'T1'`);
    }
    await run(sql`UPDATE class_group_members SET role = 'teacher' WHERE tenant_id = ${t.id}
                  AND user_id IN (SELECT id FROM users WHERE tenant_id = ${t.id} AND email LIKE 'e3@%')`);
    await run(sql`DELETE FROM users WHERE tenant_id = ${t.id} AND email LIKE 'e4@%'`);
    await run(sql`DELETE FROM class_groups WHERE tenant_id = ${t.id} AND name = 'G2'`);
    await run(sql`DELETE FROM tag_assignments WHERE tenant_id = ${t.id} AND resource_type = 'course'
                  AND resource_id IN (SELECT id FROM courses WHERE tenant_id = ${t.id} AND title = 'C2')`);
    await expectCounted("class_group_members", "class_group_members", [
      "class_group_id",
      "class_group_id+role",
    ]);
    await expectCounted("tag_assignments", "tag_assignments", ["tag_id", "tag_id+resource_type"]);
  });

  it("count a course's modules, a module's lessons, a quiz's attempts and a bank's questions by value (0047)", async () => {
    for (const tenant of [t, other]) {
      const [course] = (
        (await run(
          sql`INSERT INTO courses (tenant_id, title) VALUES (${tenant.id}::uuid, 'V') RETURNING id`,
        )) as unknown as {
          rows: { id: string }[];
        }
      ).rows;
      await run(sql`
        INSERT INTO course_modules (tenant_id, course_id, title, position, status)
        SELECT ${tenant.id}::uuid, ${course?.id}::uuid, 'M' || i, i, (ARRAY['draft', 'published'])[1 + i % 2]
        FROM generate_series(1, 4) AS i`);
      await run(sql`
        INSERT INTO lessons (tenant_id, course_id, module_id, title, type, content, position, status)
        SELECT ${tenant.id}::uuid, m.course_id, m.id, 'L' || i, (ARRAY['text', 'quiz'])[1 + i % 2], '{}'::jsonb, i,
               (ARRAY['draft', 'published'])[1 + i % 2]
        FROM course_modules m CROSS JOIN generate_series(1, 3) AS i WHERE m.tenant_id = ${tenant.id}`);
      await run(sql`
        INSERT INTO quizzes (tenant_id, lesson_id, course_id)
        SELECT ${tenant.id}::uuid, id, course_id FROM lessons WHERE tenant_id = ${tenant.id} AND type = 'quiz'`);
      await run(sql`
        INSERT INTO quiz_attempts (tenant_id, quiz_id, user_id, attempt_number, status)
        SELECT ${tenant.id}::uuid, q.id, ${tenant.adminUserId}::uuid, n, 'in_progress'
        FROM quizzes q CROSS JOIN generate_series(1, 3) AS n WHERE q.tenant_id = ${tenant.id}`);
      await run(sql`
        INSERT INTO question_banks (tenant_id, title) SELECT ${tenant.id}::uuid, 'B' || i FROM generate_series(1, 2) AS i`);
      await run(sql`
        INSERT INTO questions (tenant_id, bank_id, type, stem, content, status)
        SELECT ${tenant.id}::uuid, b.id, (ARRAY['essay', 'short_answer'])[1 + i % 2], 'Q' || i, '{}'::jsonb, 'active'
        FROM question_banks b CROSS JOIN generate_series(1, 5) AS i WHERE b.tenant_id = ${tenant.id}`);
    }
    await run(sql`UPDATE course_modules SET status = 'archived' WHERE tenant_id = ${t.id} AND position = 1`);
    await run(
      sql`UPDATE lessons SET status = 'published' WHERE tenant_id = ${t.id} AND status = 'draft' AND position = 2`,
    );
    await run(
      sql`UPDATE quiz_attempts SET status = 'graded' WHERE tenant_id = ${t.id} AND attempt_number < 3`,
    );
    await run(
      sql`UPDATE questions SET status = 'retired', type = 'essay' WHERE tenant_id = ${t.id} AND stem = 'Q1'`,
    );
    await run(sql`UPDATE questions SET stem = stem || '!' WHERE tenant_id = ${t.id}`);
    await run(sql`DELETE FROM lessons WHERE tenant_id = ${t.id} AND position = 3`);
    await run(sql`DELETE FROM course_modules WHERE tenant_id = ${t.id} AND position = 4`);
    await run(sql`DELETE FROM question_banks WHERE tenant_id = ${t.id} AND title = 'B2'`);
    await expectCounted("course_modules", "course_modules", ["course_id", "course_id+status"]);
    await expectCounted("lessons", "lessons", ["module_id", "module_id+status", "module_id+type"]);
    await expectCounted("quiz_attempts", "quiz_attempts", ["quiz_id", "quiz_id+status"]);
    await expectCounted("questions", "questions", ["bank_id", "bank_id+status", "bank_id+type"]);
  });

  it("count media by status and kind through inserts, updates and deletes", async () => {
    await run(sql`
      INSERT INTO media (tenant_id, kind, filename, content_type, size_bytes, status, storage, storage_key,
                         upload_expires_at)
      SELECT ${t.id}::uuid, (ARRAY['image', 'document', 'video'])[1 + i % 3], 'f' || i, 'application/pdf', 10,
             'pending_upload', 'local', ${t.id} || '/v' || i, now() + interval '1 day'
      FROM generate_series(1, 9) AS i`);
    await run(sql`UPDATE media SET status = 'ready' WHERE tenant_id = ${t.id} AND kind = 'image'`);
    await run(sql`DELETE FROM media WHERE tenant_id = ${t.id} AND filename = 'f2'`);
    await expectCounted("media", "media", ["status", "kind"]);
  });
});
