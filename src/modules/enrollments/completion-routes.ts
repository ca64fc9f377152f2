import { Type } from "typebox";
import { principalOf, tenantOf } from "../../platform/auth/request.js";
import type { AppContext } from "../../platform/context.js";
import { IdParams, requireUuid } from "../../platform/http/schemas.js";
import type { App } from "../../platform/http/types.js";
import { cappedTotalNote } from "../../platform/pagination/capped.js";
import { read, write } from "./access.js";
import {
  Completion,
  CompletionPage,
  CompletionParams,
  ListCompletionsQuery,
  RecordCompletionBody,
} from "./completion-schemas.js";
import { listCompletions, recordCompletion, resetCompletion } from "./completions.js";

const tags = ["completions"];

export function completionRoutes(app: App, ctx: AppContext): void {
  const db = ctx.database.db;

  app.get(
    "/api/institution/lessons/:id/completions",
    {
      config: { access: read },
      schema: {
        tags,
        summary: "List a lesson's completions",
        description:
          "Newest first unless `sort=completedAt`. Filter by `userId` and by `since` (inclusive). " +
          cappedTotalNote("unfiltered"),
        params: IdParams,
        querystring: ListCompletionsQuery,
        response: { 200: CompletionPage },
      },
    },
    (request) => listCompletions(db, tenantOf(request).id, requireUuid(request.params.id), request.query),
  );

  app.put(
    "/api/institution/lessons/:id/completions/:userId",
    {
      config: { access: write, errors: [409] },
      schema: {
        tags,
        summary: "Mark a lesson complete for a user",
        description:
          "Idempotent: the first call records the completion (201) and emits `lesson_completed`, then " +
          "`module_completed` and `enrollment_completed` when it finishes the module or the course (the " +
          "enrollment becomes `completed`, with `certificate_issued` when the course names an active certificate " +
          "template); a repeat answers 200 with the stored completion and changes " +
          "nothing. The user needs an active or completed enrollment in the lesson's course (409 otherwise). " +
          "`source` is `api` for API keys and `teacher` for sessions.",
        params: CompletionParams,
        body: RecordCompletionBody,
        response: { 200: Completion, 201: Completion },
      },
      // Every field is optional, so a PUT without a body is a plain "mark complete" rather than a 400.
      preValidation: async (request) => {
        request.body ??= {};
      },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      const tenantId = tenantOf(request).id;
      const lessonId = requireUuid(request.params.id);
      const userId = requireUuid(request.params.userId);
      const result = await db.transaction((tx) =>
        recordCompletion(tx, {
          tenantId,
          lessonId,
          userId,
          source: principal.kind === "key" ? "api" : "teacher",
          timeSpentSeconds: request.body.timeSpentSeconds,
          scorePercent: request.body.scorePercent,
          actor: principal,
        }),
      );
      reply.code(result.created ? 201 : 200);
      return result.completion;
    },
  );

  app.delete(
    "/api/institution/lessons/:id/completions/:userId",
    {
      config: { access: write },
      schema: {
        tags,
        summary: "Reset a user's completion of a lesson",
        description:
          "Removes the completion (404 when there is none) and emits `lesson_completion_reset`. A completed " +
          "enrollment whose course is no longer complete becomes `active` again.",
        params: CompletionParams,
        response: { 204: Type.Null() },
      },
    },
    async (request, reply) => {
      await resetCompletion(
        db,
        tenantOf(request).id,
        principalOf(request),
        requireUuid(request.params.id),
        requireUuid(request.params.userId),
      );
      reply.code(204).send(null);
    },
  );
}
