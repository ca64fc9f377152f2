import { Type } from "typebox";
import { principalOf, tenantOf } from "../../platform/auth/request.js";
import type { AppContext } from "../../platform/context.js";
import { IdParams, requireUuid } from "../../platform/http/schemas.js";
import type { App } from "../../platform/http/types.js";
import { cappedTotalNote } from "../../platform/pagination/capped.js";
import { readerOf } from "../courses/audience.js";
import { quizRead, quizWrite } from "./access.js";
import { attemptRoutes } from "./attempt-routes.js";
import { CreateQuizBody, ListQuizzesQuery, Quiz, QuizPage, UpdateQuizBody } from "./schemas.js";
import * as service from "./service.js";

const tags = ["quizzes"];

export function quizRoutes(app: App, ctx: AppContext): void {
  const db = ctx.database.db;

  app.get(
    "/api/institution/quizzes",
    {
      config: { access: quizRead },
      schema: {
        tags,
        summary: "List quizzes",
        description:
          "Newest first unless `sort` says otherwise. Filter by `courseId` or `lessonId`. " +
          cappedTotalNote("unfiltered and with `courseId` alone"),
        querystring: ListQuizzesQuery,
        response: { 200: QuizPage },
      },
    },
    (request) => service.listQuizzes(db, tenantOf(request).id, request.query, readerOf(principalOf(request))),
  );

  app.post(
    "/api/institution/quizzes",
    {
      config: { access: quizWrite },
      schema: {
        tags,
        summary: "Create a quiz",
        description:
          "The quiz of a lesson of type `quiz` (400 otherwise); one per lesson (409 `conflict`). Each section " +
          "takes fixed questions (`{type: fixed, questionIds}`) or draws `pickCount` at random from a bank " +
          "(`{type: random, bankId, pickCount}`); every question and bank must be the institution's (400 naming " +
          "the field).",
        body: CreateQuizBody,
        response: { 201: Quiz },
      },
    },
    async (request, reply) => {
      const quiz = await service.createQuiz(db, tenantOf(request).id, request.body);
      reply.code(201);
      return quiz;
    },
  );

  app.get(
    "/api/institution/quizzes/:id",
    {
      config: { access: quizRead },
      schema: {
        tags,
        summary: "Get a quiz",
        description: "`pointsPossible` and `questionCount` reflect the questions as they are now.",
        params: IdParams,
        response: { 200: Quiz },
      },
    },
    (request) =>
      service.getQuiz(
        db,
        tenantOf(request).id,
        requireUuid(request.params.id),
        readerOf(principalOf(request)),
      ),
  );

  app.patch(
    "/api/institution/quizzes/:id",
    {
      config: { access: quizWrite },
      schema: {
        tags,
        summary: "Update a quiz",
        description:
          "Changes the settings given; `sections` replaces them all. Attempts already started keep the " +
          "questions they drew.",
        params: IdParams,
        body: UpdateQuizBody,
        response: { 200: Quiz },
      },
    },
    (request) => service.updateQuiz(db, tenantOf(request).id, requireUuid(request.params.id), request.body),
  );

  app.delete(
    "/api/institution/quizzes/:id",
    {
      config: { access: quizWrite, errors: [409] },
      schema: {
        tags,
        summary: "Delete a quiz",
        description: "409 `conflict` once anyone has attempted it: attempts are grade history.",
        params: IdParams,
        response: { 204: Type.Null() },
      },
    },
    async (request, reply) => {
      await service.deleteQuiz(db, tenantOf(request).id, requireUuid(request.params.id));
      reply.code(204).send(null);
    },
  );

  attemptRoutes(app, ctx);
}
