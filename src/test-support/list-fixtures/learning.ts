import { sql } from "drizzle-orm";
import { ListModulesQuery } from "../../modules/course-modules/schemas.js";
import { ListCoursesQuery } from "../../modules/courses/schemas.js";
import { ListCompletionsQuery } from "../../modules/enrollments/completion-schemas.js";
import { ListEnrollmentsQuery, ListUserEnrollmentsQuery } from "../../modules/enrollments/schemas.js";
import { ListLessonsQuery } from "../../modules/lessons/schemas.js";
import {
  AT,
  analyze,
  insertCourseTree,
  insertUsers,
  type ListFixture,
  rare,
  rows,
  sortQueries,
} from "./types.js";

/** Courses, their modules and lessons, enrollments and completions. */

export const courses: ListFixture = {
  name: "courses",
  path: "/api/institution/courses",
  scopes: ["courses:read"],
  tables: ["courses"],
  async seed(db, t, size) {
    await db.execute(sql`
      INSERT INTO courses (tenant_id, title, status, created_at, updated_at)
      SELECT ${t.id}::uuid, CASE WHEN ${rare(size)} THEN 'Quixotic Course ' || i ELSE 'Course ' || i END,
             CASE WHEN ${rare(size)} THEN 'archived' ELSE 'published' END, ${AT}, ${AT}
      FROM generate_series(1, ${size}) AS i`);
    await analyze(db, "courses");
    return {};
  },
  queries: [
    ...sortQueries(ListCoursesQuery),
    { name: "search rare", query: "search=quixotic", rare: true, filtered: true },
    { name: "search common", query: "search=course", filtered: true },
    { name: "status rare", query: "status=archived", rare: true, filtered: true },
    { name: "status common", query: "status=published", filtered: true, counter: true },
  ],
};

/** Users of one course each: `size / 10` students in 10 courses. */
export const enrollments: ListFixture = {
  name: "enrollments",
  path: "/api/institution/enrollments",
  scopes: ["enrollments:read"],
  tables: ["enrollments"],
  async seed(db, t, size) {
    await insertUsers(db, t, Math.ceil(size / 10));
    await db.execute(sql`
      INSERT INTO courses (tenant_id, title, status)
      SELECT ${t.id}::uuid, 'Course ' || i, 'published' FROM generate_series(1, 10) AS i`);
    await db.execute(sql`
      INSERT INTO enrollments (tenant_id, user_id, course_id, status, created_at)
      SELECT ${t.id}::uuid, u.id, c.id,
             CASE WHEN u.name LIKE 'Quixotic%' THEN 'suspended' ELSE 'active' END,
             u.created_at + (c.title = 'Course 1')::int * interval '1 second'
      FROM users u CROSS JOIN courses c
      WHERE u.tenant_id = ${t.id}::uuid AND u.role = 'student' AND c.tenant_id = ${t.id}::uuid
      LIMIT ${size}`);
    const [one] = await rows<{ user_id: string; course_id: string }>(
      db,
      sql`SELECT user_id, course_id FROM enrollments WHERE tenant_id = ${t.id}::uuid LIMIT 1`,
    );
    await analyze(db, "users", "courses", "enrollments");
    return { userId: one?.user_id ?? "", courseId: one?.course_id ?? "" };
  },
  queries: [
    ...sortQueries(ListEnrollmentsQuery),
    { name: "userId (rare)", query: "userId={userId}", rare: true, filtered: true, counter: true },
    { name: "courseId (a tenth)", query: "courseId={courseId}", filtered: true, counter: true },
    { name: "status rare", query: "status=suspended", rare: true, filtered: true, counter: true },
    { name: "status common", query: "status=active", filtered: true, counter: true },
  ],
};

/** One user enrolled in `size` courses. */
export const userEnrollments: ListFixture = {
  name: "user enrollments",
  path: "/api/institution/users/:id/enrollments",
  scopes: ["enrollments:read"],
  tables: ["enrollments"],
  async seed(db, t, size) {
    await insertUsers(db, t, 1);
    const [user] = await rows<{ id: string }>(
      db,
      sql`SELECT id FROM users WHERE tenant_id = ${t.id}::uuid AND role = 'student'`,
    );
    await db.execute(sql`
      INSERT INTO courses (tenant_id, title, status, created_at)
      SELECT ${t.id}::uuid, 'Course ' || i, 'published', ${AT} FROM generate_series(1, ${size}) AS i`);
    await db.execute(sql`
      INSERT INTO enrollments (tenant_id, user_id, course_id, status, created_at)
      SELECT ${t.id}::uuid, ${user?.id}::uuid, c.id, CASE WHEN ${rare(size)} THEN 'suspended' ELSE 'active' END,
             c.created_at
      FROM courses c, LATERAL (SELECT split_part(c.title, ' ', 2)::int AS i) n WHERE c.tenant_id = ${t.id}::uuid`);
    const [one] = await rows<{ course_id: string }>(
      db,
      sql`SELECT course_id FROM enrollments WHERE tenant_id = ${t.id}::uuid LIMIT 1`,
    );
    await analyze(db, "users", "courses", "enrollments");
    return { id: user?.id ?? "", courseId: one?.course_id ?? "" };
  },
  queries: [
    ...sortQueries(ListUserEnrollmentsQuery),
    { name: "courseId (one)", query: "courseId={courseId}", rare: true, filtered: true },
    { name: "status rare", query: "status=suspended", rare: true, filtered: true, counter: true },
    { name: "status common", query: "status=active", filtered: true, counter: true },
  ],
};

