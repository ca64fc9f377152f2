import { and, eq, sql } from "drizzle-orm";
import { inChunks } from "../../db/chunks.js";
import type { Executor } from "../../db/client.js";
import { queryRows } from "../../db/rows.js";
import { enrollments, gradeChanges, gradeItems, grades } from "../../db/schema/index.js";
import { AppError } from "../../platform/errors/app-error.js";
import { type Actor, eventActorOf } from "../events/actor.js";
import { emitEvents } from "../events/emit.js";
import { type GradeEffects, recomputeCourseGrades } from "./course-grades.js";
import { gradeEventsOf } from "./emit-grades.js";
import { type GradeState, type GradeWrite, type PlanItem, type Planned, planWrite } from "./grade-plan.js";
import { type GradeRow, gradeColumns, gradesByIds, toGradeRecord } from "./grade-repo.js";
import type { BulkGradeStatus, GradeRecord } from "./grade-schemas.js";
import type { GradeSource } from "./item-schemas.js";
import { gradingScale, uuidArray } from "./sql-util.js";

export interface WriteResult {
  index: number;
  status: BulkGradeStatus;
  grade?: GradeRecord;
  error?: AppError;
}

/** Who graded, as a grade stores it, and through what (the change log's `via`). */
export function gradedByOf(actor: Actor): { type: "user" | "api_key" | "system"; id: string | null } {
  const a = eventActorOf(actor);
  return a.type === "user" || a.type === "api_key"
    ? { type: a.type, id: a.id }
    : { type: "system", id: null };
}
export const viaOf = (actor: Actor) =>
  actor.kind === "session" ? "session" : actor.kind === "key" ? "key" : "system";

/** The source a write records: `manual` by hand, `import` through a key, `auto` from the platform. */
export function sourceOf(actor: Actor): GradeSource {
  return actor.kind === "session" ? "manual" : actor.kind === "key" ? "import" : "auto";
}

const pairKey = (itemId: string, userId: string) => `${itemId}:${userId}`;

/**
 * Writes grades of one course, inside the caller's transaction, which holds the course's lock and has checked the
 * actor: a fixed number of statements whatever the number of writes (items, enrollments, current grades; the
 * upsert, the change log and the read back, by chunks of 100 rows; the course grades of the students touched;
 * the events). Each write is created, updated, unchanged or failed with the envelope its PUT would answer; a
 * pair named twice fails the second time.
 */
export async function writeGrades(
  tx: Executor,
  tenantId: string,
  actor: Actor,
  courseId: string,
  writes: readonly GradeWrite[],
  options: { requireGrade: boolean; source?: GradeSource },
): Promise<WriteResult[]> {
  const itemIds = [...new Set(writes.map((w) => w.gradeItemId))];
  const userIds = [...new Set(writes.map((w) => w.userId))];
  const items = new Map(
    (
      await tx
        .select({
          id: gradeItems.id,
          title: gradeItems.title,
          maxPoints: gradeItems.maxPoints,
          passPercent: gradeItems.passPercent,
          postPolicy: gradeItems.postPolicy,
          sourceType: gradeItems.sourceType,
        })
        .from(gradeItems)
        .where(
          and(
            eq(gradeItems.tenantId, tenantId),
            eq(gradeItems.courseId, courseId),
            sql`${gradeItems.id} = ANY(${uuidArray(itemIds)})`,
          ),
        )
    ).map((i) => [i.id, i as PlanItem]),
  );
  const enrolled = new Map(
    (
      await queryRows<{ id: string; user_id: string }>(
        tx,
        sql`SELECT id, user_id FROM ${enrollments} WHERE tenant_id = ${tenantId} AND course_id = ${courseId}
            AND role = 'student' AND status <> 'dropped' AND user_id = ANY(${uuidArray(userIds)})`,
      )
    ).map((r) => [r.user_id, r.id]),
  );
  const existing = new Map(
    (
      (await tx
        .select(gradeColumns)
        .from(grades)
        .innerJoin(
          gradeItems,
          and(eq(gradeItems.tenantId, grades.tenantId), eq(gradeItems.id, grades.gradeItemId)),
        )
        .where(
          and(
            eq(grades.tenantId, tenantId),
            sql`${grades.gradeItemId} = ANY(${uuidArray([...items.keys()])})`,
            sql`${grades.userId} = ANY(${uuidArray(userIds)})`,
          ),
        )) as GradeRow[]
    ).map((g) => [pairKey(g.gradeItemId, g.userId), g as GradeState & GradeRow]),
  );

  const now = new Date().toISOString();
  const results: WriteResult[] = [];
  const planned: Planned[] = [];
  const seen = new Set<string>();
  const context = { source: options.source ?? sourceOf(actor), gradedBy: gradedByOf(actor), now };
  for (const write of writes) {
    const key = pairKey(write.gradeItemId, write.userId);
    const plan = seen.has(key)
      ? duplicate(write)
      : planWrite(write, {
          ...context,
          item: items.get(write.gradeItemId),
          enrollmentId: enrolled.get(write.userId),
          before: existing.get(key),
          requireGrade: options.requireGrade,
        });
    seen.add(key);
    if ("index" in plan) planned.push(plan);
    else results.push({ index: write.index, status: "failed", error: plan });
  }

  const toWrite = planned.filter((p) => p.changed);
  const idOf = new Map<string, string>();
  for (const p of planned) if (p.before?.id) idOf.set(pairKey(p.item.id, p.userId), p.before.id);
  const upserted = await inChunks(toWrite, (chunk) => upsert(tx, tenantId, courseId, chunk));
  for (const r of upserted) idOf.set(pairKey(r.grade_item_id, r.user_id), r.id);
  const logged = toWrite.filter((p) => p.graded || p.before?.postedAt !== p.after.postedAt);
  await inChunks(logged, (chunk) => logChanges(tx, tenantId, courseId, actor, chunk, idOf));

  // Only what the course grade reads moves it: feedback alone does not. The grades' events, then the course
  // grades' they caused, written together.
  const scale = await gradingScale(tx, tenantId);
  const effects: GradeEffects = { events: [], scale, students: new Map() };
  await gradeEventsOf(tx, tenantId, actor, courseId, toWrite, idOf, effects);
  const moved = [...new Set(logged.map((p) => p.userId))];
  await recomputeCourseGrades(tx, tenantId, courseId, moved, actor, effects);
  if (effects.events.length > 0) await emitEvents(tx, tenantId, effects.events);

  const records = new Map(
    (await inChunks([...idOf.values()], (ids) => gradesByIds(tx, tenantId, ids))).map((g) => [
      g.id,
      toGradeRecord(g, scale),
    ]),
  );
  for (const p of planned) {
    const grade = records.get(idOf.get(pairKey(p.item.id, p.userId)) as string);
    const status: BulkGradeStatus = p.before === undefined ? "created" : p.changed ? "updated" : "unchanged";
    results.push({ index: p.index, status, ...(grade ? { grade } : {}) });
  }
  return results.sort((x, y) => x.index - y.index);
}

