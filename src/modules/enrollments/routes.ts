import { Type } from "typebox";
import { principalOf, tenantOf } from "../../platform/auth/request.js";
import type { AppContext } from "../../platform/context.js";
import { itemErrorBody, summarise } from "../../platform/http/bulk.js";
import { IdParams, requireUuid } from "../../platform/http/schemas.js";
import type { App } from "../../platform/http/types.js";
import { cappedTotalNote } from "../../platform/pagination/capped.js";
import { read, write } from "./access.js";
import { bulkEnroll } from "./bulk-enroll.js";
import { BulkEnrollBody, BulkEnrollResponse, MAX_BULK_ITEMS } from "./bulk-schemas.js";
import { completionRoutes } from "./completion-routes.js";
import { enrollmentProgress } from "./progress.js";
import {
  CreateEnrollmentBody,
  DeleteEnrollmentQuery,
  Enrollment,
  EnrollmentPage,
  EnrollmentProgress,
  ListEnrollmentsQuery,
  ListUserEnrollmentsQuery,
  UpdateEnrollmentBody,
} from "./schemas.js";
import * as service from "./service.js";

const tags = ["enrollments"];

const PROGRESS_NOTE =
  "`progressPercent`, `lessonsCompleted` and `lessonsTotal` are computed from the user's lesson completions: " +
  "published lessons required for completion count, others do not.";

export function enrollmentRoutes(app: App, ctx: AppContext): void {
  const db = ctx.database.db;

  app.get(
    "/api/institution/enrollments",
    {
      config: { access: read },
      schema: {
        tags,
        summary: "List enrollments",
        description: `Newest first unless \`sort=createdAt\`. Filter by user, course, class group, status and role. ${PROGRESS_NOTE} ${cappedTotalNote("unfiltered, for a status, a course or a user alone, and for a course or a user with a status")}`,
        querystring: ListEnrollmentsQuery,
        response: { 200: EnrollmentPage },
      },
    },
    (request) => service.listEnrollments(db, tenantOf(request).id, request.query),
  );

  app.post(
    "/api/institution/enrollments",
    {
      config: { access: write, errors: [422, 503] },
      schema: {
        tags,
        summary: "Enroll a user in a course",
        description:
          "The user, the course and the class group must belong to this institution (400 naming the field). " +
          "A user has at most one current (not dropped) enrollment per course: another is 409 `conflict`. " +
          "Enrolling a user who is not a `student` as a student counts against the plan's student limit " +
          "(422 `student_limit_reached`, 503 `student_limit_unverifiable`; nothing is created). " +
          "`expiresAt` must be later than `startsAt`. Emits `enrollment_created`.",
        body: CreateEnrollmentBody,
        response: { 201: Enrollment },
      },
    },
    async (request, reply) => {
      const enrollment = await service.createEnrollment(
        db,
        ctx.config.plans,
        tenantOf(request).id,
        principalOf(request),
        request.body,
      );
      reply.code(201);
      return enrollment;
    },
  );

  app.post(
    "/api/institution/enrollments/bulk",
    {
      config: { access: write, errors: [503] },
      schema: {
        tags,
        summary: "Enroll many users at once",
        description:
          `Up to ${MAX_BULK_ITEMS} items, each naming its user by \`userId\` or \`email\` (ignoring case); more is ` +
          "400 before anything is done. Answers 200 with one result per item: `created` (with the enrollment), " +
          "`skipped` with `reason: already_enrolled` (a current enrollment exists, or an earlier item made it), " +
          "or `failed` with the error envelope the single route would give (non-students enrolled as students " +
          "past the plan's student limit fail with `student_limit_reached`). Emits `enrollment_created` per " +
          "created item.",
        body: BulkEnrollBody,
        response: { 200: BulkEnrollResponse },
      },
    },
    async (request) => {
      const results = await bulkEnroll(
        db,
        ctx.config.plans,
        tenantOf(request).id,
        principalOf(request),
        request.body.items,
      );
      return {
        results: results.map(({ error, ...rest }) =>
          error === undefined ? rest : { ...rest, error: itemErrorBody(request, error) },
        ),
        summary: summarise(results),
      };
    },
  );

  app.get(
    "/api/institution/enrollments/:id",
    {
      config: { access: read },
      schema: {
        tags,
        summary: "Get an enrollment",
        description: PROGRESS_NOTE,
        params: IdParams,
        response: { 200: Enrollment },
      },
    },
    (request) => service.getEnrollment(db, tenantOf(request).id, requireUuid(request.params.id)),
  );

  app.patch(
    "/api/institution/enrollments/:id",
    {
      config: { access: write, errors: [409, 422, 503] },
      schema: {
        tags,
        summary: "Update an enrollment",
        description:
          "Change its status (`active`, `suspended`, `dropped`, `expired`), expiry or class group. Dropping " +
          "emits `enrollment_dropped` (mode `drop`); taking a dropped enrollment back while the user has " +
          "another current one in the course is 409, and counts against the plan's student limit as a new " +
          "student enrollment would (422).",
        params: IdParams,
        body: UpdateEnrollmentBody,
        response: { 200: Enrollment },
      },
    },
    (request) =>
      service.updateEnrollment(
        db,
        ctx.config.plans,
        tenantOf(request).id,
        principalOf(request),
        requireUuid(request.params.id),
        request.body,
      ),
  );

  app.delete(
    "/api/institution/enrollments/:id",
    {
      config: { access: write },
      schema: {
        tags,
        summary: "Drop or delete an enrollment",
        description:
          "`mode=drop` (the default) keeps the enrollment with status `dropped`; `mode=delete` removes it. " +
          "Both emit `enrollment_dropped`. The user's lesson completions are kept.",
        params: IdParams,
        querystring: DeleteEnrollmentQuery,
        response: { 204: Type.Null() },
      },
    },
    async (request, reply) => {
      await service.deleteEnrollment(
        db,
        tenantOf(request).id,
        principalOf(request),
        requireUuid(request.params.id),
        request.query.mode ?? "drop",
      );
      reply.code(204).send(null);
    },
  );

  app.get(
    "/api/institution/enrollments/:id/progress",
    {
      config: { access: read },
      schema: {
        tags,
        summary: "Get an enrollment's progress per lesson",
        description:
          "Every published lesson of the course in outline order, with whether it is required and when the " +
          "user completed it, plus the totals.",
        params: IdParams,
        response: { 200: EnrollmentProgress },
      },
    },
    (request) => enrollmentProgress(db, tenantOf(request).id, requireUuid(request.params.id)),
  );

  app.get(
    "/api/institution/users/:id/enrollments",
    {
      config: { access: read },
      schema: {
        tags,
        summary: "List a user's enrollments",
        description: `Newest first unless \`sort=createdAt\`; 404 for an unknown user. ${PROGRESS_NOTE} ${cappedTotalNote("unless `courseId` filters")}`,
        params: IdParams,
        querystring: ListUserEnrollmentsQuery,
        response: { 200: EnrollmentPage },
      },
    },
    (request) =>
      service.listUserEnrollments(db, tenantOf(request).id, requireUuid(request.params.id), request.query),
  );

  completionRoutes(app, ctx);
}
