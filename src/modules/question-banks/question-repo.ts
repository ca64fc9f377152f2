import { and, asc, desc, eq, type SQL, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import { parentValueCounter, readCounter, soleFilter } from "../../db/counters.js";
import { type Bindable, likeContains, runPageQuery } from "../../db/page-query.js";
import { questions, questionTags, questionVersions, quizAttempts, quizzes } from "../../db/schema/index.js";
import { type CappedTotal, countCapped, exactTotal } from "../../platform/pagination/capped.js";
import type { PageWindow } from "../../platform/pagination/pagination.js";
import type { QuestionContent } from "./question-rules.js";
import type { QuestionRecord, QuestionSort, QuestionStatus, QuestionType } from "./question-schemas.js";

const columns = {
  id: questions.id,
  bankId: questions.bankId,
  type: questions.type,
  stem: questions.stem,
  content: questions.content,
  points: questions.points,
  difficulty: questions.difficulty,
  explanation: questions.explanation,
  tags: questions.tags,
  version: questions.version,
  status: questions.status,
  createdAt: questions.createdAt,
  updatedAt: questions.updatedAt,
};

export interface QuestionRow {
  id: string;
  bankId: string;
  type: QuestionType;
  stem: string;
  content: QuestionContent;
  points: number;
  difficulty: QuestionRecord["difficulty"];
  explanation: string | null;
  tags: string[];
  version: number;
  status: QuestionStatus;
  createdAt: string;
  updatedAt: string;
}

/** The stored row as the API shows it: the key's one field beside the others. */
export function toRecord(row: QuestionRow): QuestionRecord {
  const { content, ...rest } = row;
  return { ...rest, ...content } as QuestionRecord;
}

/** What a version row keeps: everything an attempt is scored and shown against. */
export function snapshotOf(
  row: Pick<QuestionRow, "type" | "stem" | "content" | "points" | "difficulty" | "explanation">,
) {
  return {
    type: row.type,
    stem: row.stem,
    content: row.content,
    points: row.points,
    difficulty: row.difficulty,
    explanation: row.explanation,
  };
}

export interface QuestionFilter {
  type?: string;
  difficulty?: string;
  status?: string;
  tag?: string;
  search?: string;
}

type Placeholders = {
  bank: Bindable;
  type?: Bindable;
  diff?: Bindable;
  status?: Bindable;
  tag?: Bindable;
  pat?: Bindable;
};

function where(tenantId: Bindable, f: Placeholders): SQL {
  return and(
    eq(questions.tenantId, tenantId),
    eq(questions.bankId, f.bank),
    f.type === undefined ? undefined : eq(questions.type, f.type),
    f.diff === undefined ? undefined : eq(questions.difficulty, f.diff),
    f.status === undefined ? undefined : eq(questions.status, f.status),
    // Containment, not `= ANY`, so the GIN index on (tenant, bank, tags) can answer a count of a tag with other
    // filters; a page by tag walks question_tags instead (listQuestions).
    f.tag === undefined ? undefined : sql`${questions.tags} @> ARRAY[${f.tag}]::text[]`,
    f.pat === undefined ? undefined : sql`aula_fold(${questions.stem}) LIKE aula_fold(${f.pat})`,
  ) as SQL;
}

function bindings(bankId: string, filter: QuestionFilter) {
  return {
    bank: bankId,
    type: filter.type,
    diff: filter.difficulty,
    status: filter.status,
    tag: filter.tag,
    pat: filter.search === undefined ? undefined : likeContains(filter.search),
  };
}

/** Every order ends on the id, so equal values page stably. */
const ORDER: Record<QuestionSort, SQL[]> = {
  createdAt: [asc(questions.createdAt), asc(questions.id)],
  "-createdAt": [desc(questions.createdAt), desc(questions.id)],
  updatedAt: [asc(questions.updatedAt), asc(questions.id)],
  "-updatedAt": [desc(questions.updatedAt), desc(questions.id)],
};

export async function listQuestions(
  db: Executor,
  tenantId: string,
  bankId: string,
  filter: QuestionFilter,
  sort: QuestionSort,
  window: PageWindow,
): Promise<QuestionRecord[]> {
  const list = `qs_${sort.replace("-", "d_")}`;
  const rows = await runPageQuery(
    db,
    list,
    tenantId,
    bindings(bankId, filter),
    window,
    (p, name) => {
      const { tag, ...rest } = p as Placeholders;
      if (tag === undefined) {
        return db
          .select(columns)
          .from(questions)
          .where(where(p.tenantId, rest))
          .orderBy(...ORDER[sort])
          .limit(p.limit)
          .offset(p.offset)
          .prepare(name);
      }
      // A tag walks its own rows in list order (question_tags, migration 0048) and joins each to its question:
      // the page reads what it returns, whether the tag has ten questions in the bank or all of them.
      return db
        .select(columns)
        .from(questionTags)
        .innerJoin(
          questions,
          and(eq(questions.tenantId, questionTags.tenantId), eq(questions.id, questionTags.questionId)),
        )
        .where(
          and(
            eq(questionTags.tenantId, p.tenantId),
            eq(questionTags.bankId, rest.bank),
            eq(questionTags.tag, tag),
            where(p.tenantId, rest),
          ),
        )
        .orderBy(...TAGGED_ORDER[sort])
        .limit(p.limit)
        .offset(p.offset)
        .prepare(name);
    },
    // A search's generic plan would walk the bank in list order, filtering every row, for a rare term: each is
    // planned for its own term (the trigram index's few matches, or the order for a common one).
    { customPlan: ["pat"] },
  );
  return (rows as QuestionRow[]).map(toRecord);
}

/** The list's orders on a tag's rows, which carry their question's timestamps. */
const TAGGED_ORDER: Record<QuestionSort, SQL[]> = {
  createdAt: [asc(questionTags.createdAt), asc(questionTags.questionId)],
  "-createdAt": [desc(questionTags.createdAt), desc(questionTags.questionId)],
  updatedAt: [asc(questionTags.updatedAt), asc(questionTags.questionId)],
  "-updatedAt": [desc(questionTags.updatedAt), desc(questionTags.questionId)],
};

/**
 * Exact from a counter unfiltered and with one status, type or tag (migrations 0047 and 0048); otherwise the
 * matches counted up to the platform's cap, newest first (a search or a combination can match the whole bank).
 */
export async function countQuestions(
  db: Executor,
  tenantId: string,
  bankId: string,
  filter: QuestionFilter,
): Promise<CappedTotal> {
  if (Object.values(filter).every((v) => v === undefined)) {
    return exactTotal(await readCounter(db, tenantId, `questions:bank_id:${bankId}`));
  }
  const only = soleFilter(filter);
  if (only !== undefined && (only[0] === "status" || only[0] === "type" || only[0] === "tag")) {
    const counter =
      only[0] === "tag"
        ? parentValueCounter("question_tags", { column: "bank_id", id: bankId }, ...only)
        : parentValueCounter("questions", { column: "bank_id", id: bankId }, ...only);
    return exactTotal(await readCounter(db, tenantId, counter));
  }
  return countCapped(db, questions, where(tenantId, bindings(bankId, filter)), ORDER["-createdAt"]);
}

export async function findQuestion(
  db: Executor,
  tenantId: string,
  id: string,
  lock = false,
): Promise<QuestionRow | undefined> {
  const query = db
    .select(columns)
    .from(questions)
    .where(and(eq(questions.tenantId, tenantId), eq(questions.id, id)));
  const rows = await (lock ? query.for("update") : query);
  return rows[0] as QuestionRow | undefined;
}

export interface NewQuestion {
  type: QuestionType;
  stem: string;
  content: QuestionContent;
  points: number;
  difficulty: QuestionRecord["difficulty"];
  explanation: string | null;
  tags: string[];
  status: QuestionStatus;
}

/** Inserts the questions and their version 1 snapshots: two statements whatever the number of questions. */
export async function insertQuestions(
  tx: Executor,
  tenantId: string,
  bankId: string,
  items: NewQuestion[],
): Promise<QuestionRow[]> {
  const rows = (await tx
    .insert(questions)
    .values(items.map((q) => ({ tenantId, bankId, ...q })))
    .returning(columns)) as QuestionRow[];
  await tx
    .insert(questionVersions)
    .values(
      rows.map((row) => ({ tenantId, questionId: row.id, version: row.version, snapshot: snapshotOf(row) })),
    );
  return rows;
}

export async function updateQuestion(
  tx: Executor,
  tenantId: string,
  id: string,
  changes: Partial<NewQuestion> & { version?: number },
): Promise<QuestionRow> {
  const rows = await tx
    .update(questions)
    .set({ ...changes, updatedAt: sql`now()` })
    .where(and(eq(questions.tenantId, tenantId), eq(questions.id, id)))
    .returning(columns);
  return rows[0] as QuestionRow;
}

export async function insertVersion(tx: Executor, tenantId: string, row: QuestionRow): Promise<void> {
  await tx
    .insert(questionVersions)
    .values({ tenantId, questionId: row.id, version: row.version, snapshot: snapshotOf(row) });
}

/**
 * Whether any attempt drew the question. Attempts keep their drawn questions in a JSON column, so this reads the
 * tenant's attempts; it runs only when a question is deleted.
 */
export async function drawnByAnAttempt(db: Executor, tenantId: string, id: string): Promise<boolean> {
  const rows = await db
    .select({ one: sql<number>`1` })
    .from(quizAttempts)
    .where(
      and(
        eq(quizAttempts.tenantId, tenantId),
        sql`${quizAttempts.questions} @> ${JSON.stringify([{ questionId: id }])}::jsonb`,
      ),
    )
    .limit(1);
  return rows.length > 0;
}

/** Whether a quiz's fixed section names the question. */
export async function namedByAQuiz(db: Executor, tenantId: string, id: string): Promise<boolean> {
  const rows = await db
    .select({ one: sql<number>`1` })
    .from(quizzes)
    .where(
      and(
        eq(quizzes.tenantId, tenantId),
        sql`${quizzes.sections} @> ${JSON.stringify([{ source: { questionIds: [id] } }])}::jsonb`,
      ),
    )
    .limit(1);
  return rows.length > 0;
}

export async function deleteQuestion(tx: Executor, tenantId: string, id: string): Promise<void> {
  await tx.delete(questions).where(and(eq(questions.tenantId, tenantId), eq(questions.id, id)));
}
