import { and, eq, inArray, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import {
  classGroupMembers,
  classGroups,
  courses,
  enrollments,
  lessons,
  users,
} from "../../db/schema/index.js";

/** Who and what a live class names: users, its course, class group and lesson, and who is in its audience. */
export interface Person {
  id: string;
  name: string;
  email: string;
  role: string;
  status: string;
}

export async function findUsers(db: Executor, tenantId: string, ids: string[]): Promise<Person[]> {
  if (ids.length === 0) return [];
  return db
    .select({ id: users.id, name: users.name, email: users.email, role: users.role, status: users.status })
    .from(users)
    .where(and(eq(users.tenantId, tenantId), inArray(users.id, ids)));
}

export async function findUsersByEmail(db: Executor, tenantId: string, emails: string[]): Promise<Person[]> {
  if (emails.length === 0) return [];
  return db
    .select({ id: users.id, name: users.name, email: users.email, role: users.role, status: users.status })
    .from(users)
    .where(and(eq(users.tenantId, tenantId), inArray(sql`lower(${users.email})`, emails)));
}

export async function courseExists(db: Executor, tenantId: string, id: string) {
  const rows = await db
    .select({ id: courses.id })
    .from(courses)
    .where(and(eq(courses.tenantId, tenantId), eq(courses.id, id)));
  return rows.length > 0;
}

export async function classGroupExists(db: Executor, tenantId: string, id: string) {
  const rows = await db
    .select({ id: classGroups.id })
    .from(classGroups)
    .where(and(eq(classGroups.tenantId, tenantId), eq(classGroups.id, id)));
  return rows.length > 0;
}

export async function lessonCourse(db: Executor, tenantId: string, id: string): Promise<string | undefined> {
  const rows = await db
    .select({ courseId: lessons.courseId })
    .from(lessons)
    .where(and(eq(lessons.tenantId, tenantId), eq(lessons.id, id)));
  return rows[0]?.courseId;
}

/**
 * The part of a class (repo.ts's ClassRow) that `inAudience` reads. Named here rather than imported, since repo.ts
 * re-exports this file and an import back would close a circle.
 */
export interface AudienceLinks {
  courseId: string | null;
  classGroupId: string | null;
}

/** Whether the user is in the class's audience through its course or class group. */
export async function inAudience(
  db: Executor,
  tenantId: string,
  c: AudienceLinks,
  userId: string,
): Promise<boolean> {
  if (c.courseId !== null) {
    const rows = await db
      .select({ id: enrollments.id })
      .from(enrollments)
      .where(
        and(
          eq(enrollments.tenantId, tenantId),
          eq(enrollments.userId, userId),
          eq(enrollments.courseId, c.courseId),
          sql`${enrollments.status} IN ('active', 'completed')`,
        ),
      )
      .limit(1);
    if (rows.length > 0) return true;
  }
  if (c.classGroupId !== null) {
    const rows = await db
      .select({ id: classGroupMembers.userId })
      .from(classGroupMembers)
      .where(
        and(
          eq(classGroupMembers.tenantId, tenantId),
          eq(classGroupMembers.classGroupId, c.classGroupId),
          eq(classGroupMembers.userId, userId),
        ),
      )
      .limit(1);
    if (rows.length > 0) return true;
  }
  return false;
}