/** One course with `size` modules. */
export const modules: ListFixture = {
  name: "course modules",
  path: "/api/institution/courses/:id/modules",
  scopes: ["courses:read"],
  tables: ["course_modules"],
  async seed(db, t, size) {
    const { courseId } = await insertCourseTree(db, t);
    await db.execute(sql`
      INSERT INTO course_modules (tenant_id, course_id, title, position, status, created_at)
      SELECT ${t.id}::uuid, ${courseId}::uuid, 'Module ' || i, i + 1,
             CASE WHEN ${rare(size)} THEN 'draft' ELSE 'published' END, ${AT}
      FROM generate_series(1, ${size} - 1) AS i`);
    await analyze(db, "course_modules", "lessons");
    return { id: courseId };
  },
  queries: [
    ...sortQueries(ListModulesQuery),
    { name: "status rare", query: "status=draft", rare: true, filtered: true, counter: true },
    { name: "status common", query: "status=published", filtered: true, counter: true },
  ],
};

/** One module with `size` lessons. */
export const lessons: ListFixture = {
  name: "lessons",
  path: "/api/institution/modules/:id/lessons",
  scopes: ["courses:read"],
  tables: ["lessons"],
  async seed(db, t, size) {
    const { courseId, moduleId } = await insertCourseTree(db, t);
    await db.execute(sql`
      INSERT INTO lessons (tenant_id, course_id, module_id, title, type, content, position, status, created_at)
      SELECT ${t.id}::uuid, ${courseId}::uuid, ${moduleId}::uuid, 'Lesson ' || i, 'text',
             '{"bodyHtml": "<p>Lesson</p>"}'::jsonb, i + 1,
             CASE WHEN ${rare(size)} THEN 'draft' ELSE 'published' END, ${AT}
      FROM generate_series(1, ${size} - 1) AS i`);
    await analyze(db, "lessons");
    return { id: moduleId };
  },
  queries: [
    ...sortQueries(ListLessonsQuery),
    { name: "status rare", query: "status=draft", rare: true, filtered: true, counter: true },
    { name: "status common", query: "status=published", filtered: true, counter: true },
    { name: "type common", query: "type=text", filtered: true, counter: true },
  ],
};

/** One lesson completed by `size` students. */
export const completions: ListFixture = {
  name: "lesson completions",
  path: "/api/institution/lessons/:id/completions",
  scopes: ["enrollments:read"],
  tables: ["lesson_completions"],
  async seed(db, t, size) {
    const { courseId, moduleId, lessonId } = await insertCourseTree(db, t);
    await insertUsers(db, t, size);
    await db.execute(sql`
      INSERT INTO lesson_completions (tenant_id, lesson_id, user_id, course_id, module_id, completed_at)
      SELECT ${t.id}::uuid, ${lessonId}::uuid, u.id, ${courseId}::uuid, ${moduleId}::uuid, u.created_at
      FROM users u WHERE u.tenant_id = ${t.id}::uuid AND u.role = 'student'`);
    const [latest] = await rows<{ user_id: string; since: string }>(
      db,
      sql`SELECT user_id, to_char(completed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS since
          FROM lesson_completions WHERE tenant_id = ${t.id}::uuid ORDER BY completed_at DESC LIMIT 1 OFFSET 2`,
    );
    await analyze(db, "users", "lesson_completions");
    return { id: lessonId, userId: latest?.user_id ?? "", since: latest?.since ?? "" };
  },
  queries: [
    ...sortQueries(ListCompletionsQuery),
    { name: "userId (one)", query: "userId={userId}", rare: true, filtered: true },
    { name: "since (the last three)", query: "since={since}", rare: true, filtered: true },
    { name: "since (all)", query: "since=2020-01-01T00:00:00Z", filtered: true },
  ],
};

export const LEARNING: ListFixture[] = [courses, enrollments, userEnrollments, modules, lessons, completions];
