import { isDeepStrictEqual } from "node:util";
import type { Executor } from "../../db/client.js";
import { AppError, type DetailKey, notFound } from "../../platform/errors/app-error.js";
import { cappedPageEnvelope } from "../../platform/pagination/capped.js";
import { pageWindow } from "../../platform/pagination/pagination.js";
import * as draws from "./draw-repo.js";
import * as repo from "./question-repo.js";
import { checkKey, KEY_FIELD_OF, KEY_FIELDS, type KeyInput } from "./question-rules.js";
import type {
  BulkQuestionsInput,
  CreateQuestionInput,
  ListQuestionsQueryType,
  QuestionRecord,
  UpdateQuestionInput,
} from "./question-schemas.js";
import * as banks from "./repo.js";

export type PinnedQuestion = draws.PinRow;

async function assertBank(db: Executor, tenantId: string, bankId: string): Promise<void> {
  if ((await banks.findBank(db, tenantId, bankId)) === undefined) throw notFound();
}

export async function listQuestions(
  db: Executor,
  tenantId: string,
  bankId: string,
  query: ListQuestionsQueryType,
) {
  await assertBank(db, tenantId, bankId);
  const window = pageWindow(query);
  const filter = {
    type: query.type,
    difficulty: query.difficulty,
    status: query.status,
    tag: query.tag,
    search: query.search,
  };
  const [data, total] = await Promise.all([
    repo.listQuestions(db, tenantId, bankId, filter, query.sort ?? "-createdAt", window),
    repo.countQuestions(db, tenantId, bankId, filter),
  ]);
  return cappedPageEnvelope(data, total, window);
}

export async function getQuestion(db: Executor, tenantId: string, id: string): Promise<QuestionRecord> {
  const row = await repo.findQuestion(db, tenantId, id);
  if (row === undefined) throw notFound();
  return repo.toRecord(row);
}

function keyInputOf(input: KeyInput): KeyInput {
  const out: KeyInput = {};
  for (const field of KEY_FIELDS)
    if (input[field] !== undefined) Object.assign(out, { [field]: input[field] });
  return out;
}

function prepare(
  input: CreateQuestionInput,
  at: string,
): { question: repo.NewQuestion; details: DetailKey[] } {
  const { content, details } = checkKey(input.type, keyInputOf(input), at);
  return {
    details,
    question: {
      type: input.type,
      stem: input.stem,
      content,
      points: input.points ?? 1,
      difficulty: input.difficulty ?? null,
      explanation: input.explanation ?? null,
      tags: input.tags ?? [],
      status: input.status ?? "active",
    },
  };
}

/**
 * Creates one question, or `{items}` all together: every item is checked first and the details of all refused
 * items are answered at once (`items[3].options`), so nothing is written unless everything can be.
 */
export async function createQuestions(
  db: Executor,
  tenantId: string,
  bankId: string,
  body: CreateQuestionInput | BulkQuestionsInput,
): Promise<QuestionRecord | { data: QuestionRecord[] }> {
  const bulk = !("type" in body);
  const inputs = bulk ? (body as BulkQuestionsInput).items : [body as CreateQuestionInput];
  const prepared = inputs.map((input, i) => prepare(input, bulk ? `items[${i}].` : ""));
  const details = prepared.flatMap((p) => p.details);
  if (details.length > 0) throw new AppError("validation_failed", { details });
  const rows = await db.transaction(async (tx) => {
    // Locked so the bank cannot be deleted halfway through; the rows then cascade with it, or both exist.
    if ((await banks.findBank(tx, tenantId, bankId, true)) === undefined) throw notFound();
    return repo.insertQuestions(
      tx,
      tenantId,
      bankId,
      prepared.map((p) => p.question),
    );
  });
  const records = rows.map(repo.toRecord);
  return bulk ? { data: records } : (records[0] as QuestionRecord);
}

/** JSON as stored: no `undefined` members, so a value and its stored copy compare equal. */
const plain = <T>(value: T): T => JSON.parse(JSON.stringify(value ?? null)) as T;

/**
 * Changes a question. A change to its content (stem, key, points, difficulty, explanation) makes a new version
 * whose snapshot is kept, so attempts keep the version they were drawn with; tags and status alone do not.
 */
