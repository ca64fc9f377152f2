import { sql } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import { liveClassAttendance } from "../../db/schema/index.js";
import { uuidArray } from "../../db/uuid-array.js";
import type { Actor } from "../events/actor.js";
import { recordSourceGrades } from "../gradebook/service.js";
import type { ClassRow } from "./repo.js";

/**
 * A live class that feeds a grade item of its course (`sourceType: live_class`, `sourceId`: the class) grades each
 * student whose attendance was just written: the share of the sessions recorded for that student (present, late
 * or absent; an excused session counts for nothing) at which they were present or late. Each student's grade
 * reads only their own records, in one statement for all of them, and is written in the attendance's transaction
 * through the gradebook's write path (log, course grade, events). Nothing happens without such an item.
 */
export async function gradeAttendance(
  tx: Executor,
  tenantId: string,
  actor: Actor,
  c: ClassRow,
  userIds: readonly string[],
): Promise<void> {
  if (c.courseId === null || userIds.length === 0) return;
  const rows = (await tx.execute(sql`
    SELECT user_id AS "userId",
           count(*) FILTER (WHERE status IN ('present', 'late'))::int AS attended,
           count(*) FILTER (WHERE status <> 'excused')::int AS counted
    FROM ${liveClassAttendance}
    WHERE tenant_id = ${tenantId} AND live_class_id = ${c.id}
      AND user_id = ANY(${uuidArray([...new Set(userIds)])})
    GROUP BY user_id`)) as unknown as { rows: { userId: string; attended: number; counted: number }[] };
  const percents = rows.rows
    .filter((r) => r.counted > 0)
    .map((r) => ({ userId: r.userId, percent: (r.attended / r.counted) * 100 }));
  await recordSourceGrades(tx, tenantId, actor, {
    courseId: c.courseId,
    sourceType: "live_class",
    sourceId: c.id,
    percents,
  });
}
