import { and, asc, desc, eq, type SQL, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import { readCounter } from "../../db/counters.js";
import { type Bindable, runPageQuery } from "../../db/page-query.js";
import { lessons, quizAttempts, quizzes } from "../../db/schema/index.js";
import { type CappedTotal, countCapped, exactTotal } from "../../platform/pagination/capped.js";
import type { PageWindow } from "../../platform/pagination/pagination.js";
import { learnerLessonIds } from "../courses/audience.js";
import type { CreateQuizInput, QuizSort, SectionRecord, UpdateQuizInput } from "./schemas.js";

const columns = {
  id: quizzes.id,
  lessonId: quizzes.lessonId,
  courseId: quizzes.courseId,
  instructions: quizzes.instructions,
  timeLimitSeconds: quizzes.timeLimitSeconds,
  allowedAttempts: quizzes.allowedAttempts,
  scoringPolicy: quizzes.scoringPolicy,
  passPercent: quizzes.passPercent,
  shuffleQuestions: quizzes.shuffleQuestions,
  showCorrectAnswers: quizzes.showCorrectAnswers,
  sections: quizzes.sections,
  createdAt: quizzes.createdAt,
  updatedAt: quizzes.updatedAt,
};

/** A quiz as stored; the record adds `pointsPossible` and `questionCount`, computed from its sections. */
export interface QuizRow {
  id: string;
  lessonId: string;
  courseId: string;
  instructions: string | null;
  timeLimitSeconds: number | null;
  allowedAttempts: number | null;
  scoringPolicy: "highest" | "latest" | "average" | "first";
  passPercent: number;
  shuffleQuestions: boolean;
  showCorrectAnswers: boolean;
  sections: SectionRecord[];
  createdAt: string;
  updatedAt: string;
}

export interface QuizFilter {
  courseId?: string;
  lessonId?: string;
}

function where(tenantId: Bindable, f: { course?: Bindable; lesson?: Bindable }): SQL {
  return and(
    eq(quizzes.tenantId, tenantId),
    f.course === undefined ? undefined : eq(quizzes.courseId, f.course),
    f.lesson === undefined ? undefined : eq(quizzes.lessonId, f.lesson),
  ) as SQL;
}

const bindings = (filter: QuizFilter) => ({ course: filter.courseId, lesson: filter.lessonId });

/** Every order ends on the id, so equal values page stably. */
const ORDER: Record<QuizSort, SQL[]> = {
  createdAt: [asc(quizzes.createdAt), asc(quizzes.id)],
  "-createdAt": [desc(quizzes.createdAt), desc(quizzes.id)],
  updatedAt: [asc(quizzes.updatedAt), asc(quizzes.id)],
  "-updatedAt": [desc(quizzes.updatedAt), desc(quizzes.id)],
};

/** The quizzes of the lessons a learner may read (see courses/audience.ts). */
const learnerSees = (tenantId: string, userId: string) =>
  sql`${quizzes.lessonId} IN (${learnerLessonIds(tenantId, userId)})`;

export async function listQuizzes(
  db: Executor,
  tenantId: string,
  filter: QuizFilter,
  sort: QuizSort,
  window: PageWindow,
  learnerId?: string,
): Promise<QuizRow[]> {
  if (learnerId !== undefined) {
    const rows = await db
      .select(columns)
      .from(quizzes)
      .where(and(where(tenantId, bindings(filter)), learnerSees(tenantId, learnerId)))
      .orderBy(...ORDER[sort])
      .limit(window.limit)
      .offset(window.offset);
    return rows as QuizRow[];
  }
  const rows = await runPageQuery(
    db,
    `quiz_${sort.replace("-", "d_")}`,
    tenantId,
    bindings(filter),
    window,
    (p, name) =>
      db
        .select(columns)
        .from(quizzes)
        .where(where(p.tenantId, p))
        .orderBy(...ORDER[sort])
        .limit(p.limit)
        .offset(p.offset)
        .prepare(name),
  );
  return rows as QuizRow[];
}

/**
 * Exact totals from the counters the triggers keep: the tenant's quizzes, or a course's alone. A lesson has at
 * most one quiz; a learner's list and combined filters count their matches up to the platform's cap, newest
 * first.
 */
export async function countQuizzes(
  db: Executor,
  tenantId: string,
  filter: QuizFilter,
  learnerId?: string,
): Promise<CappedTotal> {
  if (filter.lessonId === undefined && learnerId === undefined) {
    const counter = filter.courseId === undefined ? "quizzes" : `quizzes:course_id:${filter.courseId}`;
    return exactTotal(await readCounter(db, tenantId, counter));
  }
  const seen = learnerId === undefined ? undefined : learnerSees(tenantId, learnerId);
  return countCapped(db, quizzes, and(where(tenantId, bindings(filter)), seen) as SQL, ORDER["-createdAt"]);
}

/** `share` keeps the quiz from being deleted (or its settings changed) until the caller's transaction ends. */
export async function findQuiz(
  db: Executor,
  tenantId: string,
  id: string,
  lock?: "update" | "share",
): Promise<QuizRow | undefined> {
  const query = db
    .select(columns)
    .from(quizzes)
    .where(and(eq(quizzes.tenantId, tenantId), eq(quizzes.id, id)));
  const rows = await (lock === undefined ? query : query.for(lock));
  return rows[0] as QuizRow | undefined;
}

/**
 * The lesson a quiz belongs to. Read from the lessons table directly: the quiz needs only its course and type,
 * and the lessons module has no service call for that yet.
 */
export async function findLesson(
  db: Executor,
  tenantId: string,
  id: string,
): Promise<{ courseId: string; type: string } | undefined> {
  const rows = await db
    .select({ courseId: lessons.courseId, type: lessons.type })
    .from(lessons)
    .where(and(eq(lessons.tenantId, tenantId), eq(lessons.id, id)))
    .for("share");
  return rows[0];
}

export async function insertQuiz(
  tx: Executor,
  tenantId: string,
  courseId: string,
  input: Omit<CreateQuizInput, "sections">,
  sections: SectionRecord[],
): Promise<QuizRow> {
  const rows = await tx
    .insert(quizzes)
    .values({
      tenantId,
      lessonId: input.lessonId,
      courseId,
      instructions: input.instructions ?? null,
      timeLimitSeconds: input.timeLimitSeconds ?? null,
      allowedAttempts: input.allowedAttempts ?? null,
      scoringPolicy: input.scoringPolicy ?? "highest",
      passPercent: input.passPercent ?? 60,
      shuffleQuestions: input.shuffleQuestions ?? false,
      showCorrectAnswers: input.showCorrectAnswers ?? false,
      sections,
    })
    .returning(columns);
  return rows[0] as QuizRow;
}

export async function updateQuiz(
  tx: Executor,
  tenantId: string,
  id: string,
  input: Omit<UpdateQuizInput, "sections"> & { sections?: SectionRecord[] },
): Promise<QuizRow> {
  const rows = await tx
    .update(quizzes)
    .set({ ...input, updatedAt: sql`now()` })
    .where(and(eq(quizzes.tenantId, tenantId), eq(quizzes.id, id)))
    .returning(columns);
  return rows[0] as QuizRow;
}

export async function hasAttempts(db: Executor, tenantId: string, quizId: string): Promise<boolean> {
  const rows = await db
    .select({ one: sql<number>`1` })
    .from(quizAttempts)
    .where(and(eq(quizAttempts.tenantId, tenantId), eq(quizAttempts.quizId, quizId)))
    .limit(1);
  return rows.length > 0;
}

export async function deleteQuiz(tx: Executor, tenantId: string, id: string): Promise<void> {
  await tx.delete(quizzes).where(and(eq(quizzes.tenantId, tenantId), eq(quizzes.id, id)));
}
