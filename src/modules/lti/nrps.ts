/**
 * Names and Role Provisioning Services 2.0: the course's roster for a tool, a page at a time (`limit`, and a
 * `Link: <…>; rel="next"` while more remain), in enrollment order. Personal fields follow the tool's privacy
 * level, as in a launch.
 */
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { courses, enrollments, users } from "../../db/schema/index.js";
import { rolesOf } from "./claims.js";
import type { PrivacyLevel } from "./schemas.js";
import type { ToolRow } from "./tool-repo.js";
import { LTI_PATH, type LtiDeps } from "./tools.js";

export const MAX_MEMBERS_PAGE = 100;

const MEMBERSHIP = "http://purl.imsglobal.org/vocab/lis/v2/membership#";
/** NRPS `role` (a full LIS role URI, or its short name) → the enrollment roles it names. */
const ENROLLMENT_ROLES: Record<string, string[]> = {
  Learner: ["student"],
  Instructor: ["teacher", "assistant"],
  Mentor: ["observer"],
};

/** The enrollment roles a `role` filter asks for: none for a role no enrollment has. */
export function enrollmentRolesOf(role: string): string[] {
  const name = role.startsWith(MEMBERSHIP) ? role.slice(MEMBERSHIP.length) : role;
  return ENROLLMENT_ROLES[name] ?? [];
}

const COURSE_ROLE: Record<string, "teacher" | "student" | "observer"> = {
  student: "student",
  teacher: "teacher",
  assistant: "teacher",
  observer: "observer",
};

export async function roster(
  deps: LtiDeps,
  tenantId: string,
  tool: ToolRow,
  courseId: string,
  page: { limit: number; page: number; role?: string },
) {
  const db = deps.ctx.database.db;
  const [course] = await db
    .select({ id: courses.id, title: courses.title })
    .from(courses)
    .where(and(eq(courses.tenantId, tenantId), eq(courses.id, courseId)));
  const rows = await db
    .select({
      id: users.id,
      name: users.name,
      email: users.email,
      role: users.role,
      courseRole: enrollments.role,
    })
    .from(enrollments)
    .innerJoin(users, and(eq(users.tenantId, enrollments.tenantId), eq(users.id, enrollments.userId)))
    .where(
      and(
        eq(enrollments.tenantId, tenantId),
        eq(enrollments.courseId, courseId),
        sql`${enrollments.status} IN ('active', 'completed')`,
        page.role === undefined ? undefined : inArray(enrollments.role, enrollmentRolesOf(page.role)),
      ),
    )
    .orderBy(asc(enrollments.enrolledAt), asc(enrollments.id))
    .limit(page.limit + 1)
    .offset((page.page - 1) * page.limit);
  const level = tool.privacyLevel as PrivacyLevel;
  const members = rows.slice(0, page.limit).map((r) => ({
    status: "Active",
    user_id: r.id,
    roles: rolesOf({
      id: r.id,
      name: r.name,
      email: r.email,
      institutionRole: "",
      courseRole: COURSE_ROLE[r.courseRole] ?? "student",
    }),
    ...(level === "name_only" || level === "public" ? { name: r.name } : {}),
    ...(level === "email_only" || level === "public" ? { email: r.email } : {}),
  }));
  const url = `${deps.origin}${LTI_PATH}/courses/${courseId}/memberships`;
  const role = page.role === undefined ? "" : `&role=${encodeURIComponent(page.role)}`;
  const next =
    rows.length > page.limit ? `${url}?limit=${page.limit}&page=${page.page + 1}${role}` : undefined;
  return {
    body: {
      id: `${url}?limit=${page.limit}&page=${page.page}${role}`,
      context: { id: courseId, label: (course?.title ?? "").slice(0, 60), title: course?.title ?? "" },
      members,
    },
    next,
  };
}
