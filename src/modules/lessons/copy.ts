import { randomUUID } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import { lessons, quizzes } from "../../db/schema/index.js";

/**
 * Copies a course's lessons into the copy's modules (`moduleMap`: old module id → new), and the quiz settings of
 * quiz lessons with them, in two set-based statements. New lesson ids are chosen here so the quiz copy can find
 * its lesson. Returns how many lessons were copied.
 */
export async function copyLessons(
  db: Executor,
  tenantId: string,
  fromCourseId: string,
  toCourseId: string,
  moduleMap: ReadonlyMap<string, string>,
): Promise<number> {
  const old = await db
    .select({ id: lessons.id })
    .from(lessons)
    .where(and(eq(lessons.tenantId, tenantId), eq(lessons.courseId, fromCourseId)));
  if (old.length === 0) return 0;
  const lessonPairs = old.map((r) => ({ old_id: r.id, new_id: randomUUID() }));
  const modulePairs = [...moduleMap].map(([oldId, newId]) => ({ old_id: oldId, new_id: newId }));
  await db.execute(sql`
    INSERT INTO ${lessons} (tenant_id, id, course_id, module_id, title, type, content, position, status,
      is_preview, duration_seconds, required_for_completion, completion_criteria, unlock_at, due_at)
    SELECT l.tenant_id, lm.new_id, ${toCourseId}, mm.new_id, l.title, l.type, l.content, l.position, l.status,
      l.is_preview, l.duration_seconds, l.required_for_completion, l.completion_criteria, l.unlock_at, l.due_at
    FROM ${lessons} l
    JOIN jsonb_to_recordset(${JSON.stringify(lessonPairs)}::jsonb) AS lm(old_id uuid, new_id uuid) ON lm.old_id = l.id
    JOIN jsonb_to_recordset(${JSON.stringify(modulePairs)}::jsonb) AS mm(old_id uuid, new_id uuid)
      ON mm.old_id = l.module_id
    WHERE l.tenant_id = ${tenantId} AND l.course_id = ${fromCourseId}`);
  await db.execute(sql`
    INSERT INTO ${quizzes} (tenant_id, lesson_id, course_id, instructions, time_limit_seconds, allowed_attempts,
      scoring_policy, pass_percent, shuffle_questions, show_correct_answers, sections)
    SELECT q.tenant_id, lm.new_id, ${toCourseId}, q.instructions, q.time_limit_seconds, q.allowed_attempts,
      q.scoring_policy, q.pass_percent, q.shuffle_questions, q.show_correct_answers, q.sections
    FROM ${quizzes} q
    JOIN jsonb_to_recordset(${JSON.stringify(lessonPairs)}::jsonb) AS lm(old_id uuid, new_id uuid) ON lm.old_id = q.lesson_id
    WHERE q.tenant_id = ${tenantId}`);
  return old.length;
}
