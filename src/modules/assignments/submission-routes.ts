import { principalOf, tenantOf } from "../../platform/auth/request.js";
import type { AppContext } from "../../platform/context.js";
import { IdParams, requireUuid } from "../../platform/http/schemas.js";
import type { App } from "../../platform/http/types.js";
import {
  BASE,
  commentWrite,
  submissionGrade,
  submissionRead,
  submissionSubmit,
  TEACHER_RULE,
  tags,
} from "./access.js";
import {
  addComment,
  Comment,
  CommentPage,
  CreateCommentBody,
  ListCommentsQuery,
  listComments,
} from "./comments.js";
import { updateSubmission } from "./grade.js";
import {
  CreateSubmissionBody,
  LessonParams,
  ListSubmissionsQuery,
  SubmissionDetail,
  SubmissionPage,
  UpdateSubmissionBody,
} from "./submission-schemas.js";
import { getSubmission, listSubmissions } from "./submissions.js";
import { createSubmission } from "./submit.js";

const LEARNER_RULE = "A student's session submits and reads its own submissions only (another's is 404).";

export function submissionRoutes(app: App, ctx: AppContext): void {
  const db = ctx.database.db;

  app.post(
    `${BASE}/lessons/:lessonId/submissions`,
    {
      config: { access: submissionSubmit, errors: [409] },
      schema: {
        tags,
        summary: "Hand in an assignment",
        description:
          "A new attempt for the student (`userId`, required from staff and keys) of the lesson's assignment " +
          "(404 when the lesson has none). Give the kinds the assignment allows: `bodyText` (text), " +
          "`attachmentMediaIds` (file: ready files of the institution), `url` (https); another kind is 400. " +
          "409 `conflict` without a current student enrollment, after the student's lock date, or when its " +
          "attempts are used up (unless a resubmission was requested). The earlier attempt moves to `history`; " +
          "`late` and `secondsLate` are measured from the student's due date (its extension's, if any). Emits " +
          "`assignment_submitted`; completes the lesson when its criterion is `submit`. " +
          `${LEARNER_RULE} ${TEACHER_RULE}`,
        params: LessonParams,
        body: CreateSubmissionBody,
        response: { 201: SubmissionDetail },
      },
    },
    async (request, reply) => {
      const submission = await createSubmission(
        db,
        tenantOf(request).id,
        principalOf(request),
        requireUuid(request.params.lessonId),
        request.body,
      );
      reply.code(201);
      return submission;
    },
  );

  app.get(
    `${BASE}/lessons/:lessonId/submissions`,
    {
      config: { access: submissionRead },
      schema: {
        tags,
        summary: "List a lesson's submissions",
        description:
          "One per student (its latest attempt), oldest first; filter by `userId` or `status` (`missing`: the " +
          "worker's mark for a student who handed nothing in by its due date). `pagination.total` is exact. " +
          `${LEARNER_RULE} ${TEACHER_RULE}`,
        params: LessonParams,
        querystring: ListSubmissionsQuery,
        response: { 200: SubmissionPage },
      },
    },
    (request) =>
      listSubmissions(
        db,
        tenantOf(request).id,
        principalOf(request),
        requireUuid(request.params.lessonId),
        request.query,
      ),
  );

  app.get(
    `${BASE}/submissions/:id`,
    {
      config: { access: submissionRead },
      schema: {
        tags,
        summary: "Get a submission",
        description: `With its earlier attempts (\`history\`). ${LEARNER_RULE} ${TEACHER_RULE}`,
        params: IdParams,
        response: { 200: SubmissionDetail },
      },
    },
    (request) =>
      getSubmission(db, tenantOf(request).id, principalOf(request), requireUuid(request.params.id)),
  );

  app.patch(
    `${BASE}/submissions/:id`,
    {
      config: { access: submissionGrade },
      schema: {
        tags,
        summary: "Grade, return or ask for a resubmission",
        description:
          "`score` grades the submission (0 to pointsPossible × 1.5): a late one loses what the assignment's " +
          "late policy deducts (`deductedPoints`, `finalScore`). The final score is written, in the same " +
          "transaction, to the grade item fed by the assignment (status `late` for a late submission) through " +
          "the gradebook: its change log, the course grade and `grade_posted`/`grade_updated`. Emits " +
          "`assignment_graded`. `status: returned` needs a score; `resubmission_requested` lets the student " +
          `submit again even when its attempts are used up. ${TEACHER_RULE}`,
        params: IdParams,
        body: UpdateSubmissionBody,
        response: { 200: SubmissionDetail },
      },
    },
    (request) =>
      updateSubmission(
        db,
        tenantOf(request).id,
        principalOf(request),
        requireUuid(request.params.id),
        request.body,
      ),
  );

  app.post(
    `${BASE}/submissions/:id/comments`,
    {
      config: { access: commentWrite },
      schema: {
        tags,
        summary: "Comment on a submission",
        description: `By its student or the course's staff (or an API key). ${LEARNER_RULE} ${TEACHER_RULE}`,
        params: IdParams,
        body: CreateCommentBody,
        response: { 201: Comment },
      },
    },
    async (request, reply) => {
      const comment = await addComment(
        db,
        tenantOf(request).id,
        principalOf(request),
        requireUuid(request.params.id),
        request.body.body,
      );
      reply.code(201);
      return comment;
    },
  );

  app.get(
    `${BASE}/submissions/:id/comments`,
    {
      config: { access: submissionRead },
      schema: {
        tags,
        summary: "List a submission's comments",
        description: `Oldest first; \`pagination.total\` is exact. ${LEARNER_RULE} ${TEACHER_RULE}`,
        params: IdParams,
        querystring: ListCommentsQuery,
        response: { 200: CommentPage },
      },
    },
    (request) =>
      listComments(
        db,
        tenantOf(request).id,
        principalOf(request),
        requireUuid(request.params.id),
        request.query,
      ),
  );
}
