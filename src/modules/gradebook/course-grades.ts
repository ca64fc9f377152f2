import { sql } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import { queryRows } from "../../db/rows.js";
import {
  courseGrades,
  enrollments,
  gradeCategories,
  gradeItems,
  grades,
  users,
} from "../../db/schema/index.js";
import { type Actor, eventActorOf, subjectOf } from "../events/actor.js";
import { type EventInput, emitEvents } from "../events/emit.js";
import {
  type ComputeCategory,
  type ComputeGrade,
  type ComputeItem,
  type CourseScores,
  computeCourseScores,
} from "./compute.js";
import type { GradeStatus } from "./item-schemas.js";
import { gradingScale, letterOf, num, type Scale, uuidArray } from "./sql-util.js";

/** One row of the computation's read, as JSON: numbers may come back as numbers or strings. */
type Json = Record<string, unknown>;

/**
 * What a recompute reads, in one statement (each part bounded: MAX_ITEMS, MAX_CATEGORIES, the students named): the
 * course's items and categories, the students' grades, their stored course grades and their current enrollments.
 * One round trip instead of five: a single grade write is a few milliseconds, most of them round trips.
 */
async function readForRecompute(
  tx: Executor,
  tenantId: string,
  courseId: string,
  userIds: readonly string[],
) {
  const ids = uuidArray(userIds);
  const [row] = await queryRows<{
    items: Json[];
    categories: Json[];
    grades: Json[];
    stored: Json[];
    enrolled: Json[];
  }>(
    tx,
    sql`SELECT
      (SELECT coalesce(json_agg(json_build_object('id', id, 'category_id', category_id, 'max_points', max_points,
         'position', position, 'excluded_from_final', excluded_from_final,
         'visible_to_students', visible_to_students)), '[]')
       FROM ${gradeItems} WHERE tenant_id = ${tenantId} AND course_id = ${courseId}) AS items,
      (SELECT coalesce(json_agg(json_build_object('id', id, 'weight', weight, 'drop_lowest', drop_lowest)), '[]')
       FROM ${gradeCategories} WHERE tenant_id = ${tenantId} AND course_id = ${courseId}) AS categories,
      (SELECT coalesce(json_agg(json_build_object('user_id', user_id, 'grade_item_id', grade_item_id,
         'score', score, 'override_score', override_score, 'status', status, 'posted_at', posted_at)), '[]')
       FROM ${grades} WHERE tenant_id = ${tenantId} AND course_id = ${courseId} AND user_id = ANY(${ids})) AS grades,
      (SELECT coalesce(json_agg(json_build_object('user_id', user_id, 'enrollment_id', enrollment_id,
         'current_score', current_score, 'final_score', final_score,
         'unposted_current_score', unposted_current_score, 'unposted_final_score', unposted_final_score)), '[]')
       FROM ${courseGrades}
       WHERE tenant_id = ${tenantId} AND course_id = ${courseId} AND user_id = ANY(${ids})) AS stored,
      (SELECT coalesce(json_agg(json_build_object('id', id, 'user_id', user_id)), '[]')
       FROM ${enrollments} WHERE tenant_id = ${tenantId} AND course_id = ${courseId} AND status <> 'dropped'
         AND user_id = ANY(${ids})) AS enrolled`,
  );
  const parts = row as {
    items: Json[];
    categories: Json[];
    grades: Json[];
    stored: Json[];
    enrolled: Json[];
  };
  const items: ComputeItem[] = parts.items.map((r) => ({
    id: r.id as string,
    categoryId: (r.category_id as string | null) ?? null,
    maxPoints: num(r.max_points) as number,
    position: r.position as number,
    excludedFromFinal: r.excluded_from_final as boolean,
    visibleToStudents: r.visible_to_students as boolean,
  }));
  const categories: ComputeCategory[] = parts.categories.map((r) => ({
    id: r.id as string,
    weight: num(r.weight),
    dropLowest: r.drop_lowest as number,
  }));
  return {
    items,
    categories,
    gradeRows: parts.grades,
    previousRows: parts.stored,
    enrollmentRows: parts.enrolled,
  };
}

