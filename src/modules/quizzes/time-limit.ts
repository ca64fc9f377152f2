/**
 * Quiz time limits (Canvas QuizSubmission `end_at`, `extra_time`): a timed attempt ends at `endsAt`; a
 * submission up to GRACE_SECONDS later is still taken (the answers were on their way), one after that is refused,
 * and the worker's minute pass closes what is left open, as a submission of no answers.
 */
import { sql } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import { AppError, validationError } from "../../platform/errors/app-error.js";
import * as repo from "./attempt-repo.js";
import { findQuiz, type QuizRow } from "./repo.js";
import { submitInTx } from "./submission.js";

/** How long after `endsAt` a submission is still taken: network latency and a slow last click, not more time. */
export const GRACE_SECONDS = 30;

/** The seconds a timed attempt allows in all (its limit plus extra time); null when it is untimed. */
export function allowedSeconds(attempt: Pick<repo.AttemptRow, "startedAt" | "endsAt">): number | null {
  if (attempt.endsAt === null) return null;
  return Math.round((Date.parse(attempt.endsAt) - Date.parse(attempt.startedAt)) / 1000);
}

/** 409 `conflict` (`conflict.attempt_time_up`) when the attempt's time and grace are over. */
export function assertInTime(attempt: Pick<repo.AttemptRow, "endsAt">, now = Date.now()): void {
  if (attempt.endsAt === null) return;
  if (now > Date.parse(attempt.endsAt) + GRACE_SECONDS * 1000) {
    throw new AppError("conflict", {
      messageKey: "conflict.attempt_time_up",
      params: { at: attempt.endsAt },
    });
  }
}

/** 400 when a reported `timeSpentSeconds` is more than the time allowed plus the grace: it was not taken in time. */
export function assertTimeSpent(allowed: number | null, timeSpentSeconds: number | undefined): void {
  if (allowed === null || timeSpentSeconds === undefined) return;
  if (timeSpentSeconds > allowed + GRACE_SECONDS) {
    throw validationError("timeSpentSeconds", "field.over_time_limit", {
      limit: allowed,
      grace: GRACE_SECONDS,
    });
  }
}

/** Attempts claimed per transaction, and transactions per pass: a pass closes at most 1,000. */
const BATCH = 100;
const BATCHES = 10;
const SYSTEM = { kind: "system" } as const;

/** Open attempts past their end and grace, longest overdue first, read through `quiz_attempts_open_ends_idx`. */
export const claimDue = (batch: number) => sql`
  SELECT tenant_id AS "tenantId", id FROM quiz_attempts
  WHERE status = 'in_progress' AND ends_at IS NOT NULL
    AND ends_at < now() - make_interval(secs => ${GRACE_SECONDS})
  ORDER BY ends_at LIMIT ${batch}
  FOR UPDATE SKIP LOCKED`;

export interface TimeUpPass {
  closed: number;
  /** Attempts that could not be closed this pass (each rolled back alone), retried at the next. */
  failed: { tenantId: string; id: string; error: string }[];
}

/** Closes one claimed attempt as a submission of no answers at its `endsAt`, if it is still open. */
async function closeInTx(tx: Executor, tenantId: string, id: string): Promise<boolean> {
  const attempt = await repo.findAttempt(tx, tenantId, id, true);
  if (attempt === undefined || attempt.status !== "in_progress" || attempt.endsAt === null) return false;
  const quiz = (await findQuiz(tx, tenantId, attempt.quizId, "share")) as QuizRow;
  await submitInTx(tx, tenantId, SYSTEM, quiz, attempt, {
    answers: [],
    timeSpentSeconds: allowedSeconds(attempt) ?? undefined,
    submittedAt: attempt.endsAt,
  });
  return true;
}

/**
 * Closes the user's open attempt at the quiz if its time and grace are over, as the worker would, in the caller's
 * transaction: a new start then need not wait for the worker's next pass. Answers whether it closed one.
 */
export async function closeOverdueOf(
  tx: Executor,
  tenantId: string,
  quizId: string,
  userId: string,
): Promise<boolean> {
  const due = (await tx.execute(sql`
    SELECT id FROM quiz_attempts
    WHERE tenant_id = ${tenantId} AND quiz_id = ${quizId} AND user_id = ${userId} AND status = 'in_progress'
      AND ends_at < now() - make_interval(secs => ${GRACE_SECONDS})`)) as unknown as {
    rows: { id: string }[];
  };
  let closed = false;
  for (const { id } of due.rows) closed = (await closeInTx(tx, tenantId, id)) || closed;
  return closed;
}

/**
 * The worker's minute pass (src/worker/runner.ts): open attempts whose time and grace are over, in every tenant,
 * are submitted with no answers (unanswered questions score 0), so the scoring policy, the gradebook, lesson
 * completion and `quiz_submitted` follow as for any submission, with the system as the actor. Each batch is one
 * transaction claiming its rows through the open-attempts index with SKIP LOCKED (two workers share the work; a
 * submission racing it waits for the row and then finds it submitted); each attempt is closed in a savepoint, so
 * one that fails is reported and retried without holding back the rest.
 */
export async function closeOverdueAttempts(
  db: Executor,
  batch = BATCH,
  batches = BATCHES,
): Promise<TimeUpPass> {
  const pass: TimeUpPass = { closed: 0, failed: [] };
  for (let i = 0; i < batches; i++) {
    const failedBefore = pass.failed.length;
    const claimed = await db.transaction(async (tx) => {
      const due = (await tx.execute(claimDue(batch))) as unknown as {
        rows: { tenantId: string; id: string }[];
      };
      for (const { tenantId, id } of due.rows) {
        await tx
          .transaction((sp) => closeInTx(sp, tenantId, id))
          .then((closed) => {
            if (closed) pass.closed++;
          })
          .catch((err: unknown) => {
            pass.failed.push({ tenantId, id, error: err instanceof Error ? err.message : String(err) });
          });
      }
      return due.rows.length;
    });
    // A short batch was the last one due; after a failure the next batch would claim the same row again.
    if (claimed < batch || pass.failed.length > failedBefore) break;
  }
  return pass;
}
