/**
 * Rows the rubric tests and the security matrix need from other groups (a course with a quiz, a student enrolled
 * with a submitted attempt), written straight through Drizzle. Test support only.
 */
import { randomUUID } from "node:crypto";
import type { Executor } from "../../db/client.js";
import { quizAttempts, quizzes, users } from "../../db/schema/index.js";
import { enrollAs } from "../gradebook/test-fixtures.js";
import { makeQuizLesson } from "../quizzes/test-fixtures.js";

export interface AttemptFixture {
  courseId: string;
  quizId: string;
  userId: string;
  attemptId: string;
}

/** A published course with a quiz, and a student of it with one submitted attempt. */
export async function submittedAttempt(
  db: Executor,
  tenant: { id: string; slug: string },
  status = "submitted",
): Promise<AttemptFixture> {
  const { courseId, lessonId } = await makeQuizLesson(db, tenant.id);
  const [quiz] = await db
    .insert(quizzes)
    .values({ tenantId: tenant.id, lessonId, courseId })
    .returning({ id: quizzes.id });
  const quizId = (quiz as { id: string }).id;
  const [user] = await db
    .insert(users)
    .values({
      tenantId: tenant.id,
      name: "Rubric Student",
      email: `r-${randomUUID()}@${tenant.slug}.test`,
      role: "student",
    })
    .returning({ id: users.id });
  const userId = (user as { id: string }).id;
  await enrollAs(db, tenant.id, userId, courseId);
  const [attempt] = await db
    .insert(quizAttempts)
    .values({
      tenantId: tenant.id,
      quizId,
      userId,
      attemptNumber: 1,
      status,
      submittedAt: new Date().toISOString(),
    })
    .returning({ id: quizAttempts.id });
  return { courseId, quizId, userId, attemptId: (attempt as { id: string }).id };
}

/** A rubric body of two criteria (10 and 5 points) with three and two ratings. */
export function rubricBody(extra: Record<string, unknown> = {}) {
  return {
    title: "Redação",
    criteria: [
      {
        description: "Argumentação",
        points: 10,
        ratings: [
          { description: "Parcial", points: 5 },
          { description: "Completo", points: 10 },
          { description: "Ausente", points: 0 },
        ],
      },
      {
        description: "Clareza",
        points: 5,
        useRange: true,
        ratings: [
          { description: "Clara", points: 5 },
          { description: "Confusa", points: 2 },
        ],
      },
    ],
    ...extra,
  };
}
