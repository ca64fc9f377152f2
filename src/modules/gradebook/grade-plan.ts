import { AppError, type DetailKey } from "../../platform/errors/app-error.js";
import { effectiveScore, round2 } from "./compute.js";
import { EXTRA_CREDIT } from "./grade-schemas.js";
import type { GradeSource, GradeStatus, SourceType } from "./item-schemas.js";

/**
 * What one grade write does, worked out before any statement is sent: the checks a single PUT and each bulk
 * item share, and the grade's next state. Pure: grade-write.ts reads what it needs and applies the result.
 */
export interface GradeWrite {
  index: number;
  gradeItemId: string;
  userId: string;
  score?: number | null;
  overrideScore?: number | null;
  status?: GradeStatus;
  feedback?: string | null;
}

export interface PlanItem {
  id: string;
  title: string;
  maxPoints: number;
  passPercent: number | null;
  postPolicy: "automatic" | "manual";
  sourceType: SourceType;
}

/** A grade's state: what the log and the events compare. */
export interface GradeState {
  id: string | null;
  enrollmentId: string | null;
  score: number | null;
  overrideScore: number | null;
  status: GradeStatus;
  feedback: string | null;
  gradedBy: unknown;
  gradedAt: string | null;
  postedAt: string | null;
  source: GradeSource;
}

export interface Planned {
  index: number;
  item: PlanItem;
  userId: string;
  before: GradeState | undefined;
  after: GradeState;
  /** Score, override or status moved: the log gets a row, `gradedBy` and `gradedAt` follow. */
  graded: boolean;
  /** Anything stored moved (feedback included). */
  changed: boolean;
}

const fail = (details: DetailKey[]) => new AppError("validation_failed", { details });

function scoreDetails(write: GradeWrite, item: PlanItem): DetailKey[] {
  const max = round2(item.maxPoints * EXTRA_CREDIT);
  const details: DetailKey[] = [];
  for (const field of ["score", "overrideScore"] as const) {
    const value = write[field];
    if (value !== undefined && value !== null && value > max)
      details.push({ field, key: "field.score_above_max", params: { max } });
  }
  return details;
}

/**
 * The next state of one grade, or the error the item fails with. `requireGrade`: the bulk route asks each item
 * for a score, an override or a status (a PUT may change the feedback alone).
 */
export function planWrite(
  write: GradeWrite,
  context: {
    item: PlanItem | undefined;
    enrollmentId: string | undefined;
    before: GradeState | undefined;
    source: GradeSource;
    gradedBy: unknown;
    now: string;
    requireGrade: boolean;
  },
): Planned | AppError {
  const { item, before } = context;
  if (item === undefined)
    return fail([
      { field: "gradeItemId", key: "field.unknown_grade_item", params: { id: write.gradeItemId } },
    ]);
  if (context.enrollmentId === undefined)
    return fail([{ field: "userId", key: "field.not_course_student", params: { id: write.userId } }]);
  if (
    context.requireGrade &&
    write.score === undefined &&
    write.overrideScore === undefined &&
    write.status === undefined
  )
    return fail([{ field: "score", key: "field.score_or_status" }]);
  const details = scoreDetails(write, item);
  if (details.length > 0) return fail(details);

  // Stored with 2 decimals (numeric(10, 2)): compared as stored.
  const given = (v: number | null | undefined) => (v === undefined || v === null ? v : round2(v));
  const score = write.score !== undefined ? (given(write.score) as number | null) : (before?.score ?? null);
  const overrideScore =
    write.overrideScore !== undefined
      ? (given(write.overrideScore) as number | null)
      : (before?.overrideScore ?? null);
  const scored = (write.score ?? write.overrideScore ?? null) !== null;
  const status: GradeStatus =
    write.status ??
    (scored ? (before?.status === "late" ? "late" : "graded") : (before?.status ?? "pending"));
  const feedback = write.feedback !== undefined ? write.feedback : (before?.feedback ?? null);
  const graded =
    before === undefined ||
    before.score !== score ||
    before.overrideScore !== overrideScore ||
    before.status !== status;
  const autoPost = item.postPolicy === "automatic" && status !== "pending";
  const postedAt = before?.postedAt ?? (autoPost ? context.now : null);
  const after: GradeState = {
    id: before?.id ?? null,
    enrollmentId: context.enrollmentId,
    score,
    overrideScore,
    status,
    feedback,
    gradedBy: graded ? context.gradedBy : (before?.gradedBy ?? null),
    gradedAt: graded ? context.now : (before?.gradedAt ?? null),
    postedAt,
    source: graded ? context.source : (before?.source ?? context.source),
  };
  const changed =
    graded ||
    before === undefined ||
    before.feedback !== feedback ||
    before.postedAt !== postedAt ||
    before.enrollmentId !== after.enrollmentId;
  return { index: write.index, item, userId: write.userId, before, after, graded, changed };
}

/** The score an event reports: the effective score, 0 for `missing` without one; none for the others. */
export function reportedScore(state: GradeState): number | null {
  const effective = effectiveScore(state);
  if (effective !== null && state.status !== "pending" && state.status !== "excused") return effective;
  return state.status === "missing" ? 0 : null;
}
