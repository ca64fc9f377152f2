import { Type } from "typebox";
import { tenantOf } from "../../platform/auth/request.js";
import type { AppContext } from "../../platform/context.js";
import { IdParams, requireUuid } from "../../platform/http/schemas.js";
import type { App } from "../../platform/http/types.js";
import { cappedTotalNote } from "../../platform/pagination/capped.js";
import { bankRead, bankWrite } from "./access.js";
import { questionRoutes } from "./question-routes.js";
import { Bank, BankPage, CreateBankBody, ListBanksQuery, UpdateBankBody } from "./schemas.js";
import * as service from "./service.js";

const tags = ["question-banks"];
export function questionBankRoutes(app: App, ctx: AppContext): void {
  const db = ctx.database.db;

  app.get(
    "/api/institution/question-banks",
    {
      config: { access: bankRead },
      schema: {
        tags,
        summary: "List question banks",
        description:
          "Newest first unless `sort` says otherwise. Filter by `status` and `courseId`; `search` matches the " +
          "title, ignoring case and accents. " +
          cappedTotalNote("unfiltered and with `status` alone"),
        querystring: ListBanksQuery,
        response: { 200: BankPage },
      },
    },
    (request) => service.listBanks(db, tenantOf(request).id, request.query),
  );

  app.post(
    "/api/institution/question-banks",
    {
      config: { access: bankWrite },
      schema: {
        tags,
        summary: "Create a question bank",
        description: "`courseId`, when given, must be a course of the institution (400 otherwise).",
        body: CreateBankBody,
        response: { 201: Bank },
      },
    },
    async (request, reply) => {
      const bank = await service.createBank(db, tenantOf(request).id, request.body);
      reply.code(201);
      return bank;
    },
  );

  app.get(
    "/api/institution/question-banks/:id",
    {
      config: { access: bankRead },
      schema: {
        tags,
        summary: "Get a question bank",
        description: "`questionCount` counts its active and retired questions.",
        params: IdParams,
        response: { 200: Bank },
      },
    },
    (request) => service.getBank(db, tenantOf(request).id, requireUuid(request.params.id)),
  );

  app.patch(
    "/api/institution/question-banks/:id",
    {
      config: { access: bankWrite },
      schema: {
        tags,
        summary: "Update a question bank",
        description:
          "Changes the fields given. An `archived` bank keeps its questions and can still be drawn from.",
        params: IdParams,
        body: UpdateBankBody,
        response: { 200: Bank },
      },
    },
    (request) => service.updateBank(db, tenantOf(request).id, requireUuid(request.params.id), request.body),
  );

  app.delete(
    "/api/institution/question-banks/:id",
    {
      config: { access: bankWrite, errors: [409] },
      schema: {
        tags,
        summary: "Delete a question bank",
        description:
          "Deletes the bank and its questions. 409 `conflict` while a quiz section draws from the bank or names " +
          "one of its questions. Attempts keep the questions they drew.",
        params: IdParams,
        response: { 204: Type.Null() },
      },
    },
    async (request, reply) => {
      await service.deleteBank(db, tenantOf(request).id, requireUuid(request.params.id));
      reply.code(204).send(null);
    },
  );

  questionRoutes(app, ctx);
}
