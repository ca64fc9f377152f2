import { Type } from "typebox";
import { admins, staff } from "../../platform/auth/access.js";
import { principalOf, tenantOf } from "../../platform/auth/request.js";
import type { AppContext } from "../../platform/context.js";
import { IdParams, requireUuid } from "../../platform/http/schemas.js";
import type { App } from "../../platform/http/types.js";
import {
  CompiledVariables,
  CreateThemeBody,
  ListThemesQuery,
  Theme,
  ThemePage,
  UpdateThemeBody,
} from "./schemas.js";
import * as service from "./service.js";

const tags = ["themes"];
const read = staff("settings:read");
const write = admins("settings:write");

export function themeRoutes(app: App, ctx: AppContext): void {
  const db = ctx.database.db;

  app.get(
    "/api/institution/themes",
    {
      config: { access: read },
      schema: {
        tags,
        summary: "List themes",
        description: "Newest first unless `sort` says otherwise; filter by `status`.",
        querystring: ListThemesQuery,
        response: { 200: ThemePage },
      },
    },
    (request) => service.listThemes(db, tenantOf(request).id, request.query),
  );

  app.post(
    "/api/institution/themes",
    {
      config: { access: write },
      schema: {
        tags,
        summary: "Create a theme",
        description:
          "A `draft` until activated. Colours are `#RRGGBB`, fonts come from an allow-list, the border radius is " +
          "0–24 px; `customCss` (at most 50,000 characters) is sanitised before it is stored.",
        body: CreateThemeBody,
        response: { 201: Theme },
      },
    },
    async (request, reply) => {
      reply.code(201);
      return service.createTheme(db, tenantOf(request).id, request.body);
    },
  );

  app.get(
    "/api/institution/themes/active/variables",
    {
      config: { access: { kind: "tenant" } },
      schema: {
        tags,
        summary: "Get the active theme, compiled",
        description:
          "Every brand variable of the active theme (defaults filled in; version 0 when none is active) and one CSS " +
          "text of `:root` custom properties plus the theme's sanitised CSS. Public on the institution's host, so " +
          "the sign-in page can be branded. Cacheable by version: the `ETag` is the theme and its version, and a " +
          "request whose `If-None-Match` names it is answered 304 without a body.",
        response: {
          200: CompiledVariables,
          304: Type.Null({ description: "Not modified: the cached copy is current." }),
        },
      },
    },
    async (request, reply) => {
      const compiled = await service.compiledVariables(db, tenantOf(request).id);
      const etag = `"${compiled.themeId ?? "default"}-${compiled.version}"`;
      reply.header("etag", etag).header("cache-control", "no-cache");
      if (request.headers["if-none-match"] === etag) {
        reply.code(304).send(null);
        return reply;
      }
      return compiled;
    },
  );

  app.get(
    "/api/institution/themes/:id",
    {
      config: { access: read },
      schema: { tags, summary: "Get a theme", params: IdParams, response: { 200: Theme } },
    },
    (request) => service.getTheme(db, tenantOf(request).id, requireUuid(request.params.id)),
  );

  app.patch(
    "/api/institution/themes/:id",
    {
      config: { access: write, errors: [409] },
      schema: {
        tags,
        summary: "Change a theme",
        description:
          "Every change adds one to `version`. `variables` replaces the whole set. `status` moves a theme between " +
          "`draft` and `archived`; the active theme cannot be (409: activate another first).",
        params: IdParams,
        body: UpdateThemeBody,
        response: { 200: Theme },
      },
    },
    (request) => service.updateTheme(db, tenantOf(request).id, requireUuid(request.params.id), request.body),
  );

  app.delete(
    "/api/institution/themes/:id",
    {
      config: { access: write, errors: [409] },
      schema: {
        tags,
        summary: "Delete a theme",
        description: "The active theme cannot be deleted (409).",
        params: IdParams,
        response: { 204: Type.Null() },
      },
    },
    async (request, reply) => {
      await service.deleteTheme(db, tenantOf(request).id, requireUuid(request.params.id));
      reply.code(204).send(null);
    },
  );

  app.post(
    "/api/institution/themes/:id/activate",
    {
      config: { access: write },
      schema: {
        tags,
        summary: "Activate a theme",
        description:
          "Makes the theme the only active one (the previous active theme returns to `draft`) and records " +
          "`theme_activated`. Activating the active theme changes nothing.",
        params: IdParams,
        response: { 200: Theme },
      },
    },
    (request) =>
      service.activateTheme(db, tenantOf(request).id, principalOf(request), requireUuid(request.params.id)),
  );
}
