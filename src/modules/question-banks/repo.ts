import { and, asc, desc, eq, type SQL, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import { readCounter } from "../../db/counters.js";
import { type Bindable, likeContains, runPageQuery } from "../../db/page-query.js";
import { qualified } from "../../db/qualified.js";
import { questionBanks, questions, quizzes } from "../../db/schema/index.js";
import { type CappedTotal, countCapped, exactTotal } from "../../platform/pagination/capped.js";
import type { PageWindow } from "../../platform/pagination/pagination.js";
import type { BankRecord, BankSort, BankStatus, CreateBankInput, UpdateBankInput } from "./schemas.js";

/** The bank's question count is the counter the questions triggers keep, read in the same statement. */
const columns = {
  id: questionBanks.id,
  title: questionBanks.title,
  description: questionBanks.description,
  courseId: questionBanks.courseId,
  status: questionBanks.status,
  questionCount: sql<number>`coalesce((SELECT c.value FROM tenant_counters c
    WHERE c.tenant_id = ${qualified(questionBanks.tenantId)}
    AND c.counter = 'questions:bank_id:' || ${qualified(questionBanks.id)}::text), 0)::int`.as(
    "question_count",
  ),
  createdAt: questionBanks.createdAt,
  updatedAt: questionBanks.updatedAt,
};

export interface BankFilter {
  status?: BankStatus;
  courseId?: string;
  search?: string;
}

function where(tenantId: Bindable, f: { status?: Bindable; course?: Bindable; pattern?: Bindable }): SQL {
  return and(
    eq(questionBanks.tenantId, tenantId),
    f.status === undefined ? undefined : eq(questionBanks.status, f.status),
    f.course === undefined ? undefined : eq(questionBanks.courseId, f.course),
    f.pattern === undefined ? undefined : sql`aula_fold(${questionBanks.title}) LIKE aula_fold(${f.pattern})`,
  ) as SQL;
}

function bindings(filter: BankFilter) {
  return {
    status: filter.status,
    course: filter.courseId,
    pattern: filter.search === undefined ? undefined : likeContains(filter.search),
  };
}

/** Every order ends on the id, so equal values page stably. Titles sort ignoring case and accents. */
const ORDER: Record<BankSort, SQL[]> = {
  createdAt: [asc(questionBanks.createdAt), asc(questionBanks.id)],
  "-createdAt": [desc(questionBanks.createdAt), desc(questionBanks.id)],
  title: [sql`aula_fold(${questionBanks.title})`, asc(questionBanks.title), asc(questionBanks.id)],
  "-title": [sql`aula_fold(${questionBanks.title}) DESC`, desc(questionBanks.title), desc(questionBanks.id)],
};

export async function listBanks(
  db: Executor,
  tenantId: string,
  filter: BankFilter,
  sort: BankSort,
  window: PageWindow,
): Promise<BankRecord[]> {
  // One prepared statement per (sort, filter shape); names stay well under PostgreSQL's 63 characters.
  const list = `qbank_${sort.replace("-", "d_")}`;
  const rows = await runPageQuery(
    db,
    list,
    tenantId,
    bindings(filter),
    window,
    (p, name) =>
      db
        .select(columns)
        .from(questionBanks)
        .where(where(p.tenantId, p))
        .orderBy(...ORDER[sort])
        .limit(p.limit)
        .offset(p.offset)
        .prepare(name),
    // A search's generic plan would walk the tenant in list order, filtering every row, for a rare term: each
    // search is planned for its own term (the trigram index's few matches, or the order for a common one).
    { customPlan: ["pattern"] },
  );
  return rows as BankRecord[];
}

/**
 * Unfiltered and status-filtered totals are the counters the triggers keep (exact); a search or a course counts
 * its matches up to the platform's cap, newest first.
 */
export async function countBanks(db: Executor, tenantId: string, filter: BankFilter): Promise<CappedTotal> {
  if (filter.courseId === undefined && filter.search === undefined) {
    const name = filter.status === undefined ? "question_banks" : `question_banks:status:${filter.status}`;
    return exactTotal(await readCounter(db, tenantId, name));
  }
  return countCapped(db, questionBanks, where(tenantId, bindings(filter)), ORDER["-createdAt"]);
}

export async function findBank(
  db: Executor,
  tenantId: string,
  id: string,
  lock = false,
): Promise<BankRecord | undefined> {
  const query = db
    .select(columns)
    .from(questionBanks)
    .where(and(eq(questionBanks.tenantId, tenantId), eq(questionBanks.id, id)));
  const rows = await (lock ? query.for("update") : query);
  return rows[0] as BankRecord | undefined;
}

export async function insertBank(db: Executor, tenantId: string, input: CreateBankInput): Promise<string> {
  const rows = await db
    .insert(questionBanks)
    .values({
      tenantId,
      title: input.title,
      description: input.description ?? null,
      courseId: input.courseId ?? null,
      status: input.status ?? "active",
    })
    .returning({ id: questionBanks.id });
  return (rows[0] as { id: string }).id;
}

export async function updateBank(
  db: Executor,
  tenantId: string,
  id: string,
  input: UpdateBankInput,
): Promise<boolean> {
  const rows = await db
    .update(questionBanks)
    .set({ ...input, updatedAt: sql`now()` })
    .where(and(eq(questionBanks.tenantId, tenantId), eq(questionBanks.id, id)))
    .returning({ id: questionBanks.id });
  return rows.length > 0;
}

/**
 * Whether a quiz section draws from the bank or names one of its questions. Sections live in a JSON column, so
 * this reads the tenant's quizzes; deleting a bank is rare and a tenant has far fewer quizzes than attempts.
 */
export async function bankInUse(db: Executor, tenantId: string, bankId: string): Promise<boolean> {
  const rows = await db
    .select({ one: sql<number>`1` })
    .from(quizzes)
    .where(
      and(
        eq(quizzes.tenantId, tenantId),
        sql`EXISTS (
          SELECT 1 FROM jsonb_array_elements(${quizzes.sections}) s
          WHERE s -> 'source' ->> 'bankId' = ${bankId}
          OR EXISTS (
            SELECT 1 FROM jsonb_array_elements_text(coalesce(s -> 'source' -> 'questionIds', '[]'::jsonb)) q(id)
            JOIN ${questions} x ON x.tenant_id = ${tenantId} AND x.id::text = q.id AND x.bank_id = ${bankId}
          )
        )`,
      ),
    )
    .limit(1);
  return rows.length > 0;
}

export async function deleteBank(db: Executor, tenantId: string, id: string): Promise<void> {
  await db.delete(questionBanks).where(and(eq(questionBanks.tenantId, tenantId), eq(questionBanks.id, id)));
}
