import { sql } from "drizzle-orm";
import { ListPathEnrollmentsQuery } from "../../modules/learning-paths/enrollment-schemas.js";
import { ListPathsQuery } from "../../modules/learning-paths/schemas.js";
import { AT, analyze, insertedId, insertUsers, type ListFixture, rare, sortQueries } from "./types.js";

/** Learning paths and their enrollments. */

/** `size` paths, each holding the same course (their courses are read for the page's paths only). */
export const learningPaths: ListFixture = {
  name: "learning paths",
  path: "/api/institution/learning-paths",
  scopes: ["courses:read"],
  tables: ["learning_paths", "learning_path_courses"],
  async seed(db, t, size) {
    const courseId = await insertedId(
      db,
      sql`INSERT INTO courses (tenant_id, title, status) VALUES (${t.id}::uuid, 'Path course', 'published')
          RETURNING id`,
    );
    await db.execute(sql`
      INSERT INTO learning_paths (tenant_id, title, status, required_count, created_at, updated_at)
      SELECT ${t.id}::uuid, CASE WHEN ${rare(size)} THEN 'Quixotic Path ' || i ELSE 'Path ' || i END,
             CASE WHEN ${rare(size)} THEN 'archived' ELSE 'published' END, 1, ${AT}, ${AT}
      FROM generate_series(1, ${size}) AS i`);
    await db.execute(sql`
      INSERT INTO learning_path_courses (tenant_id, path_id, course_id, position, required)
      SELECT ${t.id}::uuid, p.id, ${courseId}::uuid, 1, true FROM learning_paths p WHERE p.tenant_id = ${t.id}::uuid`);
    await analyze(db, "courses", "learning_paths", "learning_path_courses");
    return {};
  },
  queries: [
    ...sortQueries(ListPathsQuery),
    { name: "search rare", query: "search=quixotic", rare: true, filtered: true },
    { name: "search common", query: "search=path", filtered: true },
    { name: "status rare", query: "status=archived", rare: true, filtered: true, counter: true },
    { name: "status common", query: "status=published", filtered: true, counter: true },
  ],
};

/** One path with `size` users enrolled, a rare ten of them having completed it. */
export const pathEnrollments: ListFixture = {
  name: "learning path enrollments",
  path: "/api/institution/learning-paths/:id/enrollments",
  scopes: ["enrollments:read"],
  tables: ["learning_path_enrollments"],
  async seed(db, t, size) {
    await insertUsers(db, t, size);
    const pathId = await insertedId(
      db,
      sql`INSERT INTO learning_paths (tenant_id, title, status, required_count)
          VALUES (${t.id}::uuid, 'Parent path', 'published', 1) RETURNING id`,
    );
    await db.execute(sql`
      INSERT INTO learning_path_enrollments (tenant_id, path_id, user_id, status, required_completed, enrolled_at,
                                             completed_at)
      SELECT ${t.id}::uuid, ${pathId}::uuid, u.id,
             CASE WHEN u.name LIKE 'Quixotic%' THEN 'completed' ELSE 'active' END,
             CASE WHEN u.name LIKE 'Quixotic%' THEN 1 ELSE 0 END, u.created_at,
             CASE WHEN u.name LIKE 'Quixotic%' THEN u.created_at END
      FROM users u WHERE u.tenant_id = ${t.id}::uuid AND u.role = 'student'`);
    await analyze(db, "users", "learning_paths", "learning_path_enrollments");
    return { id: pathId };
  },
  queries: [
    ...sortQueries(ListPathEnrollmentsQuery),
    { name: "status rare", query: "status=completed", rare: true, filtered: true, counter: true },
    { name: "status common", query: "status=active", filtered: true, counter: true },
  ],
};

export const LEARNING_PATHS: ListFixture[] = [learningPaths, pathEnrollments];
