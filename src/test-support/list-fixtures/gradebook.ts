import { sql } from "drizzle-orm";
import { ListCategoriesQuery, ListItemsQuery } from "../../modules/gradebook/item-schemas.js";
import {
  AT,
  analyze,
  insertCourseTree,
  insertedId,
  insertUsers,
  type ListFixture,
  sortQueries,
} from "./types.js";

/** The gradebook (issue 23): a course's categories, items, students and change log; an item's grades. */

export const gradeCategoriesList: ListFixture = {
  name: "grade categories",
  path: "/api/institution/courses/:id/grade-categories",
  scopes: ["grades:read"],
  tables: ["grade_categories"],
  async seed(db, t, size) {
    const { courseId } = await insertCourseTree(db, t);
    await db.execute(sql`
      INSERT INTO grade_categories (tenant_id, course_id, name, weight, position, created_at, updated_at)
      SELECT ${t.id}::uuid, ${courseId}::uuid, 'Category ' || i, NULL, i, ${AT}, ${AT}
      FROM generate_series(1, ${size}) AS i`);
    await analyze(db, "grade_categories");
    return { id: courseId };
  },
  queries: sortQueries(ListCategoriesQuery),
};

export const gradeItemsList: ListFixture = {
  name: "grade items",
  path: "/api/institution/courses/:id/grade-items",
  scopes: ["grades:read"],
  tables: ["grade_items"],
  async seed(db, t, size) {
    const { courseId } = await insertCourseTree(db, t);
    await db.execute(sql`
      INSERT INTO grade_items (tenant_id, course_id, title, max_points, position, created_at, updated_at)
      SELECT ${t.id}::uuid, ${courseId}::uuid, 'Item ' || i, 10, i, ${AT}, ${AT}
      FROM generate_series(1, ${size}) AS i`);
    await analyze(db, "grade_items");
    return { id: courseId };
  },
  queries: sortQueries(ListItemsQuery),
};

/** One course with `size` students enrolled; two items, each student graded on both. */
async function gradedCourse(
  db: Parameters<ListFixture["seed"]>[0],
  t: Parameters<ListFixture["seed"]>[1],
  size: number,
) {
  const { courseId } = await insertCourseTree(db, t);
  await insertUsers(db, t, size);
  await db.execute(sql`
    INSERT INTO enrollments (tenant_id, user_id, course_id, role, status, created_at, updated_at)
    SELECT ${t.id}::uuid, u.id, ${courseId}::uuid, 'student', 'active', u.created_at, u.created_at
    FROM users u WHERE u.tenant_id = ${t.id}::uuid AND u.role = 'student'`);
  const itemId = await insertedId(
    db,
    sql`INSERT INTO grade_items (tenant_id, course_id, title, max_points, position)
        VALUES (${t.id}::uuid, ${courseId}::uuid, 'Exam', 10, 1) RETURNING id`,
  );
  const secondId = await insertedId(
    db,
    sql`INSERT INTO grade_items (tenant_id, course_id, title, max_points, position)
        VALUES (${t.id}::uuid, ${courseId}::uuid, 'Work', 20, 2) RETURNING id`,
  );
  await db.execute(sql`
    INSERT INTO grades (tenant_id, grade_item_id, course_id, user_id, enrollment_id, score, status, posted_at,
                        created_at, updated_at)
    SELECT e.tenant_id, gi.id, e.course_id, e.user_id, e.id, 5, 'graded', e.created_at, e.created_at, e.created_at
    FROM enrollments e CROSS JOIN grade_items gi
    WHERE e.tenant_id = ${t.id}::uuid AND e.course_id = ${courseId}::uuid AND gi.tenant_id = e.tenant_id
      AND gi.course_id = e.course_id`);
  await db.execute(sql`
    INSERT INTO course_grades (tenant_id, course_id, user_id, enrollment_id, current_score, final_score,
                               unposted_current_score, unposted_final_score)
    SELECT e.tenant_id, e.course_id, e.user_id, e.id, 33.33, 33.33, 33.33, 33.33
    FROM enrollments e WHERE e.tenant_id = ${t.id}::uuid AND e.course_id = ${courseId}::uuid`);
  await analyze(db, "users", "enrollments", "grade_items", "grades", "course_grades");
  return { courseId, itemId, secondId };
}

export const gradesList: ListFixture = {
  name: "grades of an item",
  path: "/api/institution/grade-items/:id/grades",
  scopes: ["grades:read"],
  tables: ["grades"],
  async seed(db, t, size) {
    const { itemId } = await gradedCourse(db, t, size);
    return { id: itemId };
  },
  queries: [{ name: "default order", query: "" }],
};

export const gradebookList: ListFixture = {
  name: "gradebook",
  path: "/api/institution/courses/:id/gradebook",
  scopes: ["grades:read"],
  tables: ["enrollments", "grades", "course_grades"],
  async seed(db, t, size) {
    const { courseId } = await gradedCourse(db, t, size);
    return { id: courseId };
  },
  queries: [{ name: "default order", query: "" }],
};

export const gradeChangesList: ListFixture = {
  name: "grade changes",
  path: "/api/institution/courses/:id/grade-changes",
  scopes: ["grades:read"],
  tables: ["grade_changes"],
  async seed(db, t, size) {
    const { courseId } = await insertCourseTree(db, t);
    await db.execute(sql`
      INSERT INTO grade_changes (tenant_id, course_id, grade_item_id, grade_id, user_id, actor_type, via,
                                 score_after, status_after, created_at)
      SELECT ${t.id}::uuid, ${courseId}::uuid, gen_random_uuid(), gen_random_uuid(), gen_random_uuid(), 'system',
             'system', i % 10, 'graded', ${AT}
      FROM generate_series(1, ${size}) AS i`);
    await analyze(db, "grade_changes");
    return { id: courseId };
  },
  queries: [{ name: "default order (newest first)", query: "" }],
};

export const GRADEBOOK: ListFixture[] = [
  gradeCategoriesList,
  gradeItemsList,
  gradesList,
  gradebookList,
  gradeChangesList,
];
