import { Type } from "typebox";
import { admins } from "../../platform/auth/access.js";
import { tenantOf } from "../../platform/auth/request.js";
import type { AppContext } from "../../platform/context.js";
import { AppError } from "../../platform/errors/app-error.js";
import { publicOrigin } from "../../platform/http/host.js";
import { IdParams, requireUuid } from "../../platform/http/schemas.js";
import type { App } from "../../platform/http/types.js";
import { TOTAL_CAP } from "../../platform/pagination/capped.js";
import {
  BounceBody,
  BounceResult,
  ListMessagesQuery,
  Message,
  MessagePage,
  Queued,
  SendMessagesBody,
} from "./message-schemas.js";
import {
  CreateTemplateBody,
  DeleteTemplateQuery,
  GetTemplateQuery,
  KeyParams,
  ListTemplatesQuery,
  PreviewBody,
  PutTemplateBody,
  Rendered,
  Template,
  TemplatePage,
  TemplateSet,
} from "./schemas.js";
import * as service from "./service.js";

const tags = ["email"];
/** Templates and the message log hold every recipient's address: administrators, or keys with `settings:*`. */
const read = admins("settings:read");
const write = admins("settings:write");

export function emailRoutes(app: App, ctx: AppContext): void {
  const { config } = ctx;
  const db = ctx.database.db;

  app.get(
    "/api/institution/email/templates",
    {
      config: { access: read },
      schema: {
        tags,
        summary: "List e-mail templates",
        description:
          "Every built-in key in each of the four locales (the institution's version where it has one, " +
          "`customized: true`), then its `custom.*` templates. Filter by `locale` and `customized`.",
        querystring: ListTemplatesQuery,
        response: { 200: TemplatePage },
      },
    },
    (request) => service.listTemplates(db, tenantOf(request).id, request.query),
  );

  app.post(
    "/api/institution/email/templates",
    {
      config: { access: write, errors: [409] },
      schema: {
        tags,
        summary: "Create a custom e-mail template",
        description:
          "A `custom.<name>` template of the institution, in one locale (add the others with PUT). It may use " +
          "any placeholder; `name`, `email` and `institutionName` are filled for every recipient, the rest from " +
          "the `variables` of POST /email/messages. A key the institution already has is 409.",
        body: CreateTemplateBody,
        response: { 201: Template },
      },
    },
    async (request, reply) => {
      reply.code(201);
      return service.createCustomTemplate(db, tenantOf(request).id, request.body);
    },
  );

  app.get(
    "/api/institution/email/templates/:key",
    {
      config: { access: read },
      schema: {
        tags,
        summary: "Get an e-mail template",
        description:
          "The key in every locale (or the one `locale` names), with the variables it is rendered with.",
        params: KeyParams,
        querystring: GetTemplateQuery,
        response: { 200: TemplateSet },
      },
    },
    (request) => service.getTemplateSet(db, tenantOf(request).id, request.params.key, request.query.locale),
  );

  app.put(
    "/api/institution/email/templates/:key",
    {
      config: { access: write },
      schema: {
        tags,
        summary: "Override an e-mail template in one locale",
        description:
          "Stores the institution's version of a built-in key, or of one of its `custom.*` templates, in one " +
          "locale (a custom key it does not have is 404: create it with POST). The HTML is sanitised (scripts, styles, handlers and non-http(s)/mailto links removed). A " +
          "placeholder a built-in key is not rendered with is 400, naming it and the field.",
        params: KeyParams,
        body: PutTemplateBody,
        response: { 200: Template },
      },
    },
    (request) => service.putTemplate(db, tenantOf(request).id, request.params.key, request.body),
  );

  app.delete(
    "/api/institution/email/templates/:key",
    {
      config: { access: write },
      schema: {
        tags,
        summary: "Revert or delete an e-mail template",
        description:
          "A built-in key goes back to the default (in `locale`, or in every locale). A custom template is " +
          "deleted; one that does not exist is 404.",
        params: KeyParams,
        querystring: DeleteTemplateQuery,
        response: { 204: Type.Null() },
      },
    },
    async (request, reply) => {
      await service.deleteTemplate(db, tenantOf(request).id, request.params.key, request.query.locale);
      reply.code(204).send(null);
    },
  );

  app.post(
    "/api/institution/email/templates/:key/preview",
    {
      config: { access: read },
      schema: {
        tags,
        summary: "Preview an e-mail template",
        description:
          "Renders the key in `locale` (or the draft `subject`/`bodyHtml`/`bodyText` given) with `variables`, " +
          "and sample values for the placeholders not given. Nothing is stored or sent.",
        params: KeyParams,
        body: PreviewBody,
        response: { 200: Rendered },
      },
    },
    async (request) => {
      const tenantId = tenantOf(request).id;
      return service.previewTemplate(
        db,
        tenantId,
        request.params.key,
        request.body,
        await service.institutionName(db, tenantId),
      );
    },
  );

  app.post(
    "/api/institution/email/messages",
    {
      config: { access: write },
      schema: {
        tags,
        summary: "Send e-mail to users",
        description:
          "Queues one message per recipient (`userIds`, up to 1,000, or the members of `classGroupId`), from a " +
          "template or from `subject` + `bodyHtml` + `bodyText`, in one transaction: 202 with their ids. The " +
          "worker sends them (SMTP, or .eml files without it) with retries; follow them at GET /email/messages. " +
          "One request queues at most 4,000,000 characters (subject, HTML and text, times the recipients): past " +
          "that it is 400 naming `bodyHtml` with the longest message this many recipients allow.",
        body: SendMessagesBody,
        response: { 202: Queued },
      },
    },
    async (request, reply) => {
      const result = await service.sendMessages(
        db,
        service.mailDepsOf(config, publicOrigin(request)),
        tenantOf(request).id,
        request.body,
      );
      reply.code(202);
      return result;
    },
  );

  app.get(
    "/api/institution/email/messages",
    {
      config: { access: read },
      schema: {
        tags,
        summary: "List e-mail messages",
        description:
          "Newest first; filter by `status`, `userId`, `templateKey`, `since`. Addresses are masked here. " +
          "`pagination.total` is exact unfiltered and with `status` or `templateKey` alone; other filters and " +
          "combinations count their matches " +
          `exactly up to ${TOTAL_CAP}, beyond which it is a lower bound (\`totalRelation: "gte"\`).`,
        querystring: ListMessagesQuery,
        response: { 200: MessagePage },
      },
    },
    (request) => service.listMessages(db, tenantOf(request).id, request.query),
  );

  app.get(
    "/api/institution/email/messages/:id",
    {
      config: { access: read },
      schema: {
        tags,
        summary: "Get an e-mail message",
        description: "Its status, attempts and last error; the body is not returned (it may carry a token).",
        params: IdParams,
        response: { 200: Message },
      },
    },
    (request) => service.getMessage(db, tenantOf(request).id, requireUuid(request.params.id)),
  );

  app.post(
    "/api/email/bounces",
    {
      config: { access: { kind: "public" }, errors: [401, 404, 409] },
      schema: {
        tags,
        summary: "Report a bounce or complaint",
        description:
          "For the mail provider: `Authorization: Bearer $EMAIL_BOUNCE_SECRET` (401 otherwise, and always when " +
          "it is not configured). Marks the sent message `bounced` or `complained` and emits `email_bounced`; " +
          "a repeated report changes nothing. Unknown Message-ID: 404; a message never sent: 409.",
        body: BounceBody,
        response: { 200: BounceResult },
      },
    },
    (request) => {
      if (!service.bounceAuthorized(config.mail.bounceSecretHash, request.headers.authorization)) {
        throw new AppError("unauthorized");
      }
      return service.recordBounce(db, request.body);
    },
  );
}