type Stored = CourseScores & { enrollmentId: string | null };

const SAME = (a: CourseScores, b: CourseScores) =>
  a.currentScore === b.currentScore &&
  a.finalScore === b.finalScore &&
  a.unpostedCurrentScore === b.unpostedCurrentScore &&
  a.unpostedFinalScore === b.unpostedFinalScore;

/** Students a recompute of the whole course takes at a time. */
const ALL_CHUNK = 500;

/**
 * Recomputes the course grade of these students (or of every student with a grade or a course grade in the
 * course) inside the caller's transaction, which holds the course's lock: a fixed number of statements whatever
 * their number (the course's items and categories, the students' grades, their stored course grades and current
 * enrollments, one upsert, and the events). Emits `course_grade_changed` for each student whose posted current or
 * final score moved, or adds it to `effects` for a caller that emits its own events with them in one statement.
 */
export async function recomputeCourseGrades(
  tx: Executor,
  tenantId: string,
  courseId: string,
  who: readonly string[] | "all",
  actor: Actor,
  effects?: GradeEffects,
): Promise<void> {
  if (who !== "all") return recomputeFor(tx, tenantId, courseId, [...new Set(who)], actor, effects);
  const everyone = (
    await queryRows<{ user_id: string }>(
      tx,
      sql`SELECT user_id FROM ${grades} WHERE tenant_id = ${tenantId} AND course_id = ${courseId}
          UNION SELECT user_id FROM ${courseGrades} WHERE tenant_id = ${tenantId} AND course_id = ${courseId}`,
    )
  ).map((r) => r.user_id);
  // A change to the course's structure moves everyone: a bounded slice of students at a time.
  for (let i = 0; i < everyone.length; i += ALL_CHUNK)
    await recomputeFor(tx, tenantId, courseId, everyone.slice(i, i + ALL_CHUNK), actor, effects);
}

