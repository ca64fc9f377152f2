import { Type } from "typebox";
import { principalOf, tenantOf } from "../../platform/auth/request.js";
import type { AppContext } from "../../platform/context.js";
import { IdParams, requireUuid } from "../../platform/http/schemas.js";
import type { App } from "../../platform/http/types.js";
import { BASE, LEARNER_RULE, read, staffRead, TEACHER_RULE, tags } from "./access.js";
import { listChanges } from "./changes.js";
import { COURSE_GRADE_RULE } from "./compute.js";
import { gradebookCsv } from "./csv.js";
import { ChangePage, ListChangesQuery } from "./grade-schemas.js";
import { readGradebook } from "./gradebook.js";
import { Gradebook, GradebookQuery } from "./gradebook-schemas.js";

export function gradebookRoutes(app: App, ctx: AppContext): void {
  const db = ctx.database.db;

  app.get(
    `${BASE}/courses/:id/gradebook`,
    {
      config: { access: read },
      schema: {
        tags,
        summary: "Read a course's gradebook",
        description:
          "`columns`: the course's grade items in position order. `data`: a page of its students (student " +
          "enrollments that are not dropped, oldest first), each with its course grade and its grades keyed by " +
          "item id. `pagination.total` is exact (counters); a page costs the same in any course. " +
          `${COURSE_GRADE_RULE} ${TEACHER_RULE} ${LEARNER_RULE} (its own row; \`unposted…\` are null).`,
        params: IdParams,
        querystring: GradebookQuery,
        response: { 200: Gradebook },
      },
    },
    (request) =>
      readGradebook(
        db,
        tenantOf(request).id,
        principalOf(request),
        requireUuid(request.params.id),
        request.query,
      ),
  );

  app.get(
    `${BASE}/courses/:id/grade-changes`,
    {
      config: { access: staffRead },
      schema: {
        tags,
        summary: "Read a course's grade change log",
        description:
          "Every change of a grade's score, status, override or posting, newest first: who (`actor`: a user, or " +
          "the API key that made it), through what (`via`), when, and the values before and after. Append-only; " +
          `entries outlive a deleted item. \`pagination.total\` is exact. ${TEACHER_RULE}`,
        params: IdParams,
        querystring: ListChangesQuery,
        response: { 200: ChangePage },
      },
    },
    (request) =>
      listChanges(
        db,
        tenantOf(request).id,
        principalOf(request),
        requireUuid(request.params.id),
        request.query,
      ),
  );

  app.get(
    `${BASE}/courses/:id/gradebook.csv`,
    {
      config: { access: read },
      schema: {
        tags,
        operationId: "courses.gradebook.export",
        summary: "Export a course's gradebook as CSV",
        description:
          "The gradebook's rows as CSV (RFC 4180, UTF-8, CRLF), streamed: a header line (student, e-mail, user id, " +
          "enrollment status, one column per item titled with its maxPoints, the course grade's scores and " +
          "letters), then one line per student in gradebook order. A cell holds the effective score, or the " +
          "status of a grade without one (`excused`, `missing`); empty without a grade. Text a spreadsheet would " +
          `read as a formula is prefixed with \`'\`. ${TEACHER_RULE} ${LEARNER_RULE} (its own line).`,
        params: IdParams,
        response: {
          200: { description: "A CSV document.", content: { "text/csv": { schema: Type.String() } } },
        },
      },
    },
    async (request, reply) => {
      const stream = await gradebookCsv(
        db,
        tenantOf(request).id,
        principalOf(request),
        requireUuid(request.params.id),
      );
      reply
        .type("text/csv; charset=utf-8")
        .header("content-disposition", 'attachment; filename="gradebook.csv"');
      // A stream: Fastify pipes it; the schema documents the text it carries.
      return reply.send(stream as unknown as string);
    },
  );
}
