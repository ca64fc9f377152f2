import { Type } from "typebox";
import { principalOf, tenantOf } from "../../platform/auth/request.js";
import type { AppContext } from "../../platform/context.js";
import { IdParams, requireUuid } from "../../platform/http/schemas.js";
import type { App } from "../../platform/http/types.js";
import { BASE, LEARNER_RULE, read, TEACHER_RULE, tags, write } from "./access.js";
import { createCategory, deleteCategory, listCategories, updateCategory } from "./categories.js";
import { COURSE_GRADE_RULE } from "./compute.js";
import {
  CategoryPage,
  CreateCategoryBody,
  GradeCategory,
  ListCategoriesQuery,
  MAX_CATEGORIES,
  UpdateCategoryBody,
} from "./item-schemas.js";

export function categoryRoutes(app: App, ctx: AppContext): void {
  const db = ctx.database.db;

  app.get(
    `${BASE}/courses/:id/grade-categories`,
    {
      config: { access: read },
      schema: {
        tags,
        summary: "List a course's grade categories",
        description: `In position order (ties by id); \`pagination.total\` is exact. ${TEACHER_RULE} ${LEARNER_RULE}`,
        params: IdParams,
        querystring: ListCategoriesQuery,
        response: { 200: CategoryPage },
      },
    },
    (request) =>
      listCategories(
        db,
        tenantOf(request).id,
        principalOf(request),
        requireUuid(request.params.id),
        request.query,
      ),
  );

  app.post(
    `${BASE}/courses/:id/grade-categories`,
    {
      config: { access: write, errors: [409] },
      schema: {
        tags,
        summary: "Create a grade category",
        description:
          `At most ${MAX_CATEGORIES} per course (409 \`conflict\` beyond). A weight recomputes every student's ` +
          `course grade. ${COURSE_GRADE_RULE} ${TEACHER_RULE}`,
        params: IdParams,
        body: CreateCategoryBody,
        response: { 201: GradeCategory },
      },
    },
    async (request, reply) => {
      const category = await createCategory(
        db,
        tenantOf(request).id,
        principalOf(request),
        requireUuid(request.params.id),
        request.body,
      );
      reply.code(201);
      return category;
    },
  );

  app.patch(
    `${BASE}/grade-categories/:id`,
    {
      config: { access: write },
      schema: {
        tags,
        summary: "Update a grade category",
        description: `A new weight or drop rule recomputes the course grades of the course's students. ${TEACHER_RULE}`,
        params: IdParams,
        body: UpdateCategoryBody,
        response: { 200: GradeCategory },
      },
    },
    (request) =>
      updateCategory(
        db,
        tenantOf(request).id,
        principalOf(request),
        requireUuid(request.params.id),
        request.body,
      ),
  );

  app.delete(
    `${BASE}/grade-categories/:id`,
    {
      config: { access: write },
      schema: {
        tags,
        summary: "Delete a grade category",
        description: `Its items stay, in no category; the course grades are recomputed. ${TEACHER_RULE}`,
        params: IdParams,
        response: { 204: Type.Null() },
      },
    },
    async (request, reply) => {
      await deleteCategory(db, tenantOf(request).id, principalOf(request), requireUuid(request.params.id));
      reply.code(204).send(null);
    },
  );
}
