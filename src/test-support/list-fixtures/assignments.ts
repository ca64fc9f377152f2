import { sql } from "drizzle-orm";
import {
  AT,
  analyze,
  insertCourseTree,
  insertedId,
  insertUsers,
  type ListFixture,
  rare,
  rows,
} from "./types.js";

/** Assignments (issue 23 part 3): a lesson's submissions, one per student. */
export const submissionsList: ListFixture = {
  name: "submissions of a lesson",
  path: "/api/institution/lessons/:lessonId/submissions",
  scopes: ["grades:read"],
  tables: ["submissions"],
  async seed(db, t, size) {
    const { courseId, moduleId } = await insertCourseTree(db, t);
    const lessonId = await insertedId(
      db,
      sql`INSERT INTO lessons (tenant_id, course_id, module_id, title, type, position, status)
          VALUES (${t.id}::uuid, ${courseId}::uuid, ${moduleId}::uuid, 'Assignment', 'assignment', 2, 'published')
          RETURNING id`,
    );
    const assignmentId = await insertedId(
      db,
      sql`INSERT INTO assignments (tenant_id, lesson_id, course_id) VALUES (${t.id}::uuid, ${lessonId}::uuid,
          ${courseId}::uuid) RETURNING id`,
    );
    await insertUsers(db, t, size);
    await db.execute(sql`
      INSERT INTO submissions (tenant_id, assignment_id, lesson_id, course_id, user_id, attempt, status, body_text,
                               submitted_at, created_at, updated_at)
      SELECT ${t.id}::uuid, ${assignmentId}::uuid, ${lessonId}::uuid, ${courseId}::uuid, u.id, 1,
             CASE WHEN ${rare(size)} THEN 'returned' ELSE 'submitted' END, 'Work ' || i, ${AT}, ${AT}, ${AT}
      FROM (SELECT id, row_number() OVER (ORDER BY created_at, id) AS i FROM users
            WHERE tenant_id = ${t.id}::uuid AND role = 'student') u`);
    const [one] = await rows<{ user_id: string }>(
      db,
      sql`SELECT user_id FROM submissions WHERE tenant_id = ${t.id}::uuid LIMIT 1`,
    );
    await analyze(db, "users", "submissions");
    return { lessonId, userId: one?.user_id ?? "" };
  },
  queries: [
    { name: "default order", query: "" },
    { name: "userId (one)", query: "userId={userId}", rare: true, filtered: true },
    { name: "status rare", query: "status=returned", rare: true, filtered: true, counter: true },
    { name: "status common", query: "status=submitted", filtered: true, counter: true },
  ],
};

export const commentsList: ListFixture = {
  name: "comments of a submission",
  path: "/api/institution/submissions/:id/comments",
  scopes: ["grades:read"],
  tables: ["submission_comments"],
  async seed(db, t, size) {
    const { courseId, lessonId } = await insertCourseTree(db, t);
    await db.execute(sql`UPDATE lessons SET type = 'assignment', content = '{}'::jsonb
      WHERE tenant_id = ${t.id}::uuid AND id = ${lessonId}::uuid`);
    const assignmentId = await insertedId(
      db,
      sql`INSERT INTO assignments (tenant_id, lesson_id, course_id) VALUES (${t.id}::uuid, ${lessonId}::uuid,
          ${courseId}::uuid) RETURNING id`,
    );
    await insertUsers(db, t, 1);
    const id = await insertedId(
      db,
      sql`INSERT INTO submissions (tenant_id, assignment_id, lesson_id, course_id, user_id, attempt, status)
          SELECT ${t.id}::uuid, ${assignmentId}::uuid, ${lessonId}::uuid, ${courseId}::uuid, id, 1, 'submitted'
          FROM users WHERE tenant_id = ${t.id}::uuid AND role = 'student' LIMIT 1 RETURNING id`,
    );
    await db.execute(sql`
      INSERT INTO submission_comments (tenant_id, submission_id, author, body, created_at)
      SELECT ${t.id}::uuid, ${id}::uuid, jsonb_build_object('type', 'api_key', 'id', gen_random_uuid()),
             'Comment ' || i, ${AT}
      FROM generate_series(1, ${size}) AS i`);
    await analyze(db, "submission_comments");
    return { id };
  },
  queries: [{ name: "default order", query: "" }],
};

export const ASSIGNMENTS: ListFixture[] = [submissionsList, commentsList];
