import { Type } from "typebox";
import { principalOf, tenantOf } from "../../platform/auth/request.js";
import type { AppContext } from "../../platform/context.js";
import { IdParams, requireUuid } from "../../platform/http/schemas.js";
import type { App } from "../../platform/http/types.js";
import { BASE, LEARNER_RULE, read, TEACHER_RULE, tags, write } from "./access.js";
import {
  CreateItemBody,
  DeleteItemQuery,
  GradeItem,
  ItemPage,
  ListItemsQuery,
  MAX_ITEMS,
  UpdateItemBody,
} from "./item-schemas.js";
import { createItem, deleteItem, getItem, listItems, updateItem } from "./items.js";

export function itemRoutes(app: App, ctx: AppContext): void {
  const db = ctx.database.db;

  app.get(
    `${BASE}/courses/:id/grade-items`,
    {
      config: { access: read },
      schema: {
        tags,
        summary: "List a course's grade items",
        description:
          "The gradebook's columns, in position order (ties by id); `gradeCount` is the item's grades. " +
          `\`pagination.total\` is exact. ${TEACHER_RULE} ${LEARNER_RULE} (its items: those visible to students).`,
        params: IdParams,
        querystring: ListItemsQuery,
        response: { 200: ItemPage },
      },
    },
    (request) =>
      listItems(
        db,
        tenantOf(request).id,
        principalOf(request),
        requireUuid(request.params.id),
        request.query,
      ),
  );

  app.post(
    `${BASE}/courses/:id/grade-items`,
    {
      config: { access: write, errors: [409] },
      schema: {
        tags,
        summary: "Create a grade item",
        description:
          `At most ${MAX_ITEMS} per course (409 \`conflict\` beyond); one item per \`sourceType\` and \`sourceId\` in ` +
          "a course (409). `categoryId` must be a category of the course (400). The course grades are recomputed " +
          `(a new item counts 0 in final scores). ${TEACHER_RULE}`,
        params: IdParams,
        body: CreateItemBody,
        response: { 201: GradeItem },
      },
    },
    async (request, reply) => {
      const item = await createItem(
        db,
        tenantOf(request).id,
        principalOf(request),
        requireUuid(request.params.id),
        request.body,
      );
      reply.code(201);
      return item;
    },
  );

  app.get(
    `${BASE}/grade-items/:id`,
    {
      config: { access: read },
      schema: {
        tags,
        summary: "Get a grade item",
        description: `${TEACHER_RULE} ${LEARNER_RULE} (an item hidden from students is 404 to it).`,
        params: IdParams,
        response: { 200: GradeItem },
      },
    },
    (request) => getItem(db, tenantOf(request).id, principalOf(request), requireUuid(request.params.id)),
  );

  app.patch(
    `${BASE}/grade-items/:id`,
    {
      config: { access: write },
      schema: {
        tags,
        summary: "Update a grade item",
        description:
          "A change of `maxPoints`, `categoryId`, `position`, `visibleToStudents` or `excludedFromFinal` recomputes " +
          `the course grades of the course's students. ${TEACHER_RULE}`,
        params: IdParams,
        body: UpdateItemBody,
        response: { 200: GradeItem },
      },
    },
    (request) =>
      updateItem(
        db,
        tenantOf(request).id,
        principalOf(request),
        requireUuid(request.params.id),
        request.body,
      ),
  );

  app.delete(
    `${BASE}/grade-items/:id`,
    {
      config: { access: write, errors: [409] },
      schema: {
        tags,
        summary: "Delete a grade item",
        description:
          "409 `conflict` while the item has grades, unless `?force=true`: then its grades are deleted with it " +
          `(their change log stays). The course grades are recomputed. ${TEACHER_RULE}`,
        params: IdParams,
        querystring: DeleteItemQuery,
        response: { 204: Type.Null() },
      },
    },
    async (request, reply) => {
      await deleteItem(
        db,
        tenantOf(request).id,
        principalOf(request),
        requireUuid(request.params.id),
        request.query.force === true,
      );
      reply.code(204).send(null);
    },
  );
}
