import { and, asc, eq, type SQL, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import { type Bindable, runPageQuery } from "../../db/page-query.js";
import { gradeItems, grades } from "../../db/schema/index.js";
import type { PageWindow } from "../../platform/pagination/pagination.js";
import { effectiveScore, round2 } from "./compute.js";
import type { GradeRecord } from "./grade-schemas.js";
import type { GradeSource, GradeStatus } from "./item-schemas.js";
import { letterOf, type Scale, uuidArray } from "./sql-util.js";

export const gradeColumns = {
  id: grades.id,
  gradeItemId: grades.gradeItemId,
  courseId: grades.courseId,
  userId: grades.userId,
  enrollmentId: grades.enrollmentId,
  score: grades.score,
  overrideScore: grades.overrideScore,
  status: grades.status,
  feedback: grades.feedback,
  gradedBy: grades.gradedBy,
  gradedAt: grades.gradedAt,
  postedAt: grades.postedAt,
  source: grades.source,
  createdAt: grades.createdAt,
  updatedAt: grades.updatedAt,
  maxPoints: gradeItems.maxPoints,
};

export type GradeRow = {
  id: string;
  gradeItemId: string;
  courseId: string;
  userId: string;
  enrollmentId: string | null;
  score: number | null;
  overrideScore: number | null;
  status: GradeStatus;
  feedback: string | null;
  gradedBy: unknown;
  gradedAt: string | null;
  postedAt: string | null;
  source: GradeSource;
  createdAt: string;
  updatedAt: string;
  maxPoints: number;
};

export function toGradeRecord(row: GradeRow, scale: Scale): GradeRecord {
  const { maxPoints, gradedBy, ...rest } = row;
  const effective = effectiveScore(row);
  const percent = effective === null ? null : round2((effective / maxPoints) * 100);
  return {
    ...rest,
    effectiveScore: effective,
    percent,
    letter: letterOf(scale, percent),
    gradedBy: (gradedBy ?? null) as GradeRecord["gradedBy"],
  };
}

const joinItem = and(eq(gradeItems.tenantId, grades.tenantId), eq(gradeItems.id, grades.gradeItemId));

/** The grades with these ids (one statement). */
export async function gradesByIds(
  db: Executor,
  tenantId: string,
  ids: readonly string[],
): Promise<GradeRow[]> {
  if (ids.length === 0) return [];
  return (await db
    .select(gradeColumns)
    .from(grades)
    .innerJoin(gradeItems, joinItem)
    .where(and(eq(grades.tenantId, tenantId), sql`${grades.id} = ANY(${uuidArray(ids)})`))) as GradeRow[];
}

/** One student's grade on one item. */
export async function findGrade(
  db: Executor,
  tenantId: string,
  gradeItemId: string,
  userId: string,
): Promise<GradeRow | undefined> {
  const rows = await db
    .select(gradeColumns)
    .from(grades)
    .innerJoin(gradeItems, joinItem)
    .where(
      and(eq(grades.tenantId, tenantId), eq(grades.gradeItemId, gradeItemId), eq(grades.userId, userId)),
    );
  return rows[0] as GradeRow | undefined;
}

function where(tenantId: Bindable, itemId: Bindable, userId: Bindable | undefined): SQL {
  return and(
    eq(grades.tenantId, tenantId),
    eq(grades.gradeItemId, itemId),
    userId === undefined ? undefined : eq(grades.userId, userId),
  ) as SQL;
}

/** An item's grades, oldest first (grades_item_created_idx); for a student, its own grade only. */
export async function gradesOfItem(
  db: Executor,
  tenantId: string,
  gradeItemId: string,
  filter: { userId?: string; postedOnly?: boolean },
  window: PageWindow,
): Promise<GradeRow[]> {
  const postedOnly = filter.postedOnly === true;
  const list = postedOnly ? "grades_posted" : "grades";
  return runPageQuery(db, list, tenantId, { gradeItemId, userId: filter.userId }, window, (p, name) =>
    db
      .select(gradeColumns)
      .from(grades)
      .innerJoin(gradeItems, joinItem)
      .where(
        and(
          where(p.tenantId, p.gradeItemId as Bindable, p.userId),
          postedOnly ? sql`${grades.postedAt} IS NOT NULL` : undefined,
        ),
      )
      .orderBy(asc(grades.createdAt), asc(grades.id))
      .limit(p.limit)
      .offset(p.offset)
      .prepare(name),
  ) as Promise<GradeRow[]>;
}
