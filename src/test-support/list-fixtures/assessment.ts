import { sql } from "drizzle-orm";
import { ListQuestionsQuery } from "../../modules/question-banks/question-schemas.js";
import { ListBanksQuery } from "../../modules/question-banks/schemas.js";
import { ListAttemptsQuery } from "../../modules/quizzes/attempt-schemas.js";
import { ListQuizzesQuery } from "../../modules/quizzes/schemas.js";
import {
  AT,
  analyze,
  insertCourseTree,
  insertedId,
  insertUsers,
  type ListFixture,
  rare,
  rows,
  sortQueries,
} from "./types.js";

/** Quizzes and their attempts, question banks and their questions. */

/** `size` quizzes, each on a lesson of its own, in one course. */
export const quizzes: ListFixture = {
  name: "quizzes",
  path: "/api/institution/quizzes",
  scopes: ["courses:read"],
  tables: ["quizzes"],
  async seed(db, t, size) {
    const { courseId, moduleId, lessonId } = await insertCourseTree(db, t);
    await db.execute(sql`
      INSERT INTO lessons (tenant_id, course_id, module_id, title, type, content, position, status)
      SELECT ${t.id}::uuid, ${courseId}::uuid, ${moduleId}::uuid, 'Quiz ' || i, 'quiz', '{}'::jsonb, i + 1,
             'published'
      FROM generate_series(1, ${size} - 1) AS i`);
    await db.execute(sql`
      INSERT INTO quizzes (tenant_id, lesson_id, course_id, created_at, updated_at)
      SELECT ${t.id}::uuid, l.id, l.course_id, timestamptz '2024-01-01' + l.position * interval '20 seconds',
             timestamptz '2024-01-01' + l.position * interval '20 seconds'
      FROM lessons l WHERE l.tenant_id = ${t.id}::uuid`);
    await analyze(db, "lessons", "quizzes");
    return { courseId, lessonId };
  },
  queries: [
    ...sortQueries(ListQuizzesQuery),
    { name: "lessonId (one)", query: "lessonId={lessonId}", rare: true, filtered: true },
    { name: "courseId (all)", query: "courseId={courseId}", filtered: true },
  ],
};

/** One quiz with `size` attempts: `size / 5` students, five attempts each. */
export const attempts: ListFixture = {
  name: "quiz attempts",
  path: "/api/institution/quizzes/:id/attempts",
  scopes: ["grades:read"],
  tables: ["quiz_attempts"],
  async seed(db, t, size) {
    const { courseId, lessonId } = await insertCourseTree(db, t);
    const quizId = await insertedId(
      db,
      sql`INSERT INTO quizzes (tenant_id, lesson_id, course_id) VALUES (${t.id}::uuid, ${lessonId}::uuid,
          ${courseId}::uuid) RETURNING id`,
    );
    await insertUsers(db, t, Math.ceil(size / 5));
    await db.execute(sql`
      INSERT INTO quiz_attempts (tenant_id, quiz_id, user_id, attempt_number, status, score, max_score, percent,
                                 submitted_at, created_at)
      SELECT ${t.id}::uuid, ${quizId}::uuid, u.id, n,
             CASE WHEN u.name LIKE 'Quixotic%' THEN 'in_progress' ELSE 'graded' END,
             (n * 7) % 10, 10, ((n * 7) % 10) * 10, u.created_at, u.created_at + n * interval '1 second'
      FROM users u CROSS JOIN generate_series(1, 5) AS n
      WHERE u.tenant_id = ${t.id}::uuid AND u.role = 'student'`);
    const [one] = await rows<{ user_id: string }>(
      db,
      sql`SELECT user_id FROM quiz_attempts WHERE tenant_id = ${t.id}::uuid LIMIT 1`,
    );
    await analyze(db, "users", "quiz_attempts");
    return { id: quizId, userId: one?.user_id ?? "" };
  },
  queries: [
    ...sortQueries(ListAttemptsQuery),
    { name: "userId (five)", query: "userId={userId}", rare: true, filtered: true },
    { name: "status rare", query: "status=in_progress", rare: true, filtered: true, counter: true },
    { name: "status common", query: "status=graded", filtered: true, counter: true },
  ],
};

export const banks: ListFixture = {
  name: "question banks",
  path: "/api/institution/question-banks",
  scopes: ["question-banks:read"],
  tables: ["question_banks"],
  async seed(db, t, size) {
    const { courseId } = await insertCourseTree(db, t);
    await db.execute(sql`
      INSERT INTO question_banks (tenant_id, title, course_id, status, created_at, updated_at)
      SELECT ${t.id}::uuid, CASE WHEN ${rare(size)} THEN 'Quixotic Bank ' || i ELSE 'Bank ' || i END,
             CASE WHEN ${rare(size)} THEN ${courseId}::uuid END,
             CASE WHEN ${rare(size)} THEN 'archived' ELSE 'active' END, ${AT}, ${AT}
      FROM generate_series(1, ${size}) AS i`);
    await analyze(db, "question_banks");
    return { courseId };
  },
  queries: [
    ...sortQueries(ListBanksQuery),
    { name: "search rare", query: "search=quixotic", rare: true, filtered: true },
    { name: "search common", query: "search=bank", filtered: true },
    { name: "status rare", query: "status=archived", rare: true, filtered: true },
    { name: "status common", query: "status=active", filtered: true },
    { name: "courseId (rare)", query: "courseId={courseId}", rare: true, filtered: true },
  ],
};

/** One bank with `size` essay questions (an essay has no answer key to build). */
export const questions: ListFixture = {
  name: "questions",
  path: "/api/institution/question-banks/:id/questions",
  scopes: ["question-banks:read"],
  tables: ["questions"],
  async seed(db, t, size) {
    const bankId = await insertedId(
      db,
      sql`INSERT INTO question_banks (tenant_id, title) VALUES (${t.id}::uuid, 'Bank') RETURNING id`,
    );
    await db.execute(sql`
      INSERT INTO questions (tenant_id, bank_id, type, stem, content, difficulty, tags, status, created_at,
                             updated_at)
      SELECT ${t.id}::uuid, ${bankId}::uuid, 'essay',
             CASE WHEN ${rare(size)} THEN 'Quixotic question ' || i ELSE 'Question ' || i END, '{}'::jsonb,
             CASE WHEN ${rare(size)} THEN 'hard' ELSE 'easy' END,
             CASE WHEN ${rare(size)} THEN ARRAY['rare'] ELSE ARRAY['common'] END,
             CASE WHEN ${rare(size)} THEN 'retired' ELSE 'active' END, ${AT}, ${AT}
      FROM generate_series(1, ${size}) AS i`);
    await analyze(db, "questions");
    return { id: bankId };
  },
  queries: [
    ...sortQueries(ListQuestionsQuery),
    { name: "search rare", query: "search=quixotic", rare: true, filtered: true },
    { name: "search common", query: "search=question", filtered: true },
    { name: "difficulty rare", query: "difficulty=hard", rare: true, filtered: true },
    { name: "status common", query: "status=active", filtered: true, counter: true },
    { name: "tag rare", query: "tag=rare", rare: true, filtered: true, counter: true },
    { name: "tag common", query: "tag=common", filtered: true, counter: true },
    { name: "type common", query: "type=essay", filtered: true, counter: true },
  ],
};

export const ASSESSMENT: ListFixture[] = [quizzes, attempts, banks, questions];
