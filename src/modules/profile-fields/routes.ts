import { Type } from "typebox";
import { admins, staff } from "../../platform/auth/access.js";
import { tenantOf } from "../../platform/auth/request.js";
import type { AppContext } from "../../platform/context.js";
import { IdParams, requireUuid } from "../../platform/http/schemas.js";
import type { App } from "../../platform/http/types.js";
import {
  CreateProfileFieldBody,
  ListProfileFieldsQuery,
  OrderProfileFieldsBody,
  ProfileField,
  ProfileFieldList,
  ProfileFieldPage,
  UpdateProfileFieldBody,
} from "./schemas.js";
import * as service from "./service.js";

const tags = ["profile-fields"];
/** Staff read the definitions (forms, filters); the contract puts profile-config under `settings:*`. */
const read = staff("settings:read");
const write = admins("settings:write");

export function profileFieldRoutes(app: App, ctx: AppContext): void {
  const db = ctx.database.db;

  app.get(
    "/api/institution/profile-fields",
    {
      config: { access: read },
      schema: {
        tags,
        summary: "List custom profile fields",
        description: "In their order unless `sort` says otherwise; filter by `status` and `type`.",
        querystring: ListProfileFieldsQuery,
        response: { 200: ProfileFieldPage },
      },
    },
    (request) => service.listFields(db, tenantOf(request).id, request.query),
  );

  app.post(
    "/api/institution/profile-fields",
    {
      config: { access: write },
      schema: {
        tags,
        summary: "Create a custom profile field",
        description:
          "Added at the end of the order. `options` are required for `select` and `multiselect` and refused " +
          "otherwise; `validation` rules must fit the type (`min`/`max` for numbers and multiselect counts, " +
          "`minLength`/`maxLength` for text types, `pattern` for text, textarea and phone, refused if it could " +
          "backtrack catastrophically); `unique` is refused for multiselect, checkbox and textarea. A key in use " +
          "is 409, and so is a 101st field.",
        body: CreateProfileFieldBody,
        response: { 201: ProfileField },
      },
    },
    async (request, reply) => {
      reply.code(201);
      return service.createField(db, tenantOf(request).id, request.body);
    },
  );

  app.put(
    "/api/institution/profile-fields/order",
    {
      config: { access: write },
      schema: {
        tags,
        summary: "Order the custom profile fields",
        description:
          "`ids` lists every field (archived ones too) exactly once, in the new order; 400 otherwise.",
        body: OrderProfileFieldsBody,
        response: { 200: ProfileFieldList },
      },
    },
    async (request) => ({ data: await service.orderFields(db, tenantOf(request).id, request.body.ids) }),
  );

  app.get(
    "/api/institution/profile-fields/:id",
    {
      config: { access: read },
      schema: {
        tags,
        summary: "Get a custom profile field",
        params: IdParams,
        response: { 200: ProfileField },
      },
    },
    (request) => service.getField(db, tenantOf(request).id, requireUuid(request.params.id)),
  );

  app.patch(
    "/api/institution/profile-fields/:id",
    {
      config: { access: write, errors: [409] },
      schema: {
        tags,
        summary: "Change or archive a custom profile field",
        description:
          "`key` and `type` never change. `status: archived` archives the field (its values are kept, no " +
          "longer asked for, shown or filtered by); `active` restores it. Making a field `unique` while two users " +
          "share a value is 409.",
        params: IdParams,
        body: UpdateProfileFieldBody,
        response: { 200: ProfileField },
      },
    },
    (request) => service.updateField(db, tenantOf(request).id, requireUuid(request.params.id), request.body),
  );

  app.delete(
    "/api/institution/profile-fields/:id",
    {
      config: { access: write },
      schema: {
        tags,
        summary: "Delete a custom profile field",
        description: "Deletes the field and every user's value of it; archive it instead to keep them.",
        params: IdParams,
        response: { 204: Type.Null() },
      },
    },
    async (request, reply) => {
      await service.deleteField(db, tenantOf(request).id, requireUuid(request.params.id));
      reply.code(204).send(null);
    },
  );
}
