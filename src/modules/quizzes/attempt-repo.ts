import { and, asc, desc, eq, inArray, type SQL, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import { parentValueCounter, readCounter } from "../../db/counters.js";
import { type Bindable, runPageQuery } from "../../db/page-query.js";
import { enrollments, quizAttempts, users } from "../../db/schema/index.js";
import { type CappedTotal, countCapped, exactTotal } from "../../platform/pagination/capped.js";
import type { PageWindow } from "../../platform/pagination/pagination.js";
import type { QuestionContent, QuestionType } from "../question-banks/service.js";
import type { AttemptSort, AttemptStatus } from "./attempt-schemas.js";
import type { ScoredAnswer } from "./scoring.js";

/**
 * A drawn question as the attempt keeps it: the pinned version's content and key, so the attempt is scored and
 * shown the same way whatever later happens to the question or its bank.
 */
export interface DrawnQuestion {
  questionId: string;
  version: number;
  sectionId: string;
  type: QuestionType;
  stem: string;
  content: QuestionContent;
  points: number;
  /** The order shown to the person taking it, where the key's order would give the answer away. */
  display?: { right?: string[]; items?: string[] };
}

export interface AttemptRow {
  id: string;
  quizId: string;
  userId: string;
  enrollmentId: string | null;
  attemptNumber: number;
  status: AttemptStatus;
  startedAt: string;
  submittedAt: string | null;
  timeSpentSeconds: number | null;
  score: number | null;
  maxScore: number | null;
  percent: number | null;
  passed: boolean | null;
  extraTimeSeconds: number;
  endsAt: string | null;
  questions: DrawnQuestion[];
  answers: ScoredAnswer[];
  createdAt: string;
  updatedAt: string;
}

const columns = {
  id: quizAttempts.id,
  quizId: quizAttempts.quizId,
  userId: quizAttempts.userId,
  enrollmentId: quizAttempts.enrollmentId,
  attemptNumber: quizAttempts.attemptNumber,
  status: quizAttempts.status,
  startedAt: quizAttempts.startedAt,
  submittedAt: quizAttempts.submittedAt,
  timeSpentSeconds: quizAttempts.timeSpentSeconds,
  score: quizAttempts.score,
  maxScore: quizAttempts.maxScore,
  percent: quizAttempts.percent,
  passed: quizAttempts.passed,
  extraTimeSeconds: quizAttempts.extraTimeSeconds,
  endsAt: quizAttempts.endsAt,
  questions: quizAttempts.questions,
  answers: quizAttempts.answers,
  createdAt: quizAttempts.createdAt,
  updatedAt: quizAttempts.updatedAt,
};

export interface AttemptFilter {
  userId?: string;
  status?: AttemptStatus;
}

function where(tenantId: Bindable, f: { quiz: Bindable; user?: Bindable; status?: Bindable }): SQL {
  return and(
    eq(quizAttempts.tenantId, tenantId),
    eq(quizAttempts.quizId, f.quiz),
    f.user === undefined ? undefined : eq(quizAttempts.userId, f.user),
    f.status === undefined ? undefined : eq(quizAttempts.status, f.status),
  ) as SQL;
}

const bindings = (quizId: string, filter: AttemptFilter) => ({
  quiz: quizId,
  user: filter.userId,
  status: filter.status,
});

/** Every order ends on the id, so equal values page stably; attempts without a score come last either way. */
const ORDER: Record<AttemptSort, SQL[]> = {
  createdAt: [asc(quizAttempts.createdAt), asc(quizAttempts.id)],
  "-createdAt": [desc(quizAttempts.createdAt), desc(quizAttempts.id)],
  score: [sql`${quizAttempts.score} ASC NULLS LAST`, asc(quizAttempts.id)],
  "-score": [sql`${quizAttempts.score} DESC NULLS LAST`, desc(quizAttempts.id)],
};

export async function listAttempts(
  db: Executor,
  tenantId: string,
  quizId: string,
  filter: AttemptFilter,
  sort: AttemptSort,
  window: PageWindow,
): Promise<AttemptRow[]> {
  const list = `qatt_${sort.replace("-", "d_")}`;
  const rows = await runPageQuery(db, list, tenantId, bindings(quizId, filter), window, (p, name) =>
    db
      .select(columns)
      .from(quizAttempts)
      .where(where(p.tenantId, p as { quiz: Bindable; user?: Bindable; status?: Bindable }))
      .orderBy(...ORDER[sort])
      .limit(p.limit)
      .offset(p.offset)
      .prepare(name),
  );
  return rows as AttemptRow[];
}

/**
 * A quiz's unfiltered total is its counter (exact); a filtered one counts its matches up to the platform's cap,
 * newest first through the quiz's index (a status can hold every attempt of a popular quiz).
 */
export async function countAttempts(
  db: Executor,
  tenantId: string,
  quizId: string,
  filter: AttemptFilter,
): Promise<CappedTotal> {
  if (filter.userId === undefined && filter.status === undefined) {
    return exactTotal(await readCounter(db, tenantId, `quiz_attempts:quiz_id:${quizId}`));
  }
  if (filter.userId === undefined && filter.status !== undefined) {
    const parent = { column: "quiz_id", id: quizId };
    return exactTotal(
      await readCounter(db, tenantId, parentValueCounter("quiz_attempts", parent, "status", filter.status)),
    );
  }
  return countCapped(db, quizAttempts, where(tenantId, bindings(quizId, filter)), ORDER["-createdAt"]);
}

export async function findAttempt(
  db: Executor,
  tenantId: string,
  id: string,
  lock = false,
): Promise<AttemptRow | undefined> {
  const query = db
    .select(columns)
    .from(quizAttempts)
    .where(and(eq(quizAttempts.tenantId, tenantId), eq(quizAttempts.id, id)));
  const rows = await (lock ? query.for("update") : query);
  return rows[0] as AttemptRow | undefined;
}

/** How many attempts the user made at the quiz, the last attempt number, and whether one is still open. */
export async function attemptsOfUser(
  tx: Executor,
  tenantId: string,
  quizId: string,
  userId: string,
): Promise<{ count: number; last: number; open: boolean }> {
  const rows = await tx
    .select({
      count: sql<number>`count(*)::int`,
      last: sql<number>`coalesce(max(${quizAttempts.attemptNumber}), 0)::int`,
      open: sql<boolean>`coalesce(bool_or(${quizAttempts.status} = 'in_progress'), false)`,
    })
    .from(quizAttempts)
    .where(
      and(
        eq(quizAttempts.tenantId, tenantId),
        eq(quizAttempts.quizId, quizId),
        eq(quizAttempts.userId, userId),
      ),
    );
  return rows[0] ?? { count: 0, last: 0, open: false };
}

export async function insertAttempt(
  tx: Executor,
  tenantId: string,
  values: {
    quizId: string;
    userId: string;
    enrollmentId: string;
    attemptNumber: number;
    questions: DrawnQuestion[];
    maxScore: number;
  },
  timeLimitSeconds: number | null,
): Promise<AttemptRow> {
  // `started_at` defaults to the same transaction's now(), so a timed attempt ends exactly its limit after it.
  const endsAt = timeLimitSeconds === null ? null : sql`now() + make_interval(secs => ${timeLimitSeconds})`;
  const rows = await tx
    .insert(quizAttempts)
    .values({ tenantId, ...values, status: "in_progress", endsAt })
    .returning(columns);
  return rows[0] as AttemptRow;
}

export async function updateAttempt(
  tx: Executor,
  tenantId: string,
  id: string,
  changes: {
    status: AttemptStatus;
    answers: ScoredAnswer[];
    score: number;
    maxScore: number;
    percent: number;
    passed: boolean | null;
    submittedAt?: SQL | string;
    timeSpentSeconds?: number;
    gradedBy?: unknown;
  },
): Promise<AttemptRow> {
  const rows = await tx
    .update(quizAttempts)
    .set({ ...changes, updatedAt: sql`now()` })
    .where(and(eq(quizAttempts.tenantId, tenantId), eq(quizAttempts.id, id)))
    .returning(columns);
  return rows[0] as AttemptRow;
}

/**
 * Gives an open attempt `seconds` of extra time in all (not added to what it had): a timed attempt's end moves by
 * the difference; an untimed one keeps no end. Answers undefined when the attempt is no longer open.
 */
export async function setExtraTime(
  tx: Executor,
  tenantId: string,
  id: string,
  seconds: number,
): Promise<AttemptRow | undefined> {
  const rows = await tx
    .update(quizAttempts)
    .set({
      endsAt: sql`${quizAttempts.endsAt} + make_interval(secs => ${seconds} - ${quizAttempts.extraTimeSeconds})`,
      extraTimeSeconds: seconds,
      updatedAt: sql`now()`,
    })
    .where(
      and(
        eq(quizAttempts.tenantId, tenantId),
        eq(quizAttempts.id, id),
        eq(quizAttempts.status, "in_progress"),
      ),
    )
    .returning(columns);
  return rows[0] as AttemptRow | undefined;
}

export async function findUser(
  db: Executor,
  tenantId: string,
  id: string,
): Promise<{ id: string; name: string; email: string; role: string } | undefined> {
  const rows = await db
    .select({ id: users.id, name: users.name, email: users.email, role: users.role })
    .from(users)
    .where(and(eq(users.tenantId, tenantId), eq(users.id, id)));
  return rows[0];
}

/**
 * The user's current enrollment in the course (active or completed), locked until the caller's transaction ends:
 * two attempts started at once for the same user queue here, so attempt numbers and limits hold.
 */
export async function lockCurrentEnrollment(
  tx: Executor,
  tenantId: string,
  userId: string,
  courseId: string,
): Promise<string | undefined> {
  const rows = await tx
    .select({ id: enrollments.id })
    .from(enrollments)
    .where(
      and(
        eq(enrollments.tenantId, tenantId),
        eq(enrollments.userId, userId),
        eq(enrollments.courseId, courseId),
        inArray(enrollments.status, ["active", "completed"]),
      ),
    )
    .for("update");
  return rows[0]?.id;
}
