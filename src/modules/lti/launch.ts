/**
 * A launch, step 1: a signed-in user asks to open a tool in a course. We record the launch (its id becomes the
 * `lti_message_hint`) and answer the tool's OIDC login initiation URL, which the user's browser opens; the tool
 * then sends the browser to our authorization endpoint (authorize.ts) with a state and nonce of its own.
 */
import { and, eq, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import { courses, enrollments, lessons, ltiLaunches } from "../../db/schema/index.js";
import type { Principal } from "../../platform/auth/types.js";
import { AppError, notFound, validationError } from "../../platform/errors/app-error.js";
import type { LaunchInput } from "./launch-schemas.js";
import * as repo from "./tool-repo.js";
import { type LtiDeps, platformOf } from "./tools.js";

/** How long the browser has to go from our answer through the tool's login initiation and back. */
export const LAUNCH_START_LIFETIME_S = 300;

export type CourseRole = "admin" | "teacher" | "student" | "observer";

/** The user's role in the course: administrators act on every course, others by their current enrollment. */
export async function courseRoleOf(
  db: Executor,
  tenantId: string,
  userId: string,
  userRole: string,
  courseId: string,
): Promise<CourseRole | undefined> {
  if (userRole === "institution_admin") return "admin";
  const [row] = await db
    .select({ role: enrollments.role })
    .from(enrollments)
    .where(
      and(
        eq(enrollments.tenantId, tenantId),
        eq(enrollments.userId, userId),
        eq(enrollments.courseId, courseId),
        sql`${enrollments.status} IN ('active', 'completed')`,
      ),
    )
    .limit(1);
  if (row === undefined) return undefined;
  return row.role === "assistant" ? "teacher" : (row.role as CourseRole);
}

async function courseExists(db: Executor, tenantId: string, courseId: string): Promise<boolean> {
  const rows = await db
    .select({ id: courses.id })
    .from(courses)
    .where(and(eq(courses.tenantId, tenantId), eq(courses.id, courseId)));
  return rows.length > 0;
}

async function lessonInCourse(db: Executor, tenantId: string, lessonId: string, courseId: string) {
  const rows = await db
    .select({ id: lessons.id })
    .from(lessons)
    .where(and(eq(lessons.tenantId, tenantId), eq(lessons.id, lessonId), eq(lessons.courseId, courseId)));
  return rows.length > 0;
}

export async function startLaunch(
  deps: LtiDeps,
  tenantId: string,
  principal: Principal,
  toolId: string,
  input: LaunchInput,
) {
  if (principal.kind !== "session") throw new AppError("session_required");
  const db = deps.ctx.database.db;
  const tool = await repo.findTool(db, tenantId, toolId);
  if (tool === undefined) throw notFound();
  if (tool.status !== "active") throw new AppError("conflict", { messageKey: "conflict.lti_tool_disabled" });
  const courseId = input.courseId.toLowerCase();
  if (!(await courseExists(db, tenantId, courseId)))
    throw validationError("courseId", "field.unknown_course");
  const role = await courseRoleOf(db, tenantId, principal.userId, principal.role, courseId);
  if (role === undefined) throw new AppError("forbidden");
  const messageType = input.messageType ?? "LtiResourceLinkRequest";
  if (messageType === "LtiDeepLinkingRequest" && role !== "admin" && role !== "teacher") {
    throw new AppError("forbidden");
  }
  const lessonId = input.lessonId?.toLowerCase() ?? null;
  if (lessonId !== null && !(await lessonInCourse(db, tenantId, lessonId, courseId))) {
    throw validationError("lessonId", "field.unknown_lesson");
  }
  const [launch] = await db
    .insert(ltiLaunches)
    .values({
      tenantId,
      toolId,
      userId: principal.userId,
      messageType,
      courseId,
      lessonId,
      expiresAt: sql`now() + make_interval(secs => ${LAUNCH_START_LIFETIME_S})` as unknown as string,
    })
    .returning({ id: ltiLaunches.id, expiresAt: ltiLaunches.expiresAt });
  if (launch === undefined) throw new Error("insert returned no row");
  const url = new URL(tool.oidcInitiationUrl);
  const params = {
    iss: platformOf(deps.origin).issuer,
    login_hint: principal.userId,
    target_link_uri: tool.targetLinkUri,
    lti_message_hint: launch.id,
    client_id: tool.clientId,
    lti_deployment_id: tool.deploymentId,
  };
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  return { url: url.toString(), expiresAt: launch.expiresAt };
}
