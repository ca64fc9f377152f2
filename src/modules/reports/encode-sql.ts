/**
 * A report's rows encoded by PostgreSQL: each batch comes back as ONE string, its lines in keyset order, with its
 * row count and the keyset position of its last row.
 *
 * Why in the database: encoded in JavaScript, a batch of 1,000 rows arrived as 1,000 row objects and some 11,000
 * cell strings, garbage within milliseconds; at the rate a report streams (50,000+ rows a second) some of it was
 * always in flight at two scavenges, was promoted, and the old generation grew by the report's size until a full
 * collection (peak RSS 435 MB for 1,000,000 rows, 150 MB at rest). One string per batch allocates next to nothing.
 *
 * The encoding is the one the JavaScript encoder had, byte for byte (reports.test.ts holds the cases):
 * - CSV (RFC 4180): a field is quoted when it holds a quote, a comma or a line break; text a spreadsheet would run
 *   as a formula (`=`, `+`, `-`, `@`, tab, carriage return first) is prefixed with `'` (platform/http/csv.ts);
 *   NULL is empty; lines end in CRLF.
 * - JSON lines: one object per row, its keys in column order, compact (`row_to_json`), LF.
 * - Numbers as JavaScript prints them (float8's shortest text: `50`, `33.33`); times as ISO 8601 UTC with
 *   milliseconds; a profile value as text (a list joined by `; `), a number, or NULL.
 */
import { type SQL, sql } from "drizzle-orm";
import { csvField } from "../../platform/http/csv.js";
import type { ReportFormat } from "./catalogue.js";
import type { Column } from "./cursor.js";

/** A custom profile field: a column of the users report, read from the row's profile values by its id. */
export interface ProfileField {
  id: string;
  key: string;
}

/** One output column: its header name and its value over the batch's row `r` (cells c0…cN as cursor.ts reads). */
interface OutputColumn {
  name: string;
  csv: SQL;
  json: SQL;
}

/** csvField (platform/http/csv.ts) of a text value. */
function csvText(value: SQL): SQL {
  return sql`(SELECT CASE WHEN s IS NULL THEN ''
      WHEN s ~ '[",\\r\\n]' THEN '"' || replace(s, '"', '""') || '"' ELSE s END
    FROM (SELECT CASE WHEN v ~ '^[-=+@\\t\\r]' THEN '''' || v ELSE v END AS s
      FROM (SELECT (${value})::text AS v) i) o)`;
}

const iso = (value: SQL) => sql`to_char((${value}) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
const numberText = (value: SQL) => sql`((${value})::float8)::text`;

/** A profile value as text: a list's items joined by `; ` (as `String(item)` each), a scalar as its text. */
function profileText(v: SQL): SQL {
  return sql`CASE jsonb_typeof(${v})
    WHEN 'array' THEN coalesce((SELECT string_agg(CASE jsonb_typeof(e) WHEN 'string' THEN e #>> '{}'
        WHEN 'number' THEN ((e::text)::float8)::text ELSE e::text END, '; ' ORDER BY n)
      FROM jsonb_array_elements(${v}) WITH ORDINALITY AS a(e, n)), '')
    WHEN 'string' THEN ${v} #>> '{}'
    WHEN 'boolean' THEN ${v}::text END`;
}

function outputColumns(columns: Column[], fields: ProfileField[]): OutputColumn[] {
  return columns.flatMap((c, i): OutputColumn[] => {
    const cell = sql.raw(`r.c${i}`);
    if (c.kind === "json") {
      return fields.map((f) => {
        const v = sql`(${cell} -> ${f.id}::text)`;
        return {
          name: `profile.${f.key}`,
          csv: sql`CASE jsonb_typeof(${v}) WHEN 'number' THEN ((${v}::text)::float8)::text
            ELSE ${csvText(profileText(v))} END`,
          json: sql`CASE jsonb_typeof(${v}) WHEN 'number' THEN to_json((${v}::text)::float8)
            ELSE to_json(${profileText(v)}) END`,
        };
      });
    }
    if (c.kind === "number") {
      return [{ name: c.name, csv: sql`coalesce(${numberText(cell)}, '')`, json: sql`(${cell})::float8` }];
    }
    if (c.kind === "time") {
      return [{ name: c.name, csv: sql`coalesce(${iso(cell)}, '')`, json: iso(cell) }];
    }
    return [{ name: c.name, csv: csvText(cell), json: sql`(${cell})::text` }];
  });
}

/** The header line (CSV only: JSON lines name each value in its line). */
export function headerOf(format: ReportFormat, columns: Column[], fields: ProfileField[]): string {
  if (format === "jsonl") return "";
  return `${outputColumns(columns, fields)
    .map((c) => csvField(c.name))
    .join(",")}\r\n`;
}

/** The text of one row `r` as a line of the format. */
export function lineOf(format: ReportFormat, columns: Column[], fields: ProfileField[]): SQL {
  const out = outputColumns(columns, fields);
  if (format === "csv") {
    return sql`(${sql.join(
      out.map((c) => c.csv),
      sql` || ',' || `,
    )} || E'\\r\\n')`;
  }
  const named = sql.join(
    out.map((c) => sql`${c.json} AS ${sql.identifier(c.name)}`),
    sql`, `,
  );
  return sql`((SELECT row_to_json(j) FROM (SELECT ${named}) j)::text || E'\\n')`;
}
