import { Readable } from "node:stream";
import { Type } from "typebox";
import { admins, signedIn, staff } from "../../platform/auth/access.js";
import { principalOf, tenantOf } from "../../platform/auth/request.js";
import type { AppContext } from "../../platform/context.js";
import { notFound } from "../../platform/errors/app-error.js";
import { IdParams, requireUuid } from "../../platform/http/schemas.js";
import type { App } from "../../platform/http/types.js";
import type { OutboundClient } from "../../platform/outbound/client.js";
import { runPrompt, streamPrompt } from "./run.js";
import {
  CreatePromptBody,
  ListPromptsQuery,
  Prompt,
  PromptPage,
  RenderBody,
  Rendered,
  RunBody,
  RunResult,
  UpdatePromptBody,
  VersionPage,
  VersionParams,
  VersionsQuery,
} from "./schemas.js";
import * as service from "./service.js";

const tags = ["prompts"];

/** A path's version number; anything else names no version. */
function versionOf(raw: string): number {
  if (!/^[1-9][0-9]{0,8}$/.test(raw)) throw notFound();
  return Number(raw);
}
const BASE = "/api/institution/prompts";
const read = staff("ai:read");
const write = admins("ai:write");

export function promptRoutes(app: App, ctx: AppContext, client: OutboundClient): void {
  const db = ctx.database.db;
  const deps = { ctx, client, config: ctx.config.ai };

  app.get(
    BASE,
    {
      config: { access: read },
      schema: { tags, summary: "List prompts", querystring: ListPromptsQuery, response: { 200: PromptPage } },
    },
    (request) => service.listPrompts(db, tenantOf(request).id, request.query),
  );

  app.post(
    BASE,
    {
      config: { access: write, errors: [409] },
      schema: {
        tags,
        summary: "Create a prompt",
        description:
          "Version 1 of a template. A placeholder used but not declared in `variables`, or declared but unused, is " +
          "400 naming it. One `active` prompt per feature and scope: another is 409 `conflict`.",
        body: CreatePromptBody,
        response: { 201: Prompt },
      },
    },
    async (request, reply) => {
      reply.code(201);
      return service.createPrompt(db, tenantOf(request).id, request.body);
    },
  );

  app.get(
    `${BASE}/:id`,
    {
      config: { access: read },
      schema: { tags, summary: "Get a prompt", params: IdParams, response: { 200: Prompt } },
    },
    (request) => service.getPrompt(db, tenantOf(request).id, requireUuid(request.params.id)),
  );

  app.patch(
    `${BASE}/:id`,
    {
      config: { access: write, errors: [409] },
      schema: {
        tags,
        summary: "Update a prompt",
        description: "A change of `template`, `variables` or `modelParams` writes the next version.",
        params: IdParams,
        body: UpdatePromptBody,
        response: { 200: Prompt },
      },
    },
    (request) => service.updatePrompt(db, tenantOf(request).id, requireUuid(request.params.id), request.body),
  );

  app.delete(
    `${BASE}/:id`,
    {
      config: { access: write },
      schema: {
        tags,
        summary: "Archive a prompt",
        description: "Its versions are kept.",
        params: IdParams,
        response: { 204: Type.Null() },
      },
    },
    async (request, reply) => {
      await service.archivePrompt(db, tenantOf(request).id, requireUuid(request.params.id));
      reply.code(204).send(null);
    },
  );

  app.get(
    `${BASE}/:id/versions`,
    {
      config: { access: read },
      schema: {
        tags,
        summary: "List a prompt's versions",
        description: "Newest first.",
        params: IdParams,
        querystring: VersionsQuery,
        response: { 200: VersionPage },
      },
    },
    (request) =>
      service.listVersions(db, tenantOf(request).id, requireUuid(request.params.id), request.query),
  );

  app.post(
    `${BASE}/:id/versions/:version/restore`,
    {
      config: { access: write },
      schema: {
        tags,
        summary: "Restore a prompt version",
        description: "Copies that version's content into a new current version.",
        params: VersionParams,
        response: { 200: Prompt },
      },
    },
    (request) =>
      service.restoreVersion(
        db,
        tenantOf(request).id,
        requireUuid(request.params.id),
        versionOf(request.params.version),
      ),
  );

  app.post(
    `${BASE}/:id/render`,
    {
      config: { access: read },
      schema: {
        tags,
        summary: "Render a prompt (no model call)",
        description:
          "Fills the variables in; a missing required variable, or an undeclared one, is 400 naming it.",
        params: IdParams,
        body: RenderBody,
        response: { 200: Rendered },
      },
    },
    async (request) => {
      const { variables, version } = request.body;
      const r = await service.renderPrompt(
        db,
        tenantOf(request).id,
        requireUuid(request.params.id),
        variables,
        version,
      );
      return { version: r.version, rendered: r.rendered, model: r.model };
    },
  );

  app.post(
    `${BASE}/:id/run`,
    {
      config: { access: signedIn("ai:write"), errors: [409, 429, 502, 503] },
      schema: {
        tags,
        summary: "Run a prompt",
        description:
          "Renders the current version and calls the AI provider within the institution's AI limits; every call is " +
          "written to the usage ledger. Students' sessions run `active` prompts only. 503 `ai_not_configured` " +
          "without a provider; 429 `rate_limit_exceeded` with `retryAfter` when a limit is used up; 502 " +
          "`ai_provider_error` when the provider fails after its retries; 503 `ai_limit_unverifiable` when the " +
          "limits cannot be checked. With `stream: true` the answer is `text/event-stream`: `delta` events " +
          "`{text}`, then `done` (this body without `text`) or `error`.",
        params: IdParams,
        body: RunBody,
        response: {
          200: {
            description: "The answer, or with `stream: true` its Server-Sent Events.",
            content: {
              "application/json": {
                schema: RunResult,
                example: (RunResult as { examples?: unknown[] }).examples?.[0],
              },
              "text/event-stream": { schema: Type.String() },
            },
          },
        },
      },
    },
    async (request, reply) => {
      const args = [
        deps,
        tenantOf(request).id,
        principalOf(request),
        requireUuid(request.params.id),
        request.body,
      ] as const;
      if (request.body.stream !== true) return runPrompt(...args);
      // The client going away aborts the provider's request (run.ts settles what it used).
      const gone = new AbortController();
      reply.raw.on("close", () => {
        if (!reply.raw.writableFinished) gone.abort();
      });
      const events = await streamPrompt(...args, gone.signal);
      reply.header("content-type", "text/event-stream; charset=utf-8").header("cache-control", "no-cache");
      return reply.send(Readable.from(events) as never);
    },
  );
}
