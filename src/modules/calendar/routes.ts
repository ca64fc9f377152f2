import type { FastifyRequest } from "fastify";
import { Type } from "typebox";
import { sessionOnly, signedIn, staff } from "../../platform/auth/access.js";
import { principalOf, tenantOf } from "../../platform/auth/request.js";
import type { Principal } from "../../platform/auth/types.js";
import type { AppContext } from "../../platform/context.js";
import { AppError, notFound } from "../../platform/errors/app-error.js";
import { publicOrigin } from "../../platform/http/host.js";
import { IdParams, requireUuid } from "../../platform/http/schemas.js";
import type { App } from "../../platform/http/types.js";
import { renderFeed } from "./feed.js";
import * as repo from "./repo.js";
import {
  AgendaPage,
  AgendaQuery,
  CalendarEvent,
  CreateCalendarEventBody,
  CreatedFeed,
  FeedParams,
  FeedStatus,
  UpdateCalendarEventBody,
} from "./schemas.js";
import * as service from "./service.js";

const tags = ["calendar"];
const BASE = "/api/institution/calendar";
const read = signedIn("live-classes:read");
const write = staff("live-classes:write");
/** A feed is a person's own: only their session manages it. */
const ownSession = sessionOnly();

function userOf(request: FastifyRequest): string {
  const principal: Principal = principalOf(request);
  if (principal.kind !== "session") throw new AppError("session_required");
  return principal.userId;
}

const creatorOf = (request: FastifyRequest) => {
  const principal = principalOf(request);
  return principal.kind === "session" ? principal.userId : null;
};

export function calendarRoutes(app: App, ctx: AppContext): void {
  const db = ctx.database.db;

  app.get(
    `${BASE}/events`,
    {
      config: { access: read, errors: [403] },
      schema: {
        tags,
        summary: "The agenda over a window",
        description:
          "Every event from `from` to `to` (at most 366 days), by start time: custom events (recurring ones " +
          "expanded, one item per occurrence), live class occurrences, lesson due dates and, in a personal " +
          "agenda, enrollment expiries. Dates without a time are midnight in the institution's time zone; each " +
          "item names its own `timezone`. With `userId`, that user's agenda (their courses, classes, invitations " +
          "and own events); without, the institution's (enrollment expiries are personal and left out). A " +
          "student always gets their own agenda; another `userId` is 403.",
        querystring: AgendaQuery,
        response: { 200: AgendaPage },
      },
    },
    (request) => service.listAgenda(db, tenantOf(request).id, principalOf(request), request.query),
  );

  app.post(
    `${BASE}/events`,
    {
      config: { access: write },
      schema: {
        tags,
        summary: "Create a custom event",
        description:
          "`contextType` says who sees it: everyone (`institution`), a course's enrollees, a class's members or " +
          "one user (`contextId` names which). Without `endsAt` it lasts an hour (a day if `allDay`). " +
          "`recurrence` is an RRULE run on the wall clock of `timezone` (default: the institution's).",
        body: CreateCalendarEventBody,
        response: { 201: CalendarEvent },
      },
    },
    async (request, reply) => {
      reply.code(201);
      return service.createEvent(db, tenantOf(request).id, creatorOf(request), request.body);
    },
  );

  app.get(
    `${BASE}/events/:id`,
    {
      config: { access: read },
      schema: { tags, summary: "Get a custom event", params: IdParams, response: { 200: CalendarEvent } },
    },
    (request) => service.getEvent(db, tenantOf(request).id, requireUuid(request.params.id)),
  );

  app.patch(
    `${BASE}/events/:id`,
    {
      config: { access: write },
      schema: {
        tags,
        summary: "Update a custom event",
        description:
          "Changes the whole series. Moving `startsAt` without `endsAt` keeps the length; `status: canceled` " +
          "keeps the event, marked canceled (feeds show it as CANCELLED). A teacher's session changes only the " +
          "events it created (403 `forbidden` otherwise); administrators' sessions and keys act for the institution.",
        params: IdParams,
        body: UpdateCalendarEventBody,
        response: { 200: CalendarEvent },
      },
    },
    (request) =>
      service.updateEvent(
        db,
        tenantOf(request).id,
        principalOf(request),
        requireUuid(request.params.id),
        request.body,
      ),
  );

  app.delete(
    `${BASE}/events/:id`,
    {
      config: { access: write },
      schema: {
        tags,
        summary: "Delete a custom event",
        description:
          "A teacher's session deletes only the events it created (403 `forbidden` otherwise); administrators' " +
          "sessions and keys act for the institution.",
        params: IdParams,
        response: { 204: Type.Null() },
      },
    },
    async (request, reply) => {
      await service.deleteEvent(
        db,
        tenantOf(request).id,
        principalOf(request),
        requireUuid(request.params.id),
      );
      reply.code(204).send(null);
    },
  );

  app.get(
    `${BASE}/feed`,
    {
      config: { access: ownSession },
      schema: {
        tags,
        summary: "Whether my iCalendar feed is on",
        description: "The URL itself is shown once, when issued.",
        response: { 200: FeedStatus },
      },
    },
    (request) => service.feedStatus(db, tenantOf(request).id, userOf(request)),
  );

  app.post(
    `${BASE}/feed`,
    {
      config: { access: ownSession },
      schema: {
        tags,
        summary: "Issue or rotate my iCalendar feed",
        description:
          "A secret URL to subscribe to from any calendar application; only its hash is stored. Issuing again " +
          "rotates it: the previous URL stops working at once.",
        response: { 201: CreatedFeed },
      },
    },
    async (request, reply) => {
      reply.code(201).header("cache-control", "no-store");
      return service.issueFeed(db, tenantOf(request).id, userOf(request), publicOrigin(request));
    },
  );

  app.delete(
    `${BASE}/feed`,
    {
      config: { access: ownSession },
      schema: {
        tags,
        summary: "Revoke my iCalendar feed",
        description: "The URL stops working. 404 when there is none.",
        response: { 204: Type.Null() },
      },
    },
    async (request, reply) => {
      await service.revokeFeed(db, tenantOf(request).id, userOf(request));
      reply.code(204).send(null);
    },
  );

  app.get(
    "/api/calendar/feeds/:token.ics",
    {
      config: { access: { kind: "tenant" }, closedWhileInactive: true, errors: [402, 404] },
      schema: {
        tags,
        operationId: "calendar.feeds.get",
        summary: "A user's iCalendar feed",
        description:
          "Public on the institution's host: the token in the URL is the credential. RFC 5545 with a VTIMEZONE " +
          "per zone used; the last 30 days and the next year of the user's agenda. Unknown or revoked token, " +
          "or a user who is no longer active: 404.",
        params: FeedParams,
        response: {
          200: {
            description: "An iCalendar document.",
            content: { "text/calendar": { schema: Type.String() } },
          },
        },
      },
    },
    async (request, reply) => {
      const tenant = tenantOf(request);
      const token = request.params.token;
      if (!/^[0-9a-f]{64}$/.test(token)) throw notFound();
      const owner = await repo.feedOwner(db, tenant.id, service.hashFeedToken(token));
      if (owner === undefined) throw notFound();
      const host = (request.headers.host ?? "aula").replace(/:\d+$/, "");
      const body = await renderFeed(db, tenant.id, owner, host);
      reply
        .type("text/calendar; charset=utf-8")
        .header("cache-control", "private, max-age=300")
        .header("content-disposition", 'inline; filename="aula.ics"');
      return body;
    },
  );
}
