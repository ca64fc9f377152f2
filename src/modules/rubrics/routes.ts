import { Type } from "typebox";
import { principalOf, tenantOf } from "../../platform/auth/request.js";
import type { AppContext } from "../../platform/context.js";
import { IdParams, requireUuid } from "../../platform/http/schemas.js";
import type { App } from "../../platform/http/types.js";
import { cappedTotalNote } from "../../platform/pagination/capped.js";
import { BASE, learnerRead, read, TEACHER_RULE, tags, write } from "./access.js";
import { assessmentRoutes } from "./assessment-routes.js";
import { importRoutes } from "./import-routes.js";
import {
  CreateRubricBody,
  CriterionParams,
  ListRubricsQuery,
  MAX_CRITERIA,
  PutCriterionBody,
  Rubric,
  RubricPage,
  UpdateRubricBody,
} from "./schemas.js";
import * as service from "./service.js";

const VERSIONING =
  "Once an assessment was made with the current version, a change of the criteria writes the next version " +
  "(`version` + 1) and the assessments keep theirs; before that, the current version is changed in place.";

/** Rubrics (issue 23, part 2): criteria with ratings, versions, assessments that write grades, CSV import. */
export function rubricRoutes(app: App, ctx: AppContext): void {
  const db = ctx.database.db;

  app.get(
    `${BASE}/rubrics`,
    {
      config: { access: read },
      schema: {
        tags,
        summary: "List rubrics",
        description:
          "Newest first unless `sort` says otherwise, each with its current criteria. Filter by `scope`, " +
          "`courseId` and `status`; `search` matches the title, ignoring case and accents. " +
          cappedTotalNote("unfiltered and with `status` or `scope` alone"),
        querystring: ListRubricsQuery,
        response: { 200: RubricPage },
      },
    },
    (request) => service.listRubrics(db, tenantOf(request).id, request.query),
  );

  app.post(
    `${BASE}/rubrics`,
    {
      config: { access: write },
      schema: {
        tags,
        summary: "Create a rubric",
        description:
          `1 to ${MAX_CRITERIA} criteria, each with 2 to 10 ratings whose points lie between 0 and the ` +
          "criterion's and differ from each other (400 naming each problem); ratings are stored highest first. " +
          "`courseId` must be a course of the institution (400). The rubric starts at version 1. " +
          TEACHER_RULE,
        body: CreateRubricBody,
        response: { 201: Rubric },
      },
    },
    async (request, reply) => {
      const rubric = await service.createRubric(db, tenantOf(request).id, principalOf(request), request.body);
      reply.code(201);
      return rubric;
    },
  );

  app.get(
    `${BASE}/rubrics/:id`,
    {
      config: { access: learnerRead },
      schema: {
        tags,
        summary: "Get a rubric",
        description:
          "With its current version's criteria. Its assessments are listed by `GET /rubrics/:id/assessments`. " +
          "A student's session reads institution rubrics and those of the courses it may read (404 otherwise).",
        params: IdParams,
        response: { 200: Rubric },
      },
    },
    (request) =>
      service.getRubric(db, tenantOf(request).id, principalOf(request), requireUuid(request.params.id)),
  );

  app.patch(
    `${BASE}/rubrics/:id`,
    {
      config: { access: write },
      schema: {
        tags,
        summary: "Update a rubric",
        description:
          "Changes the fields given; `criteria` replaces them all (a criterion or rating given with its `id` " +
          `keeps it). The scope and course of a rubric do not change. ${VERSIONING} ${TEACHER_RULE}`,
        params: IdParams,
        body: UpdateRubricBody,
        response: { 200: Rubric },
      },
    },
    (request) =>
      service.updateRubric(
        db,
        tenantOf(request).id,
        principalOf(request),
        requireUuid(request.params.id),
        request.body,
      ),
  );

  app.delete(
    `${BASE}/rubrics/:id`,
    {
      config: { access: write },
      schema: {
        tags,
        summary: "Delete or archive a rubric",
        description:
          "A rubric never assessed is deleted: 204 (grade items naming it lose their rubric). One with " +
          "assessments is archived instead, since they keep its versions: 200 with the rubric, `status: " +
          `"archived"\`. ${TEACHER_RULE}`,
        params: IdParams,
        response: { 200: Rubric, 204: Type.Null() },
      },
    },
    async (request, reply) => {
      const archived = await service.deleteRubric(
        db,
        tenantOf(request).id,
        principalOf(request),
        requireUuid(request.params.id),
      );
      if (archived !== undefined) return archived;
      reply.code(204).send(null);
    },
  );

  app.put(
    `${BASE}/rubrics/:id/criteria/:criterionId`,
    {
      config: { access: write },
      schema: {
        tags,
        summary: "Create or replace a criterion",
        description:
          "Upserts the criterion with this id: 201 with the rubric when it is new (placed last, or at " +
          `\`position\`), 200 when it replaced one (in its place, or moved to \`position\`). At most ` +
          `${MAX_CRITERIA} criteria. ${VERSIONING} ${TEACHER_RULE}`,
        params: CriterionParams,
        body: PutCriterionBody,
        response: { 200: Rubric, 201: Rubric },
      },
    },
    async (request, reply) => {
      const { rubric, created } = await service.putCriterion(
        db,
        tenantOf(request).id,
        principalOf(request),
        requireUuid(request.params.id),
        requireUuid(request.params.criterionId),
        request.body,
      );
      reply.code(created ? 201 : 200);
      return rubric;
    },
  );

  app.delete(
    `${BASE}/rubrics/:id/criteria/:criterionId`,
    {
      config: { access: write, errors: [409] },
      schema: {
        tags,
        summary: "Delete a criterion",
        description: `409 \`conflict\` for the rubric's last criterion. ${VERSIONING} ${TEACHER_RULE}`,
        params: CriterionParams,
        response: { 204: Type.Null() },
      },
    },
    async (request, reply) => {
      await service.deleteCriterion(
        db,
        tenantOf(request).id,
        principalOf(request),
        requireUuid(request.params.id),
        requireUuid(request.params.criterionId),
      );
      reply.code(204).send(null);
    },
  );

  assessmentRoutes(app, ctx);
  importRoutes(app, ctx);
}
