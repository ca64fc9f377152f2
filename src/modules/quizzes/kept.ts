/**
 * The kept score (Canvas `kept_score`): what a user's graded attempts at a quiz come to under its scoring policy,
 * the same figure the gradebook receives (gradebook-sync.ts). Pending reviews and open attempts do not count.
 */
import { and, eq, inArray } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import { quizAttempts } from "../../db/schema/index.js";
import type { QuizRow } from "./repo.js";
import { round2 } from "./scoring.js";

export interface GradedResult {
  score: number;
  percent: number;
}

export interface Kept {
  keptScore: number | null;
  keptPercent: number | null;
}

export const NOTHING_KEPT: Kept = { keptScore: null, keptPercent: null };

/** The percent the quiz's scoring policy keeps from a user's graded attempts, in attempt order. */
export function policyPercent(policy: QuizRow["scoringPolicy"], percents: readonly number[]): number | null {
  if (percents.length === 0) return null;
  if (policy === "first") return percents[0] as number;
  if (policy === "latest") return percents[percents.length - 1] as number;
  if (policy === "average") return percents.reduce((s, p) => s + p, 0) / percents.length;
  return Math.max(...percents);
}

/**
 * The kept percent is `policyPercent`; the kept score is the points of the attempt the policy keeps (for
 * `highest`, the first attempt with the highest percent), or for `average` the mean of the attempts' points.
 */
export function keptOf(policy: QuizRow["scoringPolicy"], results: readonly GradedResult[]): Kept {
  const percent = policyPercent(
    policy,
    results.map((r) => r.percent),
  );
  if (percent === null) return NOTHING_KEPT;
  let score: number;
  if (policy === "average") score = results.reduce((s, r) => s + r.score, 0) / results.length;
  else if (policy === "first") score = (results[0] as GradedResult).score;
  else if (policy === "latest") score = (results[results.length - 1] as GradedResult).score;
  else score = (results.find((r) => r.percent === percent) as GradedResult).score;
  return { keptScore: round2(score), keptPercent: round2(percent) };
}

/**
 * The graded attempts of each of `userIds` at the quiz, in attempt order: one read through the attempt-number
 * key, for a page of attempts (at most 100 users) or a single one.
 */
export async function gradedResults(
  db: Executor,
  tenantId: string,
  quizId: string,
  userIds: readonly string[],
): Promise<Map<string, GradedResult[]>> {
  const byUser = new Map<string, GradedResult[]>();
  if (userIds.length === 0) return byUser;
  // Ordered here rather than by the statement: a list's only ordered read of its table is its page (list-plans).
  const rows = await db
    .select({
      userId: quizAttempts.userId,
      attemptNumber: quizAttempts.attemptNumber,
      score: quizAttempts.score,
      percent: quizAttempts.percent,
    })
    .from(quizAttempts)
    .where(
      and(
        eq(quizAttempts.tenantId, tenantId),
        eq(quizAttempts.quizId, quizId),
        inArray(quizAttempts.userId, [...new Set(userIds)]),
        eq(quizAttempts.status, "graded"),
      ),
    );
  rows.sort((x, y) => x.attemptNumber - y.attemptNumber);
  for (const row of rows) {
    const list = byUser.get(row.userId) ?? [];
    list.push({ score: row.score ?? 0, percent: row.percent ?? 0 });
    byUser.set(row.userId, list);
  }
  return byUser;
}

/** Each user's kept score at the quiz. */
export async function keptScores(
  db: Executor,
  tenantId: string,
  quiz: Pick<QuizRow, "id" | "scoringPolicy">,
  userIds: readonly string[],
): Promise<Map<string, Kept>> {
  const results = await gradedResults(db, tenantId, quiz.id, userIds);
  return new Map([...results].map(([userId, list]) => [userId, keptOf(quiz.scoringPolicy, list)]));
}
