import { and, eq } from "drizzle-orm";
import { Type } from "typebox";
import type { Executor } from "../../db/client.js";
import { platformEvents } from "../../db/schema/index.js";
import { admins } from "../../platform/auth/access.js";
import { tenantOf } from "../../platform/auth/request.js";
import type { AppContext } from "../../platform/context.js";
import { notFound } from "../../platform/errors/app-error.js";
import { IdParams, IsoDateTime, requireUuid, Uuid } from "../../platform/http/schemas.js";
import type { App } from "../../platform/http/types.js";
import { EVENT_SAMPLES } from "./catalogue.js";
import { EVENT_COLUMNS, type EventRow, ListEventsQuery, listEvents, retained } from "./list.js";

/** Events are kept this long; older ones are 404 at once, and the worker deletes them daily. */
export const EVENT_RETENTION_DAYS = 30;
/** The events automations are triggered by: administrators, or keys with `automations:read`. */
const EVENTS_ACCESS = admins("automations:read");

const PlatformEvent = Type.Object(
  {
    id: Uuid,
    type: Type.String(),
    schemaVersion: Type.Integer(),
    occurredAt: IsoDateTime,
    actor: Type.Object({}, { additionalProperties: true }),
    user: Type.Union([Type.Object({}, { additionalProperties: true }), Type.Null()], {
      description: "The user the event is about, as it was then.",
    }),
    data: Type.Object({}, { additionalProperties: true }),
  },
  {
    additionalProperties: false,
    examples: [
      {
        id: "c4d5e6f7-a8b9-4c0d-8e1f-2a3b4c5d6e7f",
        type: "enrollment_completed",
        schemaVersion: 1,
        occurredAt: "2026-11-23T12:00:00.000Z",
        actor: { type: "user", id: EVENT_SAMPLES.enrollment_completed.userId },
        user: {
          id: EVENT_SAMPLES.enrollment_completed.userId,
          name: "João Pereira",
          email: "joao.pereira@colegioaurora.com.br",
          role: "student",
        },
        data: EVENT_SAMPLES.enrollment_completed,
      },
    ],
  },
);

const EventPage = Type.Object(
  {
    data: Type.Array(PlatformEvent),
    pagination: Type.Object(
      {
        perPage: Type.Integer(),
        next: Type.Union([Uuid, Type.Null()], {
          description: "Pass it as `after` for the next page; null on the last one.",
        }),
      },
      { additionalProperties: false },
    ),
  },
  {
    additionalProperties: false,
    examples: [
      {
        data: (PlatformEvent as { examples?: unknown[] }).examples,
        pagination: { perPage: 1, next: "c4d5e6f7-a8b9-4c0d-8e1f-2a3b4c5d6e7f" },
      },
    ],
  },
);

async function findEvent(db: Executor, tenantId: string, id: string) {
  const rows = await db
    .select(EVENT_COLUMNS)
    .from(platformEvents)
    .where(
      and(eq(platformEvents.tenantId, tenantId), eq(platformEvents.id, id), retained(EVENT_RETENTION_DAYS)),
    );
  return rows[0];
}

export function eventRoutes(app: App, ctx: AppContext): void {
  const db = ctx.database.db;
  app.get(
    "/api/institution/events",
    {
      config: { access: EVENTS_ACCESS },
      schema: {
        tags: ["events"],
        summary: "List platform events",
        description:
          "The institution's events of the last " +
          `${EVENT_RETENTION_DAYS} days, oldest first, in an order that never changes as events are added: a ` +
          "receiver that was down reads on from the last event it handled (`after`, a page's `pagination.next`) " +
          "and misses none. Filter by `type`, by the user an event is about (`userId`), and by `since`/`until`. " +
          "`pagination` has no total: `next` is null on the last page.",
        querystring: ListEventsQuery,
        response: { 200: EventPage },
      },
    },
    async (request) =>
      (await listEvents(db, tenantOf(request).id, request.query, EVENT_RETENTION_DAYS)) as {
        data: (EventRow & { actor: object; data: object; user: object | null })[];
        pagination: { perPage: number; next: string | null };
      },
  );
  app.get(
    "/api/institution/events/:id",
    {
      config: { access: EVENTS_ACCESS },
      schema: {
        tags: ["events"],
        summary: "Get a platform event",
        description: `An event as automations saw it (each delivery names it), kept ${EVENT_RETENTION_DAYS} days.`,
        params: IdParams,
        response: { 200: PlatformEvent },
      },
    },
    async (request) => {
      const event = await findEvent(db, tenantOf(request).id, requireUuid(request.params.id));
      if (event === undefined) throw notFound();
      return event as typeof event & { actor: object; data: object; user: object | null };
    },
  );
}
