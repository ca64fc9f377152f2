import { sql } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import { readCounter } from "../../db/counters.js";
import { queryRows } from "../../db/rows.js";
import { gradeChanges, gradeItems, grades } from "../../db/schema/index.js";
import type { Principal } from "../../platform/auth/types.js";
import { notFound, validationError } from "../../platform/errors/app-error.js";
import { cappedPageEnvelope, exactTotal } from "../../platform/pagination/capped.js";
import { pageWindow } from "../../platform/pagination/pagination.js";
import type { Actor } from "../events/actor.js";
import { emitEvents } from "../events/emit.js";
import { type GradeEffects, recomputeCourseGrades } from "./course-grades.js";
import { gradeEventsOf } from "./emit-grades.js";
import type { GradeState } from "./grade-plan.js";
import { gradesOfItem, toGradeRecord } from "./grade-repo.js";
import type { BulkGradeInput, GradeInput, GradeRecord, PostGradesInput } from "./grade-schemas.js";
import { gradedByOf, viaOf, type WriteResult, writeGrades } from "./grade-write.js";
import { lockStaffCourse, readableCourse } from "./guard.js";
import type { SourceType } from "./item-schemas.js";
import { findItem } from "./items.js";
import { gradingScale, uuidArray } from "./sql-util.js";

/** An item's grades; a student's session reads its own, posted, on an item visible to students. */
export async function listGrades(
  db: Executor,
  tenantId: string,
  principal: Principal,
  itemId: string,
  query: { page?: number; perPage?: number },
) {
  const window = pageWindow(query);
  const item = await findItem(db, tenantId, itemId);
  if (item === undefined) throw notFound();
  const reader = await readableCourse(db, tenantId, principal, item.courseId);
  const scale = await gradingScale(db, tenantId);
  if (reader.kind === "learner") {
    if (!item.visibleToStudents) throw notFound();
    const rows = await gradesOfItem(
      db,
      tenantId,
      itemId,
      { userId: reader.userId, postedOnly: true },
      window,
    );
    return cappedPageEnvelope(
      rows.map((r) => toGradeRecord(r, scale)),
      exactTotal(await ownCount(db, tenantId, itemId, reader.userId)),
      window,
    );
  }
  const [rows, total] = await Promise.all([
    gradesOfItem(db, tenantId, itemId, {}, window),
    readCounter(db, tenantId, `grades:grade_item_id:${itemId}`),
  ]);
  return cappedPageEnvelope(
    rows.map((r) => toGradeRecord(r, scale)),
    exactTotal(total),
    window,
  );
}

/** Whether the student's own grade on the item is posted (0 or 1: one grade per student and item). */
async function ownCount(db: Executor, tenantId: string, itemId: string, userId: string): Promise<number> {
  const rows = await queryRows<{ n: number }>(
    db,
    sql`SELECT count(*)::int AS n FROM ${grades} WHERE tenant_id = ${tenantId} AND grade_item_id = ${itemId}
        AND user_id = ${userId} AND posted_at IS NOT NULL`,
  );
  return rows[0]?.n ?? 0;
}

/** `PUT /grade-items/:id/grades/:userId`: 404 unless the user is a current student of the item's course. */
export async function putGrade(
  db: Executor,
  tenantId: string,
  actor: Actor,
  itemId: string,
  userId: string,
  input: GradeInput,
): Promise<{ created: boolean; grade: GradeRecord }> {
  return db.transaction(async (tx) => {
    const item = await findItem(tx, tenantId, itemId);
    if (item === undefined) throw notFound();
    await lockStaffCourse(tx, tenantId, actor, item.courseId);
    const [result] = await writeGrades(
      tx,
      tenantId,
      actor,
      item.courseId,
      [{ index: 0, gradeItemId: itemId, userId, ...input }],
      { requireGrade: false },
    );
    const { status, grade, error } = result as WriteResult;
    if (error !== undefined) {
      // The path's user is not a student of this course: as if the grade's address did not exist.
      if (error.details?.[0]?.key === "field.not_course_student") throw notFound();
      throw error;
    }
    return { created: status === "created", grade: grade as GradeRecord };
  });
}

