import { principalOf, tenantOf } from "../../platform/auth/request.js";
import type { AppContext } from "../../platform/context.js";
import { IdParams, requireUuid } from "../../platform/http/schemas.js";
import type { App } from "../../platform/http/types.js";
import type { VideoDeps } from "../video-providers/service.js";
import { BASE, HOST_OR_COHOST, staffRead, tags, write } from "./access.js";
import { listAttendance, putAttendance, syncAttendance } from "./attendance.js";
import {
  AttendancePage,
  AttendanceResult,
  ListAttendanceQuery,
  OccurrenceParams,
  PutAttendanceBody,
} from "./schemas.js";

/**
 * A class's attendance: read by staff; recorded by hand or taken from the provider (a teacher's session, for a
 * class it hosts or co-hosts).
 */
export function attendanceRoutes(app: App, ctx: AppContext, deps: () => VideoDeps): void {
  const db = ctx.database.db;

  app.get(
    `${BASE}/:id/attendance`,
    {
      config: { access: staffRead },
      schema: {
        tags,
        summary: "List attendance",
        description: "By occurrence, then user; filter by `occurrenceId`.",
        params: IdParams,
        querystring: ListAttendanceQuery,
        response: { 200: AttendancePage },
      },
    },
    (request) => listAttendance(db, tenantOf(request).id, requireUuid(request.params.id), request.query),
  );

  app.put(
    `${BASE}/:id/attendance`,
    {
      config: { access: write },
      schema: {
        tags,
        summary: "Record attendance by hand",
        description:
          "Upserts one occurrence's records (source `manual`; `durationSeconds` defaults to the class's length, " +
          "0 when absent). Each user newly present or late for at least `attendanceThresholdMinutes` emits " +
          "`live_class_attended` once and completes the class's lesson (if enrolled). " +
          HOST_OR_COHOST,
        params: IdParams,
        body: PutAttendanceBody,
        response: { 200: AttendanceResult },
      },
    },
    (request) =>
      putAttendance(
        db,
        tenantOf(request).id,
        principalOf(request),
        requireUuid(request.params.id),
        request.body,
      ),
  );

  app.post(
    `${BASE}/:id/occurrences/:occurrenceId/attendance/sync`,
    {
      config: { access: write, errors: [409, 502] },
      schema: {
        tags,
        summary: "Take attendance from the provider",
        description:
          "Reads the provider's participants report (Zoom) and records it as `provider` attendance, matched to " +
          "users by e-mail (a person's joins are summed), with the same threshold rule as the manual route. " +
          `A provider without a report (Jitsi, BigBlueButton) is 409. ${HOST_OR_COHOST}`,
        params: OccurrenceParams,
        response: { 200: AttendanceResult },
      },
    },
    (request) =>
      syncAttendance(
        deps(),
        tenantOf(request).id,
        principalOf(request),
        requireUuid(request.params.id),
        requireUuid(request.params.occurrenceId),
      ),
  );
}
