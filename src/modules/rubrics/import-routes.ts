import { principalOf, tenantOf } from "../../platform/auth/request.js";
import type { AppContext } from "../../platform/context.js";
import { renderItemErrors, summarise } from "../../platform/http/bulk.js";
import type { App } from "../../platform/http/types.js";
import { BASE, TEACHER_RULE, tags, write } from "./access.js";
import { importRubrics } from "./import.js";
import { CSV_FORMAT, ImportRubricsBody, ImportRubricsResponse, MAX_IMPORT_ROWS } from "./import-schemas.js";

export function importRoutes(app: App, ctx: AppContext): void {
  const db = ctx.database.db;

  app.post(
    `${BASE}/rubrics/import`,
    {
      config: { access: write },
      schema: {
        tags,
        summary: "Import rubrics from CSV",
        description:
          `A JSON body whose \`csv\` holds the CSV text (the API takes JSON bodies only). ${CSV_FORMAT} Up to ` +
          `${MAX_IMPORT_ROWS} lines. Answers 200 with one result per line, in order: \`created\` (with the ` +
          "rubric's id), `failed` with the error envelope naming the line's problems (a missing name, fewer than " +
          "2 or more than 10 ratings, points that are not a number, two ratings with the same points, …), or " +
          "`skipped` with `reason: rubric_has_errors` when another line of its rubric failed: a rubric is created " +
          "whole or not at all. The whole call is 400 for CSV that cannot be read or lacks the columns " +
          `\`Rubric Name\`, \`Criteria Name\` and \`Rating Points\`. ${TEACHER_RULE}`,
        body: ImportRubricsBody,
        response: { 200: ImportRubricsResponse },
      },
    },
    async (request) => {
      const { results, rubricIds } = await importRubrics(
        db,
        tenantOf(request).id,
        principalOf(request),
        request.body,
      );
      return { results: renderItemErrors(request, results), rubricIds, summary: summarise(results) };
    },
  );
}