export async function updateQuestion(
  db: Executor,
  tenantId: string,
  id: string,
  input: UpdateQuestionInput,
): Promise<QuestionRecord> {
  return db.transaction(async (tx) => {
    const current = await repo.findQuestion(tx, tenantId, id, true);
    if (current === undefined) throw notFound();
    const wanted = KEY_FIELD_OF[current.type];
    const keyInput: KeyInput = { ...(wanted === null ? {} : current.content), ...keyInputOf(input) };
    const { content, details } = checkKey(current.type, keyInput);
    if (details.length > 0) throw new AppError("validation_failed", { details });
    const next = {
      stem: input.stem ?? current.stem,
      content,
      points: input.points ?? current.points,
      difficulty: input.difficulty === undefined ? current.difficulty : input.difficulty,
      explanation: input.explanation === undefined ? current.explanation : input.explanation,
    };
    const before = { ...repo.snapshotOf(current), type: undefined };
    const contentChanged = !isDeepStrictEqual(plain({ ...next, type: undefined }), plain(before));
    const row = await repo.updateQuestion(tx, tenantId, id, {
      ...(contentChanged ? { ...next, version: current.version + 1 } : {}),
      ...(input.tags === undefined ? {} : { tags: input.tags }),
      ...(input.status === undefined ? {} : { status: input.status }),
    });
    if (contentChanged) await repo.insertVersion(tx, tenantId, row);
    return repo.toRecord(row);
  });
}

/**
 * Deletes a question, or retires it when an attempt drew it or a quiz names it: history keeps its text and the
 * quiz keeps a valid reference, and a retired question is never drawn again.
 */
export async function deleteQuestion(db: Executor, tenantId: string, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    const current = await repo.findQuestion(tx, tenantId, id, true);
    if (current === undefined) throw notFound();
    const referenced =
      (await repo.drawnByAnAttempt(tx, tenantId, id)) || (await repo.namedByAQuiz(tx, tenantId, id));
    if (!referenced) return repo.deleteQuestion(tx, tenantId, id);
    if (current.status !== "retired") await repo.updateQuestion(tx, tenantId, id, { status: "retired" });
  });
}

// --- For the quizzes module -------------------------------------------------------------------------------------

/**
 * The ids among `ids` that are not questions of the tenant. The banks of those that are get locked (FOR SHARE);
 * a question whose bank was deleted before the lock was taken counts as missing.
 */
export async function questionsExist(
  db: Executor,
  tenantId: string,
  ids: readonly string[],
): Promise<string[]> {
  const found = await draws.existingQuestions(db, tenantId, ids);
  const locked = new Set(await draws.lockBanks(db, tenantId, [...new Set(found.map((q) => q.bankId))]));
  const known = new Set(found.filter((q) => locked.has(q.bankId)).map((q) => q.id));
  return ids.filter((id) => !known.has(id));
}

/** The ids among `ids` that are not banks of the tenant; the others are locked (FOR SHARE) until commit. */
export async function banksExist(db: Executor, tenantId: string, ids: readonly string[]): Promise<string[]> {
  const known = new Set(await draws.lockBanks(db, tenantId, ids));
  return ids.filter((id) => !known.has(id));
}

/** The active questions among `ids`, pinned to their current version, in the order of `ids`. */
export async function activeQuestionsIn(
  db: Executor,
  tenantId: string,
  ids: readonly string[],
): Promise<PinnedQuestion[]> {
  const rows = await draws.activeQuestions(db, tenantId, ids);
  const byId = new Map(rows.map((r) => [r.questionId, r]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/** The points of the active questions among `ids`: what a quiz's fixed sections are worth now. */
export async function activePoints(
  db: Executor,
  tenantId: string,
  ids: readonly string[],
): Promise<Map<string, number>> {
  const rows = await draws.activeQuestionPoints(db, tenantId, ids);
  return new Map(rows.map((r) => [r.id, r.points]));
}

/** Up to `count` active questions of the bank at random, none of `exclude`, pinned to their current version. */
export function drawFromBank(
  db: Executor,
  tenantId: string,
  bankId: string,
  count: number,
  exclude: readonly string[],
): Promise<PinnedQuestion[]> {
  return draws.randomActiveQuestions(db, tenantId, bankId, count, exclude);
}
