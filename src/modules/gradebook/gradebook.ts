import { and, asc, eq, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import { type Bindable, runPageQuery } from "../../db/page-query.js";
import { queryRows } from "../../db/rows.js";
import { toIso } from "../../db/schema/columns.js";
import { courseGrades, enrollments, grades, tenantCounters, users } from "../../db/schema/index.js";
import type { Principal } from "../../platform/auth/types.js";
import { cappedPageEnvelope, exactTotal } from "../../platform/pagination/capped.js";
import { pageWindow } from "../../platform/pagination/pagination.js";
import { ENROLLMENT_STATUSES } from "../enrollments/schemas.js";
import { effectiveScore } from "./compute.js";
import type { CourseGradeRecord, GradebookRowRecord, GradeCellRecord } from "./gradebook-schemas.js";
import { readableCourse } from "./guard.js";
import type { GradeStatus } from "./item-schemas.js";
import { itemsOfCourse } from "./items.js";
import { gradingScale, letterOf, num, type Scale, uuidArray } from "./sql-util.js";

const rowColumns = {
  enrollmentId: enrollments.id,
  userId: enrollments.userId,
  enrollmentStatus: enrollments.status,
};
type Enrolled = { enrollmentId: string; userId: string; enrollmentStatus: string };
type Row = Enrolled & {
  name: string;
  email: string;
  currentScore: number | null;
  finalScore: number | null;
  unpostedCurrentScore: number | null;
  unpostedFinalScore: number | null;
};

const CURRENT = ENROLLMENT_STATUSES.filter((s) => s !== "dropped");

/**
 * The gradebook's rows: the course's student enrollments that are not dropped, oldest first. One table, so the
 * page walks enrollments_course_created_idx in order (joined to users and course grades, a generic plan sorted
 * the whole course); the page's names and course grades are read by id afterwards.
 */
function rowsQuery(db: Executor, tenantId: Bindable, courseId: Bindable, userId?: Bindable) {
  return db
    .select(rowColumns)
    .from(enrollments)
    .where(
      and(
        eq(enrollments.tenantId, tenantId),
        eq(enrollments.courseId, courseId),
        // Literals: the planner knows they hold for nearly every row of a course.
        sql`${enrollments.role} = 'student'`,
        sql`${enrollments.status} <> 'dropped'`,
        userId === undefined ? undefined : eq(enrollments.userId, userId),
      ),
    )
    .orderBy(asc(enrollments.createdAt), asc(enrollments.id));
}

/** The page's students with their names and stored course grades: two statements by id. */
async function withDetails(
  db: Executor,
  tenantId: string,
  courseId: string,
  page: Enrolled[],
): Promise<Row[]> {
  if (page.length === 0) return [];
  const ids = uuidArray(page.map((r) => r.userId));
  const [people, stored] = await Promise.all([
    queryRows<{ id: string; name: string; email: string }>(
      db,
      sql`SELECT id, name, email FROM ${users} WHERE tenant_id = ${tenantId} AND id = ANY(${ids})`,
    ),
    queryRows<Record<string, unknown>>(
      db,
      sql`SELECT user_id, current_score, final_score, unposted_current_score, unposted_final_score
          FROM ${courseGrades} WHERE tenant_id = ${tenantId} AND course_id = ${courseId} AND user_id = ANY(${ids})`,
    ),
  ]);
  const person = new Map(people.map((p) => [p.id, p]));
  const grade = new Map(stored.map((g) => [g.user_id as string, g]));
  return page.map((r) => {
    const g = grade.get(r.userId);
    return {
      ...r,
      name: person.get(r.userId)?.name ?? "",
      email: person.get(r.userId)?.email ?? "",
      currentScore: num(g?.current_score),
      finalScore: num(g?.final_score),
      unpostedCurrentScore: num(g?.unposted_current_score),
      unpostedFinalScore: num(g?.unposted_final_score),
    };
  });
}

/** The course's students, from the `course_id+role+status` counters of every status but `dropped`. */
async function studentTotal(db: Executor, tenantId: string, courseId: string): Promise<number> {
  const names = CURRENT.map((s) => `enrollments:course_id+role+status:${courseId}:student:${s}`);
  const rows = await db
    .select({ n: sql<number>`coalesce(sum(${tenantCounters.value}), 0)::int` })
    .from(tenantCounters)
    .where(
      and(
        eq(tenantCounters.tenantId, tenantId),
        sql`${tenantCounters.counter} = ANY(${`{${names.join(",")}}`}::text[])`,
      ),
    );
  return rows[0]?.n ?? 0;
}

function courseGradeOf(row: Row, scale: Scale, learner: boolean): CourseGradeRecord {
  const unpostedCurrent = learner ? null : row.unpostedCurrentScore;
  const unpostedFinal = learner ? null : row.unpostedFinalScore;
  return {
    currentScore: row.currentScore,
    finalScore: row.finalScore,
    unpostedCurrentScore: unpostedCurrent,
    unpostedFinalScore: unpostedFinal,
    currentLetter: letterOf(scale, row.currentScore),
    finalLetter: letterOf(scale, row.finalScore),
    unpostedCurrentLetter: letterOf(scale, unpostedCurrent),
    unpostedFinalLetter: letterOf(scale, unpostedFinal),
  };
}

/**
 * A page of the course's gradebook: its items as columns, its students as rows with their stored course grade
 * and their grades keyed by item. Four statements whatever the course's size: the items, the page of rows (with
 * the course grades), the total (counters), and the page's grades. A student's session reads its own row, with
 * the items visible to students and its posted grades only.
 */
export async function readGradebook(
  db: Executor,
  tenantId: string,
  principal: Principal,
  courseId: string,
  query: { page?: number; perPage?: number },
) {
  const window = pageWindow(query);
  const reader = await readableCourse(db, tenantId, principal, courseId);
  const learner = reader.kind === "learner";
  const [columns, scale] = await Promise.all([
    itemsOfCourse(db, tenantId, courseId, learner),
    gradingScale(db, tenantId),
  ]);
  let rows: Row[];
  let total: number;
  if (reader.kind === "learner") {
    const own = (await rowsQuery(db, tenantId, courseId, reader.userId)) as Enrolled[];
    total = own.length;
    rows = await withDetails(db, tenantId, courseId, own.slice(window.offset, window.offset + window.limit));
  } else {
    const [page, counted] = await Promise.all([
      runPageQuery(db, "gradebook", tenantId, { courseId }, window, (p, name) =>
        rowsQuery(db, p.tenantId, p.courseId as Bindable)
          .limit(p.limit)
          .offset(p.offset)
          .prepare(name),
      ) as Promise<Enrolled[]>,
      studentTotal(db, tenantId, courseId),
    ]);
    rows = await withDetails(db, tenantId, courseId, page);
    total = counted;
  }
  const visible = new Set(columns.map((c) => c.id));
  const cells = new Map<string, Record<string, GradeCellRecord>>();
  if (rows.length > 0) {
    const gradeRows = await queryRows<Record<string, unknown>>(
      db,
      sql`SELECT id, grade_item_id, user_id, score, override_score, status, graded_at, posted_at FROM ${grades}
          WHERE tenant_id = ${tenantId} AND course_id = ${courseId}
            AND user_id = ANY(${uuidArray(rows.map((r) => r.userId))})`,
    );
    for (const g of gradeRows) {
      const postedAt = isoOrNull(g.posted_at);
      if (learner && (postedAt === null || !visible.has(g.grade_item_id as string))) continue;
      const score = num(g.score);
      const overrideScore = num(g.override_score);
      const byItem = cells.get(g.user_id as string) ?? {};
      byItem[g.grade_item_id as string] = {
        id: g.id as string,
        score,
        overrideScore,
        effectiveScore: effectiveScore({ score, overrideScore }),
        status: g.status as GradeStatus,
        gradedAt: isoOrNull(g.graded_at),
        postedAt,
      };
      cells.set(g.user_id as string, byItem);
    }
  }
  const data: GradebookRowRecord[] = rows.map((r) => ({
    enrollmentId: r.enrollmentId,
    userId: r.userId,
    name: r.name,
    email: r.email,
    enrollmentStatus: r.enrollmentStatus as GradebookRowRecord["enrollmentStatus"],
    courseGrade: courseGradeOf(r, scale, learner),
    grades: cells.get(r.userId) ?? {},
  }));
  return { columns, ...cappedPageEnvelope(data, exactTotal(total), window) };
}

/** A raw statement's timestamp (a Date from `pg`, text from PGlite) as ISO 8601, or null. */
export function isoOrNull(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  return toIso(value as string | Date);
}
