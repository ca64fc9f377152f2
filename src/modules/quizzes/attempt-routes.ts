import { principalOf, tenantOf } from "../../platform/auth/request.js";
import type { AppContext } from "../../platform/context.js";
import { IdParams, requireUuid } from "../../platform/http/schemas.js";
import type { App } from "../../platform/http/types.js";
import { cappedTotalNote } from "../../platform/pagination/capped.js";
import { attemptRead, attemptWrite } from "./access.js";
import {
  Attempt,
  AttemptPage,
  GradeAttemptBody,
  ListAttemptsQuery,
  StartAttemptBody,
  SubmitAttemptBody,
} from "./attempt-schemas.js";
import * as attempts from "./attempt-service.js";

const tags = ["quizzes"];

export function attemptRoutes(app: App, ctx: AppContext): void {
  const db = ctx.database.db;

  app.get(
    "/api/institution/quizzes/:id/attempts",
    {
      config: { access: attemptRead },
      schema: {
        tags,
        summary: "List a quiz's attempts",
        description:
          "Newest first unless `sort` says otherwise. Filter by `userId` and `status`. " +
          cappedTotalNote("unfiltered and with `status` alone"),
        params: IdParams,
        querystring: ListAttemptsQuery,
        response: { 200: AttemptPage },
      },
    },
    (request) =>
      attempts.listAttempts(db, tenantOf(request).id, requireUuid(request.params.id), request.query),
  );

  app.post(
    "/api/institution/quizzes/:id/attempts",
    {
      config: { access: attemptWrite },
      schema: {
        tags,
        summary: "Start or record an attempt",
        description:
          "For a user with a current (active or completed) enrollment in the quiz's course; 409 `conflict` " +
          "when there is none, when the user used every allowed attempt, or has one still open. The questions " +
          "are drawn now and pinned to their current versions. Without `answers` the attempt is `in_progress` " +
          "and lists its questions without their answers; with `answers` (only when every section is fixed) it " +
          "is submitted and scored at once, and `quiz_submitted` is emitted.",
        params: IdParams,
        body: StartAttemptBody,
        response: { 201: Attempt },
      },
    },
    async (request, reply) => {
      const attempt = await attempts.startAttempt(
        db,
        tenantOf(request).id,
        principalOf(request),
        requireUuid(request.params.id),
        request.body,
      );
      reply.code(201);
      return attempt;
    },
  );

  app.get(
    "/api/institution/quiz-attempts/:id",
    {
      config: { access: attemptRead },
      schema: {
        tags,
        summary: "Get an attempt",
        description: "Its drawn questions (without answers) and, once submitted, each answer's score.",
        params: IdParams,
        response: { 200: Attempt },
      },
    },
    (request) => attempts.getAttempt(db, tenantOf(request).id, requireUuid(request.params.id)),
  );

  app.post(
    "/api/institution/quiz-attempts/:id/submit",
    {
      config: { access: attemptWrite },
      schema: {
        tags,
        summary: "Submit an attempt",
        description:
          "Scores an `in_progress` attempt (409 `conflict` once submitted) and emits `quiz_submitted`. " +
          "Unanswered questions earn 0; an answered essay leaves it `pending_review` until graded. Answers " +
          "to questions the attempt did not draw, or of the wrong shape, are 400.",
        params: IdParams,
        body: SubmitAttemptBody,
        response: { 200: Attempt },
      },
    },
    (request) =>
      attempts.submitAttempt(
        db,
        tenantOf(request).id,
        principalOf(request),
        requireUuid(request.params.id),
        request.body,
      ),
  );

  app.patch(
    "/api/institution/quiz-attempts/:id",
    {
      config: { access: attemptWrite, errors: [409] },
      schema: {
        tags,
        summary: "Grade an attempt by hand",
        description:
          "Sets `pointsAwarded` (0 to the question's points) and `feedback` of submitted answers. When none is " +
          "left ungraded the attempt is `graded`, `passed` is set and `quiz_graded` is emitted with " +
          "`previousScore`. 409 `conflict` while the attempt is in progress.",
        params: IdParams,
        body: GradeAttemptBody,
        response: { 200: Attempt },
      },
    },
    (request) =>
      attempts.gradeAttempt(
        db,
        tenantOf(request).id,
        principalOf(request),
        requireUuid(request.params.id),
        request.body,
      ),
  );
}
