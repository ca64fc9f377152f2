import { sql } from "drizzle-orm";
import { ListCertificatesQuery } from "../../modules/certificates/schemas.js";
import { ListTemplatesQuery } from "../../modules/certificates/template-schemas.js";
import { AT, analyze, insertedId, insertUsers, type ListFixture, rare, rows, sortQueries } from "./types.js";

/** Certificate templates and certificates (issue 23, part 4). */

const LAYOUT = '{"title": "Certificado", "body": "{{student.name}}"}';

export const certificateTemplates: ListFixture = {
  name: "certificate templates",
  path: "/api/institution/certificate-templates",
  scopes: ["courses:read"],
  tables: ["certificate_templates"],
  async seed(db, t, size) {
    await db.execute(sql`
      INSERT INTO certificate_templates (tenant_id, name, layout, status, created_at, updated_at)
      SELECT ${t.id}::uuid, 'Template ' || i, ${LAYOUT}::jsonb,
             CASE WHEN ${rare(size)} THEN 'archived' ELSE 'active' END, ${AT}, ${AT}
      FROM generate_series(1, ${size}) AS i`);
    await analyze(db, "certificate_templates");
    return {};
  },
  queries: [
    ...sortQueries(ListTemplatesQuery),
    { name: "status rare", query: "status=archived", rare: true, filtered: true, counter: true },
    { name: "status common", query: "status=active", filtered: true, counter: true },
  ],
};

/**
 * `size / 10` students with a certificate in each of 10 courses, and one of a learning path; the rare students'
 * are revoked.
 */
export const certificates: ListFixture = {
  name: "certificates",
  path: "/api/institution/certificates",
  scopes: ["courses:read"],
  tables: ["certificates"],
  async seed(db, t, size) {
    await insertUsers(db, t, Math.ceil(size / 10));
    await db.execute(sql`
      INSERT INTO courses (tenant_id, title, status)
      SELECT ${t.id}::uuid, 'Course ' || i, 'published' FROM generate_series(1, 10) AS i`);
    const templateId = await insertedId(
      db,
      sql`INSERT INTO certificate_templates (tenant_id, name, layout) VALUES (${t.id}::uuid, 'Template',
          ${LAYOUT}::jsonb) RETURNING id`,
    );
    await db.execute(sql`
      INSERT INTO certificates (tenant_id, template_id, user_id, course_id, enrollment_id, serial, status, source,
                                student_name, course_title, issued_at, created_at, updated_at)
      SELECT ${t.id}::uuid, ${templateId}::uuid, u.id, c.id, gen_random_uuid(),
             upper(substr(md5(u.id::text || c.id::text), 1, 16)),
             CASE WHEN u.name LIKE 'Quixotic%' THEN 'revoked' ELSE 'valid' END, 'manual', u.name, c.title,
             u.created_at + (c.title = 'Course 1')::int * interval '1 second', u.created_at, u.created_at
      FROM users u CROSS JOIN courses c
      WHERE u.tenant_id = ${t.id}::uuid AND u.role = 'student' AND c.tenant_id = ${t.id}::uuid
      LIMIT ${size}`);
    const pathId = await insertedId(
      db,
      sql`INSERT INTO learning_paths (tenant_id, title, status) VALUES (${t.id}::uuid, 'Path', 'published')
          RETURNING id`,
    );
    await db.execute(sql`
      INSERT INTO certificates (tenant_id, template_id, user_id, learning_path_id, serial, status, source,
                                student_name, learning_path_title, issued_at, created_at, updated_at)
      SELECT ${t.id}::uuid, ${templateId}::uuid, u.id, ${pathId}::uuid, upper(substr(md5(u.id::text), 1, 16)),
             CASE WHEN u.name LIKE 'Quixotic%' THEN 'revoked' ELSE 'valid' END, 'completion', u.name, 'Path',
             u.created_at + interval '2 seconds', u.created_at, u.created_at
      FROM users u WHERE u.tenant_id = ${t.id}::uuid AND u.role = 'student'`);
    const [one] = await rows<{ user_id: string; course_id: string; latest: string }>(
      db,
      sql`SELECT user_id, course_id,
                 to_char((SELECT max(issued_at) FROM certificates WHERE tenant_id = ${t.id}::uuid)
                   - interval '5 minutes', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS latest
          FROM certificates WHERE tenant_id = ${t.id}::uuid AND course_id IS NOT NULL LIMIT 1`,
    );
    await analyze(db, "users", "courses", "learning_paths", "certificates");
    return {
      userId: one?.user_id ?? "",
      courseId: one?.course_id ?? "",
      learningPathId: pathId,
      latest: one?.latest ?? "",
    };
  },
  queries: [
    ...sortQueries(ListCertificatesQuery),
    { name: "userId (rare)", query: "userId={userId}", rare: true, filtered: true, counter: true },
    { name: "courseId (a tenth)", query: "courseId={courseId}", filtered: true, counter: true },
    {
      name: "courseId and status (common)",
      query: "courseId={courseId}&status=valid",
      filtered: true,
      counter: true,
    },
    {
      name: "learningPathId (a tenth)",
      query: "learningPathId={learningPathId}",
      filtered: true,
      counter: true,
    },
    {
      name: "learningPathId and status (rare)",
      query: "learningPathId={learningPathId}&status=revoked",
      rare: true,
      filtered: true,
      counter: true,
    },
    { name: "status rare", query: "status=revoked", rare: true, filtered: true, counter: true },
    { name: "status common", query: "status=valid", filtered: true, counter: true },
    { name: "issuedSince (recent)", query: "issuedSince={latest}", rare: true, filtered: true },
    { name: "issuedSince (all)", query: "issuedSince=2020-01-01T00:00:00Z", filtered: true },
  ],
};

export const CERTIFICATES: ListFixture[] = [certificateTemplates, certificates];
