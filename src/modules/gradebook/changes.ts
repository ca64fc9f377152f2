import { and, desc, eq, type SQL } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import { readCounter } from "../../db/counters.js";
import { type Bindable, runPageQuery } from "../../db/page-query.js";
import { gradeChanges } from "../../db/schema/index.js";
import { cappedPageEnvelope, exactTotal } from "../../platform/pagination/capped.js";
import { pageWindow } from "../../platform/pagination/pagination.js";
import type { Actor } from "../events/actor.js";
import type { GradeChangeRecord } from "./grade-schemas.js";
import { staffCourse } from "./guard.js";

const columns = {
  id: gradeChanges.id,
  courseId: gradeChanges.courseId,
  gradeItemId: gradeChanges.gradeItemId,
  gradeId: gradeChanges.gradeId,
  userId: gradeChanges.userId,
  actorType: gradeChanges.actorType,
  actorId: gradeChanges.actorId,
  via: gradeChanges.via,
  scoreBefore: gradeChanges.scoreBefore,
  scoreAfter: gradeChanges.scoreAfter,
  statusBefore: gradeChanges.statusBefore,
  statusAfter: gradeChanges.statusAfter,
  overrideBefore: gradeChanges.overrideBefore,
  overrideAfter: gradeChanges.overrideAfter,
  postedBefore: gradeChanges.postedBefore,
  postedAfter: gradeChanges.postedAfter,
  createdAt: gradeChanges.createdAt,
};

type Row = Omit<GradeChangeRecord, "actor"> & { actorType: string; actorId: string | null };

function where(tenantId: Bindable, courseId: Bindable): SQL {
  return and(eq(gradeChanges.tenantId, tenantId), eq(gradeChanges.courseId, courseId)) as SQL;
}

/** A course's grade change log, newest first (grade_changes_course_seq_idx, backwards); total from its counter. */
export async function listChanges(
  db: Executor,
  tenantId: string,
  actor: Actor,
  courseId: string,
  query: { page?: number; perPage?: number },
) {
  const window = pageWindow(query);
  await staffCourse(db, tenantId, actor, courseId);
  const [rows, total] = await Promise.all([
    runPageQuery(db, "grade_changes", tenantId, { courseId }, window, (p, name) =>
      db
        .select(columns)
        .from(gradeChanges)
        .where(where(p.tenantId, p.courseId as Bindable))
        .orderBy(desc(gradeChanges.seq))
        .limit(p.limit)
        .offset(p.offset)
        .prepare(name),
    ) as Promise<Row[]>,
    readCounter(db, tenantId, `grade_changes:course_id:${courseId}`),
  ]);
  const data = rows.map(({ actorType, actorId, ...rest }) => ({
    ...rest,
    actor: { type: actorType, id: actorId } as GradeChangeRecord["actor"],
  }));
  return cappedPageEnvelope(data, exactTotal(total), window);
}
