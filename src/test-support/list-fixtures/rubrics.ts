import { sql } from "drizzle-orm";
import { ListAssessmentsQuery } from "../../modules/rubrics/assessment-schemas.js";
import { ListRubricsQuery } from "../../modules/rubrics/schemas.js";
import {
  AT,
  analyze,
  insertCourseTree,
  insertedId,
  insertUsers,
  type ListFixture,
  rare,
  sortQueries,
} from "./types.js";

/** Rubrics and a rubric's assessments (issue 23, part 2). */

const CRITERIA = `[{"id": "00000000-0000-4000-8000-000000000001", "description": "C", "longDescription": null,
  "points": 2, "useRange": false, "position": 1, "ratings": [
  {"id": "00000000-0000-4000-8000-000000000002", "description": "A", "longDescription": null, "points": 2},
  {"id": "00000000-0000-4000-8000-000000000003", "description": "B", "longDescription": null, "points": 0}]}]`;

/** `size` rubrics with their version 1; the rare ones are archived course rubrics titled "Quixotic". */
export const rubricsList: ListFixture = {
  name: "rubrics",
  path: "/api/institution/rubrics",
  scopes: ["rubrics:read"],
  tables: ["rubrics", "rubric_versions"],
  async seed(db, t, size) {
    const { courseId } = await insertCourseTree(db, t);
    await db.execute(sql`
      INSERT INTO rubrics (tenant_id, title, scope, course_id, status, created_at, updated_at)
      SELECT ${t.id}::uuid, CASE WHEN ${rare(size)} THEN 'Quixotic Rubric ' || i ELSE 'Rubric ' || i END,
             CASE WHEN ${rare(size)} THEN 'course' ELSE 'institution' END,
             CASE WHEN ${rare(size)} THEN ${courseId}::uuid END,
             CASE WHEN ${rare(size)} THEN 'archived' ELSE 'active' END, ${AT}, ${AT}
      FROM generate_series(1, ${size}) AS i`);
    await db.execute(sql`
      INSERT INTO rubric_versions (tenant_id, rubric_id, version, criteria, points_possible)
      SELECT tenant_id, id, 1, ${CRITERIA}::jsonb, 2 FROM rubrics WHERE tenant_id = ${t.id}::uuid`);
    await analyze(db, "rubrics", "rubric_versions");
    return { courseId };
  },
  queries: [
    ...sortQueries(ListRubricsQuery),
    { name: "search rare", query: "search=quixotic", rare: true, filtered: true },
    { name: "search common", query: "search=rubric", filtered: true },
    { name: "status rare", query: "status=archived", rare: true, filtered: true, counter: true },
    { name: "status common", query: "status=active", filtered: true, counter: true },
    { name: "scope rare", query: "scope=course", rare: true, filtered: true, counter: true },
    { name: "scope common", query: "scope=institution", filtered: true, counter: true },
    { name: "courseId (rare)", query: "courseId={courseId}", rare: true, filtered: true },
  ],
};

/** One rubric with `size` assessments of one student (targets need no rows: the id is not a foreign key). */
export const rubricAssessmentsList: ListFixture = {
  name: "rubric assessments",
  path: "/api/institution/rubrics/:id/assessments",
  scopes: ["rubrics:read"],
  tables: ["rubric_assessments"],
  async seed(db, t, size) {
    const { courseId } = await insertCourseTree(db, t);
    await insertUsers(db, t, 1);
    const id = await insertedId(
      db,
      sql`INSERT INTO rubrics (tenant_id, title) VALUES (${t.id}::uuid, 'Rubric') RETURNING id`,
    );
    await db.execute(sql`
      INSERT INTO rubric_versions (tenant_id, rubric_id, version, criteria, points_possible)
      VALUES (${t.id}::uuid, ${id}::uuid, 1, ${CRITERIA}::jsonb, 2)`);
    await db.execute(sql`
      INSERT INTO rubric_assessments (tenant_id, rubric_id, rubric_version, target_type, target_id, course_id,
                                      user_id, assessed_by, type, criterion_scores, total_points, created_at)
      SELECT ${t.id}::uuid, ${id}::uuid, 1, 'quiz_attempt', gen_random_uuid(), ${courseId}::uuid, u.id,
             '{"type": "system", "id": null}'::jsonb, 'grading',
             '[{"criterionId": "00000000-0000-4000-8000-000000000001", "ratingId": null, "points": 2, "comment": null}]'::jsonb,
             2, ${AT}
      FROM generate_series(1, ${size}) AS i
      CROSS JOIN (SELECT id FROM users WHERE tenant_id = ${t.id}::uuid AND role = 'student' LIMIT 1) u`);
    await analyze(db, "rubric_assessments");
    return { id };
  },
  queries: sortQueries(ListAssessmentsQuery),
};

export const RUBRICS: ListFixture[] = [rubricsList, rubricAssessmentsList];
