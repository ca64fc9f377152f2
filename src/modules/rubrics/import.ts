import type { Executor } from "../../db/client.js";
import { AppError, type DetailKey, validationError } from "../../platform/errors/app-error.js";
import type { Actor } from "../events/actor.js";
import { normaliseCriteria } from "./criteria.js";
import { parseCsv } from "./csv.js";
import { type ImportRubricsInput, MAX_IMPORT_ROWS } from "./import-schemas.js";
import { type CriterionInputType, MAX_CRITERIA, MAX_RATINGS, MIN_RATINGS } from "./schemas.js";
import { assertPlace, insertRubric } from "./service.js";

export interface ImportResult {
  row: number;
  rubricTitle: string;
  status: "created" | "skipped" | "failed";
  rubricId?: string;
  reason?: "rubric_has_errors";
  error?: AppError;
}

interface Columns {
  rubric: number;
  criterion: number;
  description: number | undefined;
  range: number | undefined;
  ratings: { name?: number; description?: number; points?: number }[];
}

const REQUIRED = "Rubric Name, Criteria Name, Rating Name, Rating Points";

/** The columns by header name (any case); 400 when a required one is missing. */
function columnsOf(header: string[]): Columns {
  const names = header.map((h) => h.trim().toLowerCase());
  const ratings: Columns["ratings"] = [];
  names.forEach((name, i) => {
    const last = ratings.at(-1);
    if (name === "rating name") ratings.push({ name: i });
    else if (name === "rating description" || name === "rating points") {
      const key = name === "rating description" ? "description" : "points";
      if (last === undefined || last[key] !== undefined) ratings.push({ [key]: i });
      else last[key] = i;
    }
  });
  const rubric = names.indexOf("rubric name");
  const criterion = names.indexOf("criteria name");
  if (rubric < 0 || criterion < 0 || !ratings.some((r) => r.points !== undefined))
    throw validationError("csv", "field.csv_columns", { columns: REQUIRED });
  const optional = (name: string) => (names.includes(name) ? names.indexOf(name) : undefined);
  return {
    rubric,
    criterion,
    description: optional("criteria description"),
    range: optional("criteria enable range"),
    ratings,
  };
}

/** One line as a criterion, or the problems of the line (400 details, as the criterion's own PUT would name). */
function criterionOf(fields: string[], cols: Columns): CriterionInputType | DetailKey[] {
  const at = (i: number | undefined) => (i === undefined ? "" : (fields[i] ?? "").trim());
  const details: DetailKey[] = [];
  const text = (field: string, value: string, max: number, required: boolean) => {
    if (required && value === "") details.push({ field, key: "field.required" });
    else if (value.length > max) details.push({ field, key: "field.max_length", params: { limit: max } });
  };
  text("Rubric Name", at(cols.rubric), 255, true);
  const description = at(cols.criterion);
  text("Criteria Name", description, 255, true);
  const longDescription = at(cols.description);
  text("Criteria Description", longDescription, 5000, false);
  const ratings = cols.ratings
    .map((r) => ({ name: at(r.name), description: at(r.description), points: at(r.points) }))
    .filter((r) => r.name !== "" || r.description !== "" || r.points !== "")
    .map((r, j) => {
      const points = Number(r.points);
      text(`ratings[${j}].description`, r.name, 255, true);
      text(`ratings[${j}].longDescription`, r.description, 5000, false);
      if (r.points === "" || !Number.isFinite(points) || points < 0)
        details.push({ field: `ratings[${j}].points`, key: "field.invalid" });
      return { description: r.name, longDescription: r.description === "" ? null : r.description, points };
    });
  if (ratings.length < MIN_RATINGS)
    details.push({ field: "ratings", key: "field.min_items", params: { limit: MIN_RATINGS } });
  if (ratings.length > MAX_RATINGS)
    details.push({ field: "ratings", key: "field.max_items", params: { limit: MAX_RATINGS } });
  const points = Math.max(0, ...ratings.map((r) => (Number.isFinite(r.points) ? r.points : 0)));
  if (details.length === 0 && points <= 0)
    details.push({ field: "ratings", key: "field.exclusive_minimum", params: { limit: 0 } });
  if (details.length > 0) return details;
  const criterion = {
    description,
    longDescription: longDescription === "" ? null : longDescription,
    points,
    useRange: at(cols.range).toLowerCase() === "true",
    ratings,
  };
  try {
    normaliseCriteria([criterion], () => "");
  } catch (err) {
    if (err instanceof AppError && err.details !== undefined) return err.details;
    throw err;
  }
  return criterion;
}

const failed = (details: DetailKey[]) => new AppError("validation_failed", { details });

/**
 * Imports rubrics from CSV text (format in import-schemas.ts), in one transaction: each line is checked on its
 * own and answered with its line number; a rubric is created when all its lines are good, and otherwise its good
 * lines are `skipped` (`rubric_has_errors`). The whole call is 400 for unreadable CSV, missing columns or more
 * than MAX_IMPORT_ROWS lines, and 400/403 for a course that is unknown or not the teacher's.
 */
export async function importRubrics(
  db: Executor,
  tenantId: string,
  actor: Actor,
  input: ImportRubricsInput,
): Promise<{ results: ImportResult[]; rubricIds: string[] }> {
  const records = parseCsv(input.csv);
  if (records === null || records.length === 0) throw validationError("csv", "field.invalid");
  const [header, ...rows] = records;
  const cols = columnsOf((header as { fields: string[] }).fields);
  if (rows.length > MAX_IMPORT_ROWS)
    throw validationError("csv", "field.max_items", { limit: MAX_IMPORT_ROWS });
  const place = { title: "import", courseId: input.courseId ?? null, criteria: [] };
  return db.transaction(async (tx) => {
    await assertPlace(tx, tenantId, actor, place);
    const groups = new Map<string, { row: number; result: CriterionInputType | DetailKey[] }[]>();
    for (const { line, fields } of rows) {
      const title = (fields[cols.rubric] ?? "").trim();
      const group = groups.get(title) ?? [];
      let result = criterionOf(fields, cols);
      if (!Array.isArray(result) && group.length >= MAX_CRITERIA)
        result = [{ field: "Criteria Name", key: "field.max_items", params: { limit: MAX_CRITERIA } }];
      group.push({ row: line, result });
      groups.set(title, group);
    }
    const results: ImportResult[] = [];
    const rubricIds: string[] = [];
    for (const [title, group] of groups) {
      const bad = group.some((g) => Array.isArray(g.result));
      let rubricId: string | undefined;
      if (!bad) {
        const criteria = group.map((g) => g.result as CriterionInputType);
        rubricId = await insertRubric(tx, tenantId, actor, { title, courseId: place.courseId, criteria });
        rubricIds.push(rubricId);
      }
      for (const g of group) {
        if (Array.isArray(g.result))
          results.push({ row: g.row, rubricTitle: title, status: "failed", error: failed(g.result) });
        else if (bad)
          results.push({ row: g.row, rubricTitle: title, status: "skipped", reason: "rubric_has_errors" });
        else results.push({ row: g.row, rubricTitle: title, status: "created", rubricId });
      }
    }
    return { results: results.sort((x, y) => x.row - y.row), rubricIds };
  });
}
