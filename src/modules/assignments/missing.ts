import { sql } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import { recordSourceMissing } from "../gradebook/service.js";

/** Students marked per assignment and transaction; an assignment with more is finished by the next passes. */
export const MISSING_BATCH = 1000;
/** Assignments (and assignments with due extensions) taken per pass: each is one transaction. */
export const ASSIGNMENTS_PER_PASS = 50;
const SYSTEM = { kind: "system" } as const;

interface Picked {
  tenant_id: string;
  id: string;
  lesson_id: string;
  course_id: string;
}

async function rows<T>(tx: Executor, query: ReturnType<typeof sql>): Promise<T[]> {
  return ((await tx.execute(query)) as unknown as { rows: T[] }).rows;
}

/**
 * Writes a `missing` submission (attempt 0) for each current student of the course in `students` (a set of
 * enrollments) without a submission, at most `MISSING_BATCH`, and marks them `missing` on the assignment's grade
 * item. Answers the students marked.
 */
async function markStudents(tx: Executor, a: Picked, students: ReturnType<typeof sql>): Promise<number> {
  const marked = await rows<{ user_id: string }>(
    tx,
    sql`INSERT INTO submissions (tenant_id, assignment_id, lesson_id, course_id, user_id, enrollment_id, attempt,
          status)
        SELECT e.tenant_id, ${a.id}::uuid, ${a.lesson_id}::uuid, e.course_id, e.user_id, e.id, 0, 'missing'
        FROM enrollments e
        WHERE e.tenant_id = ${a.tenant_id}::uuid AND e.course_id = ${a.course_id}::uuid AND e.role = 'student'
          AND e.status <> 'dropped' AND ${students}
          AND NOT EXISTS (SELECT 1 FROM submissions s WHERE s.tenant_id = e.tenant_id
                            AND s.lesson_id = ${a.lesson_id}::uuid AND s.user_id = e.user_id)
        LIMIT ${MISSING_BATCH}
        ON CONFLICT (tenant_id, lesson_id, user_id) DO NOTHING
        RETURNING user_id`,
  );
  await recordSourceMissing(tx, a.tenant_id, SYSTEM, {
    courseId: a.course_id,
    sourceType: "assignment",
    sourceId: a.id,
    userIds: marked.map((m) => m.user_id),
  });
  return marked.length;
}

/** One assignment whose due date passed and was not swept; its students without an extension are marked. */
async function sweepDue(db: Executor, now: string): Promise<number | undefined> {
  return db.transaction(async (tx) => {
    const [a] = await rows<Picked>(
      tx,
      sql`SELECT tenant_id, id, lesson_id, course_id FROM assignments
          WHERE due_at IS NOT NULL AND due_at <= ${now}::timestamptz AND missing_swept_at IS NULL
          ORDER BY due_at LIMIT 1 FOR UPDATE SKIP LOCKED`,
    );
    if (a === undefined) return undefined;
    const marked = await markStudents(
      tx,
      a,
      sql`NOT EXISTS (SELECT 1 FROM assignment_extensions x WHERE x.tenant_id = e.tenant_id
            AND x.assignment_id = ${a.id}::uuid AND x.user_id = e.user_id)`,
    );
    if (marked < MISSING_BATCH) {
      await tx.execute(sql`UPDATE assignments SET missing_swept_at = ${now}::timestamptz
        WHERE tenant_id = ${a.tenant_id}::uuid AND id = ${a.id}::uuid`);
    }
    return marked;
  });
}

/** The students of one assignment whose extended due date passed: each is marked, its extension swept. */
async function sweepExtensions(db: Executor, now: string): Promise<number | undefined> {
  return db.transaction(async (tx) => {
    const [due] = await rows<{ tenant_id: string; assignment_id: string }>(
      tx,
      sql`SELECT tenant_id, assignment_id FROM assignment_extensions
          WHERE missing_swept_at IS NULL AND due_at <= ${now}::timestamptz ORDER BY due_at LIMIT 1`,
    );
    if (due === undefined) return undefined;
    // The assignment's lock first, as its routes take it: changes to it and its extensions take turns.
    const [a] = await rows<Picked>(
      tx,
      sql`SELECT tenant_id, id, lesson_id, course_id FROM assignments
          WHERE tenant_id = ${due.tenant_id}::uuid AND id = ${due.assignment_id}::uuid FOR UPDATE SKIP LOCKED`,
    );
    if (a === undefined) return undefined;
    const users = await rows<{ user_id: string }>(
      tx,
      sql`UPDATE assignment_extensions SET missing_swept_at = ${now}::timestamptz
          WHERE (tenant_id, assignment_id, user_id) IN (
            SELECT tenant_id, assignment_id, user_id FROM assignment_extensions
            WHERE tenant_id = ${a.tenant_id}::uuid AND assignment_id = ${a.id}::uuid AND missing_swept_at IS NULL
              AND due_at <= ${now}::timestamptz
            LIMIT ${MISSING_BATCH})
          RETURNING user_id`,
    );
    const ids = `{${users.map((u) => u.user_id).join(",")}}`;
    return markStudents(tx, a, sql`e.user_id = ANY(${ids}::uuid[])`);
  });
}

/**
 * The worker's pass (src/worker/runner.ts): every current student of an assignment's course who has not handed
 * it in by their due date (an extension's, if any) gets a `missing` submission, and a `missing` grade on the
 * assignment's grade item when there is one (a grade already given stays). Set-based and bounded: at most
 * `ASSIGNMENTS_PER_PASS` transactions of at most `MISSING_BATCH` students each. A student enrolled after the
 * sweep is not marked. `now` is the pass's clock (tests give one). Answers the students marked.
 */
export async function markMissingSubmissions(
  db: Executor,
  now: Date = new Date(),
): Promise<{ marked: number }> {
  const at = now.toISOString();
  let marked = 0;
  for (let i = 0; i < ASSIGNMENTS_PER_PASS; i++) {
    const n = await sweepDue(db, at);
    if (n === undefined) break;
    marked += n;
  }
  for (let i = 0; i < ASSIGNMENTS_PER_PASS; i++) {
    const n = await sweepExtensions(db, at);
    if (n === undefined) break;
    marked += n;
  }
  return { marked };
}
