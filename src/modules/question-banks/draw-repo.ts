import { and, eq, inArray, notInArray, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import { questionBanks, questions } from "../../db/schema/index.js";
import type { QuestionContent } from "./question-rules.js";
import type { QuestionType } from "./question-schemas.js";

/* What quizzes read of banks and questions: existence checks that lock banks, and questions pinned to a version. */

/** The ids among `ids` that are questions of the tenant, with their banks. */
export async function existingQuestions(
  db: Executor,
  tenantId: string,
  ids: readonly string[],
): Promise<{ id: string; bankId: string }[]> {
  if (ids.length === 0) return [];
  return db
    .select({ id: questions.id, bankId: questions.bankId })
    .from(questions)
    .where(and(eq(questions.tenantId, tenantId), inArray(questions.id, [...ids])));
}

/**
 * The ids among `ids` that are banks of the tenant, locked against deletion (FOR SHARE) until the caller's
 * transaction ends, so a bank cannot be deleted while a quiz that uses it is being saved.
 */
export async function lockBanks(db: Executor, tenantId: string, ids: readonly string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select({ id: questionBanks.id })
    .from(questionBanks)
    .where(and(eq(questionBanks.tenantId, tenantId), inArray(questionBanks.id, [...ids])))
    .for("share");
  return rows.map((r) => r.id);
}

const pinColumns = {
  questionId: questions.id,
  version: questions.version,
  type: questions.type,
  stem: questions.stem,
  content: questions.content,
  points: questions.points,
};

export interface PinRow {
  questionId: string;
  version: number;
  type: QuestionType;
  stem: string;
  content: QuestionContent;
  points: number;
}

/** The active ones among `ids`, as they are now. */
export async function activeQuestions(
  db: Executor,
  tenantId: string,
  ids: readonly string[],
): Promise<PinRow[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select(pinColumns)
    .from(questions)
    .where(
      and(eq(questions.tenantId, tenantId), inArray(questions.id, [...ids]), eq(questions.status, "active")),
    );
  return rows as PinRow[];
}

/** The points of the active ones among `ids`. */
export async function activeQuestionPoints(
  db: Executor,
  tenantId: string,
  ids: readonly string[],
): Promise<{ id: string; points: number }[]> {
  if (ids.length === 0) return [];
  return db
    .select({ id: questions.id, points: questions.points })
    .from(questions)
    .where(
      and(eq(questions.tenantId, tenantId), inArray(questions.id, [...ids]), eq(questions.status, "active")),
    );
}

/** Up to `count` active questions of the bank picked at random, none of `exclude`. */
export async function randomActiveQuestions(
  db: Executor,
  tenantId: string,
  bankId: string,
  count: number,
  exclude: readonly string[],
): Promise<PinRow[]> {
  const rows = await db
    .select(pinColumns)
    .from(questions)
    .where(
      and(
        eq(questions.tenantId, tenantId),
        eq(questions.bankId, bankId),
        eq(questions.status, "active"),
        exclude.length === 0 ? undefined : notInArray(questions.id, [...exclude]),
      ),
    )
    .orderBy(sql`random()`)
    .limit(count);
  return rows as PinRow[];
}
