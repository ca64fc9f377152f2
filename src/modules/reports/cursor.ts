/**
 * Reading a report's rows: a keyset cursor. Each batch is one statement, `… WHERE (k1, k2) > (last k1, last k2)
 * ORDER BY k1, k2 LIMIT 1000`, on an index of the driving table that leads with the tenant (and the filtered
 * column), so every batch costs the same and the process holds one batch at a time.
 *
 * Why not `DECLARE … CURSOR` and FETCH: a server-side cursor lives in a transaction, and the embedded database
 * (PGlite) has one session, so a million-row report would hold every other request of every institution for its
 * whole run; on PostgreSQL it would pin a pooled connection and hold back vacuum for as long. The keyset cursor
 * streams just as flat on both, one short statement per batch, and a worker that takes a run over after a crash
 * starts it again from the start (its file is written anew).
 */
import { type SQL, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.js";

/** How a column's value leaves the database and goes into the file. */
export type ColumnKind = "text" | "time" | "number" | "json";

export interface Column {
  name: string;
  expr: SQL;
  kind: ColumnKind;
}

export interface KeyPart {
  expr: SQL;
  /** The SQL type the cursor's last value is cast back to (`uuid`, `timestamptz`). */
  cast: "uuid" | "timestamptz";
}

/** One report's query: its driving rows, their filter, and the keyset order (unique: it ends on an id). */
export interface Source {
  columns: Column[];
  from: SQL;
  where: SQL;
  keys: [KeyPart, KeyPart];
}

export const BATCH_ROWS = 1000;

function cast(value: string, to: KeyPart["cast"]): SQL {
  return to === "uuid" ? sql`${value}::uuid` : sql`${value}::timestamptz`;
}

/** `SELECT count(*)` of the source's rows: the run's `totalItems`, for its progress. */
export async function countRows(db: Executor, source: Source): Promise<number> {
  const result = (await db.execute(
    sql`SELECT count(*)::bigint AS n FROM ${source.from} WHERE ${source.where}`,
  )) as {
    rows: { n: string | number }[];
  };
  return Number(result.rows[0]?.n ?? 0);
}

/**
 * The source's rows in keyset order, a batch at a time, each batch one string of `line` (encode-sql.ts) over its
 * rows `r` (cells `r.c0`, `r.c1`, … in column order), with how many rows it holds.
 */
export async function* readEncoded(
  db: Executor,
  source: Source,
  line: SQL,
  batchRows = BATCH_ROWS,
): AsyncGenerator<{ text: string; rows: number }> {
  const select = sql.join(
    source.columns.map((c, i) => sql`${c.expr} AS ${sql.raw(`c${i}`)}`),
    sql`, `,
  );
  const [k1, k2] = source.keys;
  let after: [string, string] | undefined;
  for (;;) {
    const past =
      after === undefined
        ? sql``
        : sql`AND (${k1.expr}, ${k2.expr}) > (${cast(after[0], k1.cast)}, ${cast(after[1], k2.cast)})`;
    const result = (await db.execute(sql`
      SELECT string_agg(${line}, '' ORDER BY r.k1o, r.k2o) AS text, count(*)::int AS n,
             (array_agg(r.k1 ORDER BY r.k1o DESC, r.k2o DESC))[1] AS k1,
             (array_agg(r.k2 ORDER BY r.k1o DESC, r.k2o DESC))[1] AS k2
        FROM (SELECT ${select}, ${k1.expr} AS k1o, ${k2.expr} AS k2o, (${k1.expr})::text AS k1,
                     (${k2.expr})::text AS k2
                FROM ${source.from}
               WHERE ${source.where} ${past}
               ORDER BY ${k1.expr}, ${k2.expr}
               LIMIT ${batchRows}) r`)) as {
      rows: { text: string | null; n: number | string; k1: string | null; k2: string | null }[];
    };
    const batch = result.rows[0];
    const n = Number(batch?.n ?? 0);
    if (batch === undefined || n === 0) return;
    yield { text: batch.text ?? "", rows: n };
    after = [batch.k1 as string, batch.k2 as string];
    if (n < batchRows) return;
  }
}