/** `POST /courses/:id/grades/bulk`. */
export async function bulkGrades(
  db: Executor,
  tenantId: string,
  actor: Actor,
  courseId: string,
  items: readonly BulkGradeInput[],
): Promise<WriteResult[]> {
  return db.transaction(async (tx) => {
    await lockStaffCourse(tx, tenantId, actor, courseId);
    return writeGrades(
      tx,
      tenantId,
      actor,
      courseId,
      items.map((item, index) => ({
        ...item,
        index,
        gradeItemId: item.gradeItemId.toLowerCase(),
        userId: item.userId.toLowerCase(),
      })),
      { requireGrade: true },
    );
  });
}

/**
 * Posts every hidden grade of these items of the course (400 naming an id that is not one of the course's
 * items): one update, one log insert, the course grades of the students concerned, and the events.
 */
export async function postGrades(
  db: Executor,
  tenantId: string,
  actor: Actor,
  courseId: string,
  input: PostGradesInput,
): Promise<{ posted: number; postedAt: string }> {
  const ids = [...new Set(input.gradeItemIds.map((id) => id.toLowerCase()))];
  return db.transaction(async (tx) => {
    await lockStaffCourse(tx, tenantId, actor, courseId);
    const items = await queryRows<Record<string, unknown>>(
      tx,
      sql`SELECT id, title, max_points, pass_percent, post_policy, source_type FROM ${gradeItems}
          WHERE tenant_id = ${tenantId} AND course_id = ${courseId} AND id = ANY(${uuidArray(ids)})`,
    );
    const found = new Map(items.map((i) => [i.id as string, i]));
    const missing = ids.findIndex((id) => !found.has(id));
    if (missing >= 0) {
      throw validationError(`gradeItemIds[${missing}]`, "field.unknown_grade_item", {
        id: ids[missing] as string,
      });
    }
    const postedAt = new Date().toISOString();
    const rows = await queryRows<Record<string, unknown>>(
      tx,
      sql`UPDATE ${grades} SET posted_at = ${postedAt}, updated_at = now()
          WHERE tenant_id = ${tenantId} AND grade_item_id = ANY(${uuidArray(ids)}) AND posted_at IS NULL
          RETURNING id, grade_item_id, user_id, enrollment_id, score, override_score, status, feedback, source`,
    );
    if (rows.length === 0) return { posted: 0, postedAt };
    const by = gradedByOf(actor);
    await tx.execute(sql`
      INSERT INTO ${gradeChanges} (tenant_id, course_id, grade_item_id, grade_id, user_id, actor_type, actor_id,
        via, score_before, score_after, status_before, status_after, override_before, override_after,
        posted_before, posted_after)
      SELECT tenant_id, course_id, grade_item_id, id, user_id, ${by.type}, ${by.id}::uuid, ${viaOf(actor)}, score,
             score, status, status, override_score, override_score, NULL, posted_at
      FROM ${grades} WHERE tenant_id = ${tenantId} AND id = ANY(${uuidArray(rows.map((r) => r.id as string))})
      ORDER BY grade_item_id, user_id`);
    const users = [...new Set(rows.map((r) => r.user_id as string))];
    const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
    const moves = rows.map((r) => {
      const i = found.get(r.grade_item_id as string) as Record<string, unknown>;
      const state: GradeState = {
        id: r.id as string,
        enrollmentId: (r.enrollment_id as string | null) ?? null,
        score: num(r.score),
        overrideScore: num(r.override_score),
        status: r.status as GradeState["status"],
        feedback: (r.feedback as string | null) ?? null,
        gradedBy: null,
        gradedAt: null,
        postedAt: null,
        source: r.source as GradeState["source"],
      };
      return {
        item: {
          id: i.id as string,
          title: i.title as string,
          maxPoints: Number(i.max_points),
          passPercent: num(i.pass_percent),
          postPolicy: i.post_policy as "automatic" | "manual",
          sourceType: i.source_type as SourceType,
        },
        userId: r.user_id as string,
        before: state,
        after: { ...state, postedAt },
        graded: false,
      };
    });
    const idOf = new Map(rows.map((r) => [`${r.grade_item_id}:${r.user_id}`, r.id as string]));
    // The posted grades' events, then the course grades' they caused, written together.
    const effects: GradeEffects = {
      events: [],
      scale: await gradingScale(tx, tenantId),
      students: new Map(),
    };
    await gradeEventsOf(tx, tenantId, actor, courseId, moves, idOf, effects);
    await recomputeCourseGrades(tx, tenantId, courseId, users, actor, effects);
    if (effects.events.length > 0) await emitEvents(tx, tenantId, effects.events);
    return { posted: rows.length, postedAt };
  });
}
