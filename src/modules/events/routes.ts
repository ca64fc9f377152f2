import { and, eq, gt, sql } from "drizzle-orm";
import { Type } from "typebox";
import type { Executor } from "../../db/client.js";
import { platformEvents } from "../../db/schema/index.js";
import { tenantOf } from "../../platform/auth/request.js";
import type { AppContext } from "../../platform/context.js";
import { notFound } from "../../platform/errors/app-error.js";
import { IdParams, IsoDateTime, requireUuid, Uuid } from "../../platform/http/schemas.js";
import type { App } from "../../platform/http/types.js";

/** Events are kept this long; older ones are 404 at once, and the worker deletes them daily. */
export const EVENT_RETENTION_DAYS = 30;

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
        actor: { type: "user", id: "9b2f6c1e-3d4a-4f5b-8c7d-1e2f3a4b5c6d" },
        user: {
          id: "9b2f6c1e-3d4a-4f5b-8c7d-1e2f3a4b5c6d",
          name: "João Pereira",
          email: "joao.pereira@colegioaurora.com.br",
          role: "student",
        },
        data: {
          enrollmentId: "8a9b0c1d-2e3f-4a4b-9c5d-6e7f8a9b0c1d",
          courseId: "1d2e3f4a-5b6c-4d7e-8f9a-0b1c2d3e4f5a",
          completedAt: "2026-11-23T12:00:00.000Z",
          progressPercent: 100,
          finalScore: 87.5,
        },
      },
    ],
  },
);

async function findEvent(db: Executor, tenantId: string, id: string) {
  const rows = await db
    .select({
      id: platformEvents.id,
      type: platformEvents.type,
      schemaVersion: platformEvents.schemaVersion,
      occurredAt: platformEvents.occurredAt,
      actor: platformEvents.actor,
      user: platformEvents.subject,
      data: platformEvents.data,
    })
    .from(platformEvents)
    .where(
      and(
        eq(platformEvents.tenantId, tenantId),
        eq(platformEvents.id, id),
        gt(platformEvents.occurredAt, sql`now() - make_interval(days => ${EVENT_RETENTION_DAYS})`),
      ),
    );
  return rows[0];
}

export function eventRoutes(app: App, ctx: AppContext): void {
  const db = ctx.database.db;
  app.get(
    "/api/institution/events/:id",
    {
      config: {
        access: {
          kind: "authenticated",
          auth: ["key", "session"],
          scope: "automations:read",
          roles: ["institution_admin"],
        },
      },
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
