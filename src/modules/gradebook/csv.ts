import { Readable } from "node:stream";
import { and, asc, eq, ne, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import { queryRows } from "../../db/rows.js";
import { toIso } from "../../db/schema/columns.js";
import { courseGrades, enrollments, grades, users } from "../../db/schema/index.js";
import type { Principal } from "../../platform/auth/types.js";
import { csvField } from "../../platform/http/csv.js";
import { effectiveScore } from "./compute.js";
import { readableCourse } from "./guard.js";
import { itemsOfCourse } from "./items.js";
import { gradingScale, letterOf, num, uuidArray } from "./sql-util.js";

/** Rows a chunk of the export reads: each chunk is one keyset page, so memory stays flat however long the course. */
const CHUNK = 500;

export { csvField };

const line = (fields: (string | number | null)[]) => `${fields.map(csvField).join(",")}\r\n`;

/**
 * The course's gradebook as CSV, streamed: access is checked before the first byte (so errors are answered as
 * JSON), then a header line and the students in gradebook order, a keyset page of 500 at a time. A student's
 * session gets its own line, with its posted grades only.
 */
export async function gradebookCsv(
  db: Executor,
  tenantId: string,
  principal: Principal,
  courseId: string,
): Promise<Readable> {
  const reader = await readableCourse(db, tenantId, principal, courseId);
  const learner = reader.kind === "learner";
  const [columns, scale] = await Promise.all([
    itemsOfCourse(db, tenantId, courseId, learner),
    gradingScale(db, tenantId),
  ]);
  const visible = new Set(columns.map((c) => c.id));

  async function* lines(): AsyncGenerator<string> {
    yield line([
      "Student",
      "Email",
      "User ID",
      "Enrollment status",
      ...columns.map((c) => `${c.title} (${c.maxPoints})`),
      "Current score",
      "Final score",
      "Current letter",
      "Final letter",
      ...(learner ? [] : ["Unposted current score", "Unposted final score"]),
    ]);
    let after: { createdAt: string; id: string } | undefined;
    for (;;) {
      const rows = await db
        .select({
          id: enrollments.id,
          createdAt: enrollments.createdAt,
          userId: enrollments.userId,
          status: enrollments.status,
          name: users.name,
          email: users.email,
          current: courseGrades.currentScore,
          final: courseGrades.finalScore,
          unpostedCurrent: courseGrades.unpostedCurrentScore,
          unpostedFinal: courseGrades.unpostedFinalScore,
        })
        .from(enrollments)
        .innerJoin(users, and(eq(users.tenantId, enrollments.tenantId), eq(users.id, enrollments.userId)))
        .leftJoin(
          courseGrades,
          and(
            eq(courseGrades.tenantId, enrollments.tenantId),
            eq(courseGrades.courseId, enrollments.courseId),
            eq(courseGrades.userId, enrollments.userId),
          ),
        )
        .where(
          and(
            eq(enrollments.tenantId, tenantId),
            eq(enrollments.courseId, courseId),
            eq(enrollments.role, "student"),
            ne(enrollments.status, "dropped"),
            reader.kind === "learner" ? eq(enrollments.userId, reader.userId) : undefined,
            after === undefined
              ? undefined
              : sql`(${enrollments.createdAt}, ${enrollments.id}) > (${after.createdAt}::timestamptz, ${after.id}::uuid)`,
          ),
        )
        .orderBy(asc(enrollments.createdAt), asc(enrollments.id))
        .limit(CHUNK);
      if (rows.length === 0) return;
      const cells = await queryRows<Record<string, unknown>>(
        db,
        sql`SELECT grade_item_id, user_id, score, override_score, status, posted_at FROM ${grades}
            WHERE tenant_id = ${tenantId} AND course_id = ${courseId}
              AND user_id = ANY(${uuidArray(rows.map((r) => r.userId))})`,
      );
      const byUser = new Map<string, Map<string, string | number | null>>();
      for (const g of cells) {
        if (learner && (g.posted_at === null || !visible.has(g.grade_item_id as string))) continue;
        const score = effectiveScore({ score: num(g.score), overrideScore: num(g.override_score) });
        const shown = score ?? (g.status === "pending" ? null : (g.status as string));
        const map = byUser.get(g.user_id as string) ?? new Map();
        map.set(g.grade_item_id as string, shown);
        byUser.set(g.user_id as string, map);
      }
      for (const r of rows) {
        const mine = byUser.get(r.userId);
        yield line([
          r.name,
          r.email,
          r.userId,
          r.status,
          ...columns.map((c) => mine?.get(c.id) ?? null),
          r.current,
          r.final,
          letterOf(scale, r.current),
          letterOf(scale, r.final),
          ...(learner ? [] : [r.unpostedCurrent, r.unpostedFinal]),
        ]);
      }
      const last = rows[rows.length - 1] as { createdAt: string; id: string };
      after = { createdAt: toIso(last.createdAt), id: last.id };
      if (rows.length < CHUNK) return;
    }
  }
  return Readable.from(lines());
}
