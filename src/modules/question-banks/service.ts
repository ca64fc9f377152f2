import type { Executor } from "../../db/client.js";
import { AppError, notFound, validationError } from "../../platform/errors/app-error.js";
import { cappedPageEnvelope } from "../../platform/pagination/capped.js";
import { pageWindow } from "../../platform/pagination/pagination.js";
import { courseExists } from "../courses/repo.js";
import * as repo from "./repo.js";
import type { BankRecord, CreateBankInput, ListBanksQueryType, UpdateBankInput } from "./schemas.js";

export type { ChoiceOptionKey, NumericKey, QuestionContent } from "./question-rules.js";
export { QUESTION_TYPES, type QuestionType } from "./question-schemas.js";
// What the quizzes module uses: drawing and pinning questions, and the shapes of their answer keys.
export {
  activePoints,
  activeQuestionsIn,
  banksExist,
  drawFromBank,
  type PinnedQuestion,
  questionsExist,
} from "./question-service.js";

export async function listBanks(db: Executor, tenantId: string, query: ListBanksQueryType) {
  const window = pageWindow(query);
  const filter = { status: query.status, courseId: query.courseId, search: query.search };
  const [data, total] = await Promise.all([
    repo.listBanks(db, tenantId, filter, query.sort ?? "-createdAt", window),
    repo.countBanks(db, tenantId, filter),
  ]);
  return cappedPageEnvelope(data, total, window);
}

export async function getBank(db: Executor, tenantId: string, id: string): Promise<BankRecord> {
  const bank = await repo.findBank(db, tenantId, id);
  if (bank === undefined) throw notFound();
  return bank;
}

async function assertCourse(db: Executor, tenantId: string, courseId: string | null | undefined) {
  if (courseId === undefined || courseId === null) return;
  if (!(await courseExists(db, tenantId, courseId))) {
    throw validationError("courseId", "field.unknown_course", { id: courseId });
  }
}

export async function createBank(
  db: Executor,
  tenantId: string,
  input: CreateBankInput,
): Promise<BankRecord> {
  await assertCourse(db, tenantId, input.courseId);
  const id = await repo.insertBank(db, tenantId, input);
  return (await repo.findBank(db, tenantId, id)) as BankRecord;
}

export async function updateBank(
  db: Executor,
  tenantId: string,
  id: string,
  input: UpdateBankInput,
): Promise<BankRecord> {
  if ((await repo.findBank(db, tenantId, id)) === undefined) throw notFound();
  await assertCourse(db, tenantId, input.courseId);
  if (!(await repo.updateBank(db, tenantId, id, input))) throw notFound();
  return (await repo.findBank(db, tenantId, id)) as BankRecord;
}

/**
 * Deletes a bank and its questions. Refused while a quiz draws from it or names one of its questions: the bank is
 * locked first, and quizzes lock the banks they reference while they save, so neither can slip past the other.
 */
export async function deleteBank(db: Executor, tenantId: string, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    if ((await repo.findBank(tx, tenantId, id, true)) === undefined) throw notFound();
    if (await repo.bankInUse(tx, tenantId, id)) {
      throw new AppError("conflict", { messageKey: "conflict.bank_in_use" });
    }
    await repo.deleteBank(tx, tenantId, id);
  });
}
