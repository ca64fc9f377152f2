import { principalOf, tenantOf } from "../../platform/auth/request.js";
import type { AppContext } from "../../platform/context.js";
import { IdParams, requireUuid } from "../../platform/http/schemas.js";
import type { App } from "../../platform/http/types.js";
import { cappedTotalNote } from "../../platform/pagination/capped.js";
import { TEACHER_RULE } from "../gradebook/access.js";
import { attemptRead, attemptWrite } from "./access.js";
import {
  Attempt,
  AttemptPage,
  ListAttemptsQuery,
  StartAttemptBody,
  SubmitAttemptBody,
  UpdateAttemptBody,
} from "./attempt-schemas.js";
import * as attempts from "./attempt-service.js";

const tags = ["quizzes"];
/** Attempts are grades: the gradebook's rule for teachers holds here too, so grading is no way around it. */
const ATTEMPT_RULE = TEACHER_RULE.replace("course's gradebook is", "course's quiz attempts are");

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
          "Newest first unless `sort` says otherwise. Filter by `userId` and `status`. Each attempt carries " +
          "its user's `keptScore` and `keptPercent` (the quiz's scoring policy over their graded attempts). " +
          `${cappedTotalNote("unfiltered and with `status` alone")} ${ATTEMPT_RULE}`,
        params: IdParams,
        querystring: ListAttemptsQuery,
        response: { 200: AttemptPage },
      },
    },
    (request) =>
      attempts.listAttempts(
        db,
        tenantOf(request).id,
        principalOf(request),
        requireUuid(request.params.id),
        request.query,
      ),
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
          "when there is none, when the user used every allowed attempt (attempts closed when their time was " +
          "up count), or has one still open (one whose time and grace are over is first closed as the worker " +
          "would close it). The questions are drawn now and pinned to their current versions, " +
          "and so is the quiz's time limit: a timed attempt's `endsAt` is its start plus `timeLimitSeconds`. " +
          "Without `answers` the attempt is `in_progress` and lists its questions without their answers; with " +
          "`answers` (only when every section is fixed) it is submitted and scored at once, and `quiz_submitted` " +
          "is emitted. An attempt taken elsewhere must have been taken in time: on a timed quiz, a " +
          "`timeSpentSeconds` more than the limit plus 30 s of grace is 400 `validation_failed` and nothing is " +
          `recorded. ${ATTEMPT_RULE}`,
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
        description: `Its drawn questions (without answers) and, once submitted, each answer's score. ${ATTEMPT_RULE}`,
        params: IdParams,
        response: { 200: Attempt },
      },
    },
    (request) =>
      attempts.getAttempt(db, tenantOf(request).id, principalOf(request), requireUuid(request.params.id)),
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
          "to questions the attempt did not draw, or of the wrong shape, are 400. A timed attempt takes a " +
          "submission up to 30 s after its `endsAt` (the grace covers network latency, not more time to " +
          'answer); a later one is refused with 409 `conflict` ("time for this attempt ran out") and changes ' +
          "nothing. The worker closes the attempt within about a minute (or the user's next start does): it is " +
          "submitted with no answers " +
          "(scored 0), `submittedAt` = `endsAt`, by the system, with `quiz_submitted`, the scoring policy and " +
          "the gradebook as for any submission. A `timeSpentSeconds` more than the attempt's time allowed " +
          `(limit + extra time) plus the grace is 400. ${ATTEMPT_RULE}`,
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
        summary: "Grade an attempt or give it extra time",
        description:
          "`answers` sets `pointsAwarded` (0 to the question's points) and `feedback` of a submitted attempt's " +
          "answers (409 `conflict` while it is in progress). When none is left ungraded the attempt is " +
          "`graded`, `passed` is set and `quiz_graded` is emitted with `previousScore`. `extraTimeSeconds` " +
          "(0 to 604,800, replacing what was given) moves an open timed attempt's `endsAt` to its start + the " +
          "limit + the extra time, even after the end has passed while the worker has not yet closed it; 409 " +
          `\`conflict\` once the attempt is submitted. ${ATTEMPT_RULE}`,
        params: IdParams,
        body: UpdateAttemptBody,
        response: { 200: Attempt },
      },
    },
    (request) =>
      attempts.updateAttempt(
        db,
        tenantOf(request).id,
        principalOf(request),
        requireUuid(request.params.id),
        request.body,
      ),
  );
}
