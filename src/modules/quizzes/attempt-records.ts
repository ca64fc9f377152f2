import type { Executor } from "../../db/client.js";
import { getSettings, letterFor } from "../settings/service.js";
import type { AttemptRow } from "./attempt-repo.js";
import type { AttemptRecord } from "./attempt-schemas.js";
import { publicView } from "./draw.js";
import { type Kept, keptScores, NOTHING_KEPT } from "./kept.js";
import type { QuizRow } from "./repo.js";

export type GradingScale = Parameters<typeof letterFor>[0];

/** The institution's grading scale (`learning.gradingScale`), which gives an attempt's `letterGrade`. */
export async function gradingScale(db: Executor, tenantId: string): Promise<GradingScale> {
  return (await getSettings(db, tenantId)).learning.gradingScale;
}

export function toRecord(row: AttemptRow, scale: GradingScale, kept: Kept): AttemptRecord {
  // A letter only for a final score: while an essay awaits review, the percent covers part of the quiz.
  const letterGrade = row.status === "graded" && row.percent !== null ? letterFor(scale, row.percent) : null;
  return { ...row, ...kept, questions: row.questions.map(publicView), letterGrade } as AttemptRecord;
}

/** Records of attempts at one quiz, each with its user's kept score: one read of the users' graded attempts. */
export async function recordsOf(
  db: Executor,
  tenantId: string,
  quiz: Pick<QuizRow, "id" | "scoringPolicy">,
  rows: readonly AttemptRow[],
): Promise<AttemptRecord[]> {
  const [scale, kept] = await Promise.all([
    gradingScale(db, tenantId),
    keptScores(
      db,
      tenantId,
      quiz,
      rows.map((r) => r.userId),
    ),
  ]);
  return rows.map((row) => toRecord(row, scale, kept.get(row.userId) ?? NOTHING_KEPT));
}

export async function recordOf(
  db: Executor,
  tenantId: string,
  quiz: Pick<QuizRow, "id" | "scoringPolicy">,
  row: AttemptRow,
): Promise<AttemptRecord> {
  return (await recordsOf(db, tenantId, quiz, [row]))[0] as AttemptRecord;
}