function duplicate(write: GradeWrite): AppError {
  return new AppError("validation_failed", {
    details: [
      { field: "userId", key: "field.duplicate", params: { value: `${write.gradeItemId}/${write.userId}` } },
    ],
  });
}

async function upsert(tx: Executor, tenantId: string, courseId: string, chunk: Planned[]) {
  const payload = JSON.stringify(
    chunk.map(({ item, userId, after }) => ({
      grade_item_id: item.id,
      user_id: userId,
      enrollment_id: after.enrollmentId,
      score: after.score,
      override_score: after.overrideScore,
      status: after.status,
      feedback: after.feedback,
      graded_by: after.gradedBy,
      graded_at: after.gradedAt,
      posted_at: after.postedAt,
      source: after.source,
    })),
  );
  return queryRows<{ id: string; grade_item_id: string; user_id: string }>(
    tx,
    sql`INSERT INTO ${grades} AS g (tenant_id, course_id, grade_item_id, user_id, enrollment_id, score,
          override_score, status, feedback, graded_by, graded_at, posted_at, source)
        SELECT ${tenantId}, ${courseId}, x.grade_item_id, x.user_id, x.enrollment_id, x.score, x.override_score,
               x.status, x.feedback, x.graded_by, x.graded_at, x.posted_at, x.source
        FROM jsonb_to_recordset(${payload}::jsonb) AS x(grade_item_id uuid, user_id uuid, enrollment_id uuid,
          score numeric, override_score numeric, status text, feedback text, graded_by jsonb,
          graded_at timestamptz, posted_at timestamptz, source text)
        ON CONFLICT (tenant_id, grade_item_id, user_id) DO UPDATE SET enrollment_id = EXCLUDED.enrollment_id,
          score = EXCLUDED.score, override_score = EXCLUDED.override_score, status = EXCLUDED.status,
          feedback = EXCLUDED.feedback, graded_by = EXCLUDED.graded_by, graded_at = EXCLUDED.graded_at,
          posted_at = EXCLUDED.posted_at, source = EXCLUDED.source, updated_at = now()
        RETURNING id, grade_item_id, user_id`,
  );
}

async function logChanges(
  tx: Executor,
  tenantId: string,
  courseId: string,
  actor: Actor,
  chunk: Planned[],
  idOf: Map<string, string>,
): Promise<undefined> {
  const by = gradedByOf(actor);
  const payload = JSON.stringify(
    chunk.map(({ item, userId, before, after }) => ({
      grade_item_id: item.id,
      grade_id: idOf.get(pairKey(item.id, userId)),
      user_id: userId,
      score_before: before?.score ?? null,
      score_after: after.score,
      status_before: before?.status ?? null,
      status_after: after.status,
      override_before: before?.overrideScore ?? null,
      override_after: after.overrideScore,
      posted_before: before?.postedAt ?? null,
      posted_after: after.postedAt,
    })),
  );
  await tx.execute(sql`
    INSERT INTO ${gradeChanges} (tenant_id, course_id, grade_item_id, grade_id, user_id, actor_type, actor_id, via,
      score_before, score_after, status_before, status_after, override_before, override_after, posted_before,
      posted_after)
    SELECT ${tenantId}, ${courseId}, x.grade_item_id, x.grade_id, x.user_id, ${by.type}, ${by.id}::uuid,
           ${viaOf(actor)}, x.score_before, x.score_after, x.status_before, x.status_after, x.override_before,
           x.override_after, x.posted_before, x.posted_after
    FROM jsonb_to_recordset(${payload}::jsonb) AS x(grade_item_id uuid, grade_id uuid, user_id uuid,
      score_before numeric, score_after numeric, status_before text, status_after text, override_before numeric,
      override_after numeric, posted_before timestamptz, posted_after timestamptz)
    ORDER BY x.grade_item_id, x.user_id`);
  return undefined;
}
