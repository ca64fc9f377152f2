import { Type } from "typebox";
import { tenantOf } from "../../platform/auth/request.js";
import type { AppContext } from "../../platform/context.js";
import { IdParams, requireUuid } from "../../platform/http/schemas.js";
import type { App } from "../../platform/http/types.js";
import { cappedTotalNote } from "../../platform/pagination/capped.js";
import { bankRead, bankWrite } from "./access.js";
import { bodyVariants } from "./body-variants.js";
import {
  BulkQuestionsBody,
  CreatedQuestionOrQuestions,
  CreateQuestionBody,
  CreateQuestionsBody,
  ListQuestionsQuery,
  Question,
  QuestionPage,
  UpdateQuestionBody,
} from "./question-schemas.js";
import * as questions from "./question-service.js";

const tags = ["question-banks"];

export function questionRoutes(app: App, ctx: AppContext): void {
  const db = ctx.database.db;

  app.get(
    "/api/institution/question-banks/:id/questions",
    {
      config: { access: bankRead },
      schema: {
        tags,
        summary: "List a bank's questions",
        description:
          "Newest first unless `sort` says otherwise. Filter by `type`, `difficulty`, `status` and `tag`; " +
          "`search` matches the stem, ignoring case and accents. Answer keys are included. " +
          cappedTotalNote("unfiltered and with `status`, `type` or `tag` alone"),
        params: IdParams,
        querystring: ListQuestionsQuery,
        response: { 200: QuestionPage },
      },
    },
    (request) =>
      questions.listQuestions(db, tenantOf(request).id, requireUuid(request.params.id), request.query),
  );

  app.post(
    "/api/institution/question-banks/:id/questions",
    {
      config: { access: bankWrite },
      // One question, or `{items}`: each shape reports only its own errors.
      validatorCompiler: bodyVariants("type", CreateQuestionBody, BulkQuestionsBody),
      schema: {
        tags,
        summary: "Add questions to a bank",
        description:
          "One question (answered with the question), or `{items: [...]}` of up to 100 created in one " +
          "transaction (answered with `{data}`): if any is refused, none is created and the details name " +
          "`items[i].field`. Each type takes its own answer key: `options` for single_choice, multiple_choice " +
          "and true_false; `acceptedAnswers` for short_answer; `numeric` for numeric; `pairs` for matching; " +
          "`items` for ordering; none for essay. Version 1 of each question is recorded.",
        params: IdParams,
        body: CreateQuestionsBody,
        response: { 201: CreatedQuestionOrQuestions },
      },
    },
    async (request, reply) => {
      const created = await questions.createQuestions(
        db,
        tenantOf(request).id,
        requireUuid(request.params.id),
        request.body,
      );
      reply.code(201);
      return created;
    },
  );

  app.get(
    "/api/institution/questions/:id",
    {
      config: { access: bankRead },
      schema: {
        tags,
        summary: "Get a question",
        description: "The question's current version, with its answer key.",
        params: IdParams,
        response: { 200: Question },
      },
    },
    (request) => questions.getQuestion(db, tenantOf(request).id, requireUuid(request.params.id)),
  );

  app.patch(
    "/api/institution/questions/:id",
    {
      config: { access: bankWrite },
      schema: {
        tags,
        summary: "Update a question",
        description:
          "`type` cannot change. A change to the stem, answer key, points, difficulty or explanation makes a new " +
          "`version` (attempts keep the version they drew); a change of `tags` or `status` alone does not.",
        params: IdParams,
        body: UpdateQuestionBody,
        response: { 200: Question },
      },
    },
    (request) =>
      questions.updateQuestion(db, tenantOf(request).id, requireUuid(request.params.id), request.body),
  );

  app.delete(
    "/api/institution/questions/:id",
    {
      config: { access: bankWrite },
      schema: {
        tags,
        summary: "Delete or retire a question",
        description:
          "Deletes the question, unless an attempt drew it or a quiz names it: then it is retired (status " +
          "`retired`, never drawn again, kept for history). 204 either way.",
        params: IdParams,
        response: { 204: Type.Null() },
      },
    },
    async (request, reply) => {
      await questions.deleteQuestion(db, tenantOf(request).id, requireUuid(request.params.id));
      reply.code(204).send(null);
    },
  );
}
