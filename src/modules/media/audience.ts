import { and, eq, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import { classGroupMembers, enrollments } from "../../db/schema/index.js";
import { AppError } from "../../platform/errors/app-error.js";
import { holdsScope } from "../../platform/scopes/scopes.js";
import type { Actor } from "../events/actor.js";

/**
 * Who may share a file with a drive folder's audience. A file in no folder is staff material (the media routes
 * are staff-only); a file in a folder is read by the folder's audience (`institution`: every member; `course`: its
 * enrolled students; `class`: its members). Whatever puts a file in a folder, or changes a folder's audience,
 * shares files with that audience, and needs:
 *
 * - an administrator's session, or the system: any audience;
 * - a teacher's session: the audience of a course the teacher teaches (a current enrollment as `teacher` or
 *   `assistant`) or of a class the teacher belongs to as `teacher`; every student of the institution is an
 *   audience only administrators address;
 * - an API key: `drive:write` (the drive's audiences are what that scope manages), and the right to read the file
 *   where it is now: `media:read` for a file in no folder, `media:read` or `drive:read` for one in a folder. A key
 *   cannot publish what it cannot read.
 *
 * A teacher reads every file already (the media routes admit teachers), so for a session only the audience counts.
 */
export interface Audience {
  scope: string;
  courseId: string | null;
  classId: string | null;
}

function missingScope(scope: string): AppError {
  return new AppError("insufficient_scope", {
    params: { scope },
    details: [{ field: "scope", key: "field.missing_scope", params: { scope } }],
  });
}

const refused = (audience: Audience) =>
  new AppError("forbidden", { messageKey: "forbidden.drive_audience", params: { scope: audience.scope } });

async function teaches(tx: Executor, tenantId: string, userId: string, audience: Audience): Promise<boolean> {
  if (audience.scope === "course" && audience.courseId !== null) {
    const rows = await tx
      .select({ id: enrollments.id })
      .from(enrollments)
      .where(
        and(
          eq(enrollments.tenantId, tenantId),
          eq(enrollments.userId, userId),
          eq(enrollments.courseId, audience.courseId),
          sql`${enrollments.role} IN ('teacher', 'assistant')`,
          sql`${enrollments.status} IN ('active', 'completed')`,
        ),
      )
      .limit(1);
    return rows.length > 0;
  }
  if (audience.scope === "class" && audience.classId !== null) {
    const rows = await tx
      .select({ userId: classGroupMembers.userId })
      .from(classGroupMembers)
      .where(
        and(
          eq(classGroupMembers.tenantId, tenantId),
          eq(classGroupMembers.classGroupId, audience.classId),
          eq(classGroupMembers.userId, userId),
          eq(classGroupMembers.role, "teacher"),
        ),
      );
    return rows.length > 0;
  }
  return false;
}

/** 403 unless the actor may address this audience (see above); for keys, `drive:write`. */
export async function assertMayAddress(
  tx: Executor,
  tenantId: string,
  actor: Actor,
  audience: Audience,
): Promise<void> {
  if (actor.kind === "system") return;
  if (actor.kind === "key") {
    if (!holdsScope(actor.scopes, "drive:write")) throw missingScope("drive:write");
    return;
  }
  if (actor.role === "institution_admin") return;
  if (actor.role === "teacher" && (await teaches(tx, tenantId, actor.userId, audience))) return;
  throw refused(audience);
}

/**
 * 403 unless the actor may put the file into the folder: read it where it is (`from`: its folder now, null for
 * none, undefined for a file being created) and address the folder's audience. Moving within one folder's
 * audience still needs both: the rule is about where the file goes, not where it was.
 */
export async function assertMayShare(
  tx: Executor,
  tenantId: string,
  actor: Actor,
  from: string | null | undefined,
  audience: Audience,
): Promise<void> {
  if (actor.kind === "key" && from !== undefined) {
    const readable =
      holdsScope(actor.scopes, "media:read") || (from !== null && holdsScope(actor.scopes, "drive:read"));
    if (!readable) throw missingScope("media:read");
  }
  await assertMayAddress(tx, tenantId, actor, audience);
}