async function recomputeFor(
  tx: Executor,
  tenantId: string,
  courseId: string,
  userIds: readonly string[],
  actor: Actor,
  effects: GradeEffects | undefined,
): Promise<void> {
  if (userIds.length === 0) return;
  const { items, categories, gradeRows, previousRows, enrollmentRows } = await readForRecompute(
    tx,
    tenantId,
    courseId,
    userIds,
  );
  const byUser = new Map<string, ComputeGrade[]>();
  for (const r of gradeRows) {
    const list = byUser.get(r.user_id as string) ?? [];
    list.push({
      gradeItemId: r.grade_item_id as string,
      score: num(r.score),
      overrideScore: num(r.override_score),
      status: r.status as GradeStatus,
      postedAt: (r.posted_at as string | null) ?? null,
    });
    byUser.set(r.user_id as string, list);
  }
  const previous = new Map<string, Stored>(
    previousRows.map((r) => [
      r.user_id as string,
      {
        enrollmentId: (r.enrollment_id as string | null) ?? null,
        currentScore: num(r.current_score),
        finalScore: num(r.final_score),
        unpostedCurrentScore: num(r.unposted_current_score),
        unpostedFinalScore: num(r.unposted_final_score),
      },
    ]),
  );
  const enrollmentOf = new Map(enrollmentRows.map((r) => [r.user_id as string, r.id as string]));

  const changed: (Stored & { userId: string; before: Stored | undefined })[] = [];
  for (const userId of userIds) {
    const scores = computeCourseScores(items, categories, byUser.get(userId) ?? []);
    const before = previous.get(userId);
    const enrollmentId = enrollmentOf.get(userId) ?? before?.enrollmentId ?? null;
    if (before !== undefined && SAME(before, scores) && before.enrollmentId === enrollmentId) continue;
    changed.push({ ...scores, enrollmentId, userId, before });
  }
  if (changed.length === 0) return;
  const payload = JSON.stringify(
    changed.map((c) => ({
      user_id: c.userId,
      enrollment_id: c.enrollmentId,
      current_score: c.currentScore,
      final_score: c.finalScore,
      unposted_current_score: c.unpostedCurrentScore,
      unposted_final_score: c.unpostedFinalScore,
    })),
  );
  await tx.execute(sql`
    INSERT INTO ${courseGrades} AS g (tenant_id, course_id, user_id, enrollment_id, current_score, final_score,
      unposted_current_score, unposted_final_score, updated_at)
    SELECT ${tenantId}, ${courseId}, x.user_id, x.enrollment_id, x.current_score, x.final_score,
           x.unposted_current_score, x.unposted_final_score, now()
    FROM jsonb_to_recordset(${payload}::jsonb) AS x(user_id uuid, enrollment_id uuid, current_score numeric,
      final_score numeric, unposted_current_score numeric, unposted_final_score numeric)
    ON CONFLICT (tenant_id, course_id, user_id) DO UPDATE SET enrollment_id = EXCLUDED.enrollment_id,
      current_score = EXCLUDED.current_score, final_score = EXCLUDED.final_score,
      unposted_current_score = EXCLUDED.unposted_current_score,
      unposted_final_score = EXCLUDED.unposted_final_score, updated_at = now()`);

  const visible = changed.filter(
    (c) =>
      (c.before?.currentScore ?? null) !== c.currentScore || (c.before?.finalScore ?? null) !== c.finalScore,
  );
  if (visible.length === 0) return;
  const ids = visible.map((c) => c.userId);
  const [scale, subjects] = await Promise.all([
    effects?.scale ?? gradingScale(tx, tenantId),
    studentsById(tx, tenantId, ids, effects?.students),
  ]);
  const eventActor = eventActorOf(actor);
  const events: EventInput[] = visible.map((c): EventInput => {
    const user = subjects.get(c.userId);
    return {
      type: "course_grade_changed",
      data: {
        courseId,
        userId: c.userId,
        enrollmentId: c.enrollmentId,
        currentScore: c.currentScore,
        finalScore: c.finalScore,
        unpostedCurrentScore: c.unpostedCurrentScore,
        unpostedFinalScore: c.unpostedFinalScore,
        letter: letterOf(scale, c.currentScore),
        finalLetter: letterOf(scale, c.finalScore),
        previousCurrentScore: c.before?.currentScore ?? null,
        previousFinalScore: c.before?.finalScore ?? null,
      },
      actor: eventActor,
      subject: user === undefined ? null : subjectOf(user),
    };
  });
  if (effects === undefined) await emitEvents(tx, tenantId, events);
  else effects.events.push(...events);
}

export interface StudentBrief {
  id: string;
  name: string;
  email: string;
  role: string;
}

/** The users, by id, as events name them (`{{user.*}}`): one statement. */
export async function studentsById(
  tx: Executor,
  tenantId: string,
  ids: readonly string[],
  known: Map<string, StudentBrief> = new Map(),
): Promise<Map<string, StudentBrief>> {
  const missing = [...new Set(ids)].filter((id) => !known.has(id));
  if (missing.length === 0) return known;
  const rows = await queryRows<StudentBrief>(
    tx,
    sql`SELECT id, name, email, role FROM ${users}
        WHERE tenant_id = ${tenantId} AND id = ANY(${uuidArray(missing)})`,
  );
  for (const r of rows) known.set(r.id, r);
  return known;
}

/**
 * What one grade write gathers for its events (the grades', then the course grades' they caused), written by the
 * caller in one `emitEvents` at the end, and what both read once: the grading scale and the students.
 */
export interface GradeEffects {
  events: EventInput[];
  scale: Scale;
  students: Map<string, StudentBrief>;
}
