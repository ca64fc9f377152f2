import { Type } from "typebox";
import { principalOf, tenantOf } from "../../platform/auth/request.js";
import type { AppContext } from "../../platform/context.js";
import { IdParams, requireUuid } from "../../platform/http/schemas.js";
import type { App } from "../../platform/http/types.js";
import { TOTAL_CAP } from "../../platform/pagination/capped.js";
import type { VideoDeps } from "../video-providers/service.js";
import { BASE, HOST_ONLY, HOST_OR_COHOST, join, read, tags, write } from "./access.js";
import { attendanceRoutes } from "./attendance-routes.js";
import { joinLink } from "./join.js";
import { listOccurrences, moveOccurrence } from "./occurrences.js";
import {
  CreateLiveClassBody,
  JoinLink,
  JoinLinkBody,
  ListLiveClassesQuery,
  ListOccurrencesQuery,
  LiveClass,
  LiveClassPage,
  Occurrence,
  OccurrencePage,
  OccurrenceParams,
  UpdateLiveClassBody,
} from "./schemas.js";
import * as service from "./service.js";

export function liveClassRoutes(app: App, ctx: AppContext, deps: () => VideoDeps): void {
  const db = ctx.database.db;
  const occurrence = (p: { id: string; occurrenceId: string }) =>
    [requireUuid(p.id), requireUuid(p.occurrenceId)] as const;

  app.get(
    BASE,
    {
      config: { access: read },
      schema: {
        tags,
        summary: "List live classes",
        description:
          "By first start unless `sort` says otherwise. `from`/`to` keep classes with an occurrence in that " +
          "window; filter by `courseId`, `classGroupId`, `hostUserId`, `status`. A student's session sees the " +
          "classes it is in the audience of (host, co-host, invitee, the course's enrollees, the class group's " +
          "members); staff and keys see the institution's. `pagination.total` is exact unfiltered and with " +
          "`status` alone; other filters and a student's list count their matches exactly up to " +
          `${TOTAL_CAP}, beyond which it is a lower bound (\`totalRelation: "gte"\`).`,
        querystring: ListLiveClassesQuery,
        response: { 200: LiveClassPage },
      },
    },
    (request) =>
      service.listClasses(db, tenantOf(request).id, request.query, service.viewerOf(principalOf(request))),
  );

  app.post(
    BASE,
    {
      config: { access: write },
      schema: {
        tags,
        summary: "Schedule a live class",
        description:
          "The audience is a course (its enrollees), a class group (its members) and/or invitees; `lessonId` " +
          "implies its course. `recurrence` (RRULE) runs on the wall clock of `timezone` (default: the " +
          "institution's); each occurrence is stored with its own id. `videoProviderId` names a `live` " +
          "connection; without it the institution's default, or public Jitsi. Emits `live_class_scheduled`. " +
          "A teacher's session schedules classes it hosts (`hostUserId` omitted or its own; another is 403 " +
          "`forbidden`); administrators and API keys may name any active teacher or administrator.",
        body: CreateLiveClassBody,
        response: { 201: LiveClass },
      },
    },
    async (request, reply) => {
      reply.code(201);
      return service.createClass(deps(), tenantOf(request).id, principalOf(request), request.body);
    },
  );

  app.get(
    `${BASE}/:id`,
    {
      config: { access: read },
      schema: { tags, summary: "Get a live class", params: IdParams, response: { 200: LiveClass } },
    },
    (request) =>
      service.getClass(
        db,
        tenantOf(request).id,
        requireUuid(request.params.id),
        service.viewerOf(principalOf(request)),
      ),
  );

  app.patch(
    `${BASE}/:id`,
    {
      config: { access: write, errors: [409] },
      schema: {
        tags,
        summary: "Update a live class",
        description:
          "A new start, length, zone or rule rebuilds the occurrences: 409 `conflict` once one has started, " +
          `ended or been canceled. \`status: canceled\` cancels the class. ${HOST_ONLY}`,
        params: IdParams,
        body: UpdateLiveClassBody,
        response: { 200: LiveClass },
      },
    },
    (request) =>
      service.updateClass(
        deps(),
        tenantOf(request).id,
        principalOf(request),
        requireUuid(request.params.id),
        request.body,
      ),
  );

  app.delete(
    `${BASE}/:id`,
    {
      config: { access: write },
      schema: {
        tags,
        summary: "Cancel a live class",
        description:
          "The class and every occurrence still to come become `canceled` (kept, for the calendar and history); " +
          `emits \`live_class_canceled\`. Canceling again changes nothing. ${HOST_ONLY}`,
        params: IdParams,
        response: { 204: Type.Null() },
      },
    },
    async (request, reply) => {
      await service.cancelClass(
        db,
        tenantOf(request).id,
        principalOf(request),
        requireUuid(request.params.id),
      );
      reply.code(204).send(null);
    },
  );

  app.get(
    `${BASE}/:id/occurrences`,
    {
      config: { access: read },
      schema: {
        tags,
        summary: "List a class's occurrences",
        description: "By start time.",
        params: IdParams,
        querystring: ListOccurrencesQuery,
        response: { 200: OccurrencePage },
      },
    },
    (request) =>
      listOccurrences(
        db,
        tenantOf(request).id,
        requireUuid(request.params.id),
        request.query,
        service.viewerOf(principalOf(request)),
      ),
  );

  for (const [action, summary, text] of [
    [
      "cancel",
      "Cancel one occurrence",
      "A scheduled occurrence becomes `canceled`; emits `live_class_canceled`.",
    ],
    ["start", "Start an occurrence", "A scheduled occurrence becomes `live`; emits `live_class_started`."],
    ["end", "End an occurrence", "A live occurrence becomes `ended`; emits `live_class_ended`."],
  ] as const) {
    app.post(
      `${BASE}/:id/occurrences/:occurrenceId/${action}`,
      {
        config: { access: write, errors: [409] },
        schema: {
          tags,
          summary,
          description: `${text} Any other status is 409 \`conflict\`. ${action === "cancel" ? HOST_ONLY : HOST_OR_COHOST}`,
          params: OccurrenceParams,
          response: { 200: Occurrence },
        },
      },
      (request) =>
        moveOccurrence(db, tenantOf(request).id, principalOf(request), ...occurrence(request.params), action),
    );
  }

  app.post(
    `${BASE}/:id/join-links`,
    {
      config: { access: join, errors: [409, 502] },
      schema: {
        tags,
        summary: "A personal join link",
        description:
          "For `occurrenceId` (default: the next one not over). Hosts and co-hosts join as hosts; the audience " +
          "and administrators as attendees; anyone else is 403. A student asks for their own link only; a key " +
          "must name `userId`. Jitsi: the room URL; BigBlueButton: a signed `join` URL (the meeting is created " +
          "first); Zoom: the meeting's join URL (created through the API on first use). A canceled or ended " +
          "occurrence is 409; a provider that fails is 502 `video_provider_error`.",
        params: IdParams,
        body: JoinLinkBody,
        response: { 200: JoinLink },
      },
      // Every field is optional: no body means "my link for the next occurrence".
      preValidation: async (request) => {
        request.body ??= {};
      },
    },
    async (request, reply) => {
      reply.header("cache-control", "no-store");
      return joinLink(
        deps(),
        tenantOf(request).id,
        principalOf(request),
        requireUuid(request.params.id),
        request.body,
      );
    },
  );

  attendanceRoutes(app, ctx, deps);
}
