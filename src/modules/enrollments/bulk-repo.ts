import { sql } from "drizzle-orm";
import { inChunks } from "../../db/chunks.js";
import type { Executor } from "../../db/client.js";
import { enrollments } from "../../db/schema/index.js";

export interface BulkEnrollmentRow {
  userId: string;
  courseId: string;
  classGroupId: string | null;
  role: string;
  source: string;
  expiresAt: string | null;
}

/**
 * Inserts many at once; a row whose user already has a current enrollment in the course (enrollments_current_key)
 * is left out of the result instead of failing the statement. The rows travel as one JSON parameter: Drizzle's
 * multi-row VALUES took ~200 ms just to build for 1,000 rows (7,000 parameters), this takes ~1 ms. A chunk of
 * rows a statement (BULK_CHUNK), the event loop given a turn between them: on PGlite the engine runs on the loop.
 */
export async function insertEnrollmentsSkippingCurrent(
  db: Executor,
  tenantId: string,
  rows: readonly BulkEnrollmentRow[],
): Promise<{ id: string; userId: string; courseId: string }[]> {
  return inChunks(rows, (chunk) => insertChunk(db, tenantId, chunk));
}

async function insertChunk(
  db: Executor,
  tenantId: string,
  rows: readonly BulkEnrollmentRow[],
): Promise<{ id: string; userId: string; courseId: string }[]> {
  const payload = JSON.stringify(
    rows.map((r) => ({
      user_id: r.userId,
      course_id: r.courseId,
      class_group_id: r.classGroupId,
      role: r.role,
      source: r.source,
      expires_at: r.expiresAt,
    })),
  );
  const result = (await db.execute(sql`
    INSERT INTO ${enrollments} (tenant_id, user_id, course_id, class_group_id, role, source, expires_at)
    SELECT ${tenantId}, x.user_id, x.course_id, x.class_group_id, x.role, x.source, x.expires_at
    FROM jsonb_to_recordset(${payload}::jsonb)
      AS x(user_id uuid, course_id uuid, class_group_id uuid, role text, source text, expires_at timestamptz)
    ON CONFLICT DO NOTHING
    RETURNING id, user_id AS "userId", course_id AS "courseId"`)) as unknown as {
    rows: { id: string; userId: string; courseId: string }[];
  };
  return result.rows;
}
