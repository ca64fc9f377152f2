/**
 * Where each report type's rows come from. Every source is driven by one table, filtered by the tenant (and its
 * parameters) and read in the order of an index of that table, so each batch of the keyset cursor is an index
 * range (cursor.ts); the other tables are joined per row by primary key.
 */
import { type SQL, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import type { ReportTypeKey } from "./catalogue.js";
import type { Column, ColumnKind, Source } from "./cursor.js";

export interface ReportParams {
  courseId?: string;
  status?: string;
  role?: string;
  liveClassId?: string;
}

const col = (name: string, expr: SQL, kind: ColumnKind = "text"): Column => ({ name, expr, kind });

const and = (...parts: (SQL | undefined)[]) =>
  sql.join(
    parts.filter((p): p is SQL => p !== undefined),
    sql` AND `,
  );

const USER = [col("user_id", sql`u.id`), col("user_name", sql`u.name`), col("user_email", sql`u.email`)];

function enrollmentSource(tenantId: string, p: ReportParams, progress: boolean): Source {
  const base = [
    col("enrollment_id", sql`e.id`),
    ...USER,
    col("course_id", sql`c.id`),
    col("course_title", sql`c.title`),
    col("role", sql`e.role`),
    col("status", sql`e.status`),
  ];
  const columns = progress
    ? [
        ...base,
        col("lessons_completed", sql`pr.done`, "number"),
        col("lessons_required", sql`pr.total`, "number"),
        col(
          "progress_percent",
          sql`CASE WHEN pr.total = 0 THEN 0 ELSE round(pr.done * 100.0 / pr.total, 2) END`,
          "number",
        ),
        col("last_activity_at", sql`e.last_activity_at`, "time"),
        col("completed_at", sql`e.completed_at`, "time"),
      ]
    : [
        ...base,
        col("source", sql`e.source`),
        col("enrolled_at", sql`e.enrolled_at`, "time"),
        col("started_at", sql`e.started_at`, "time"),
        col("completed_at", sql`e.completed_at`, "time"),
        col("expires_at", sql`e.expires_at`, "time"),
        col("last_activity_at", sql`e.last_activity_at`, "time"),
      ];
  // A course's required published lessons and the user's completions of them, per row (lessons_course_idx and
  // the completions' primary key): the same count the enrollment's own progress is made of.
  const lateral = progress
    ? sql`CROSS JOIN LATERAL (
        SELECT count(*) FILTER (WHERE l.required_for_completion)::int AS total,
               count(lc.user_id) FILTER (WHERE l.required_for_completion)::int AS done
          FROM lessons l
          LEFT JOIN lesson_completions lc
            ON lc.tenant_id = l.tenant_id AND lc.lesson_id = l.id AND lc.user_id = e.user_id
         WHERE l.tenant_id = e.tenant_id AND l.course_id = e.course_id AND l.status = 'published') pr`
    : sql``;
  return {
    columns,
    from: sql`enrollments e
      JOIN users u ON u.tenant_id = e.tenant_id AND u.id = e.user_id
      JOIN courses c ON c.tenant_id = e.tenant_id AND c.id = e.course_id ${lateral}`,
    where: and(
      sql`e.tenant_id = ${tenantId}`,
      p.courseId === undefined ? undefined : sql`e.course_id = ${p.courseId}`,
      p.status === undefined ? undefined : sql`e.status = ${p.status}`,
    ),
    keys: [
      { expr: sql`e.created_at`, cast: "timestamptz" },
      { expr: sql`e.id`, cast: "uuid" },
    ],
  };
}

function gradesSource(tenantId: string, p: ReportParams): Source {
  return {
    columns: [
      col("course_id", sql`c.id`),
      col("course_title", sql`c.title`),
      ...USER,
      col("enrollment_id", sql`g.enrollment_id`),
      col("current_score", sql`g.current_score`, "number"),
      col("final_score", sql`g.final_score`, "number"),
      col("unposted_current_score", sql`g.unposted_current_score`, "number"),
      col("unposted_final_score", sql`g.unposted_final_score`, "number"),
      col("updated_at", sql`g.updated_at`, "time"),
    ],
    from: sql`course_grades g
      JOIN users u ON u.tenant_id = g.tenant_id AND u.id = g.user_id
      JOIN courses c ON c.tenant_id = g.tenant_id AND c.id = g.course_id`,
    where: and(
      sql`g.tenant_id = ${tenantId}`,
      p.courseId === undefined ? undefined : sql`g.course_id = ${p.courseId}`,
    ),
    // The primary key's order (tenant, course, user).
    keys: [
      { expr: sql`g.course_id`, cast: "uuid" },
      { expr: sql`g.user_id`, cast: "uuid" },
    ],
  };
}

const userWhere = (tenantId: string, p: ReportParams) =>
  and(sql`u.tenant_id = ${tenantId}`, p.role === undefined ? undefined : sql`u.role = ${p.role}`);
const userKeys: Source["keys"] = [
  { expr: sql`u.created_at`, cast: "timestamptz" },
  { expr: sql`u.id`, cast: "uuid" },
];

function usersSource(tenantId: string, p: ReportParams): Source {
  return {
    columns: [
      ...USER,
      col("role", sql`u.role`),
      col("status", sql`u.status`),
      col("created_at", sql`u.created_at`, "time"),
      col("last_login_at", sql`u.last_login_at`, "time"),
      // The user's values by field id, one primary-key range; expanded into a column per field (profile.ts).
      col(
        "profile",
        sql`(SELECT jsonb_object_agg(v.field_id::text, v.value) FROM user_profile_values v
              WHERE v.tenant_id = u.tenant_id AND v.user_id = u.id)`,
        "json",
      ),
    ],
    from: sql`users u`,
    where: userWhere(tenantId, p),
    keys: userKeys,
  };
}

function activitySource(tenantId: string, p: ReportParams): Source {
  return {
    columns: [
      ...USER,
      col("role", sql`u.role`),
      col("status", sql`u.status`),
      col("last_login_at", sql`u.last_login_at`, "time"),
      col("enrollments", sql`a.enrollments`, "number"),
      col("completed_enrollments", sql`a.completed`, "number"),
      col("last_activity_at", sql`a.last_activity_at`, "time"),
    ],
    from: sql`users u CROSS JOIN LATERAL (
      SELECT count(*)::int AS enrollments, count(*) FILTER (WHERE e.status = 'completed')::int AS completed,
             max(e.last_activity_at) AS last_activity_at
        FROM enrollments e WHERE e.tenant_id = u.tenant_id AND e.user_id = u.id) a`,
    where: userWhere(tenantId, p),
    keys: userKeys,
  };
}

function attendanceSource(tenantId: string, p: ReportParams): Source {
  return {
    columns: [
      col("live_class_id", sql`lc.id`),
      col("live_class_title", sql`lc.title`),
      col("occurrence_id", sql`o.id`),
      col("occurrence_starts_at", sql`o.starts_at`, "time"),
      ...USER,
      col("status", sql`a.status`),
      col("joined_at", sql`a.joined_at`, "time"),
      col("left_at", sql`a.left_at`, "time"),
      col("duration_seconds", sql`a.duration_seconds`, "number"),
      col("source", sql`a.source`),
    ],
    from: sql`live_class_attendance a
      JOIN users u ON u.tenant_id = a.tenant_id AND u.id = a.user_id
      JOIN live_class_occurrences o ON o.tenant_id = a.tenant_id AND o.id = a.occurrence_id
      JOIN live_classes lc ON lc.tenant_id = a.tenant_id AND lc.id = a.live_class_id`,
    where: and(
      sql`a.tenant_id = ${tenantId}`,
      p.liveClassId === undefined ? undefined : sql`a.live_class_id = ${p.liveClassId}`,
    ),
    // The primary key's order (tenant, occurrence, user); with a class, live_class_attendance_class_idx's.
    keys: [
      { expr: sql`a.occurrence_id`, cast: "uuid" },
      { expr: sql`a.user_id`, cast: "uuid" },
    ],
  };
}

function certificateSource(tenantId: string, p: ReportParams): Source {
  return {
    columns: [
      col("certificate_id", sql`ce.id`),
      col("serial", sql`ce.serial`),
      col("status", sql`ce.status`),
      col("user_id", sql`ce.user_id`),
      col("student_name", sql`ce.student_name`),
      col("user_email", sql`u.email`),
      col("course_id", sql`ce.course_id`),
      col("course_title", sql`ce.course_title`),
      col("learning_path_id", sql`ce.learning_path_id`),
      col("learning_path_title", sql`ce.learning_path_title`),
      col("issued_at", sql`ce.issued_at`, "time"),
      col("expires_at", sql`ce.expires_at`, "time"),
      col("revoked_at", sql`ce.revoked_at`, "time"),
    ],
    from: sql`certificates ce LEFT JOIN users u ON u.tenant_id = ce.tenant_id AND u.id = ce.user_id`,
    where: and(
      sql`ce.tenant_id = ${tenantId}`,
      p.courseId === undefined ? undefined : sql`ce.course_id = ${p.courseId}`,
      p.status === undefined ? undefined : sql`ce.status = ${p.status}`,
    ),
    keys: [
      { expr: sql`ce.issued_at`, cast: "timestamptz" },
      { expr: sql`ce.id`, cast: "uuid" },
    ],
  };
}

export function sourceOf(type: ReportTypeKey, tenantId: string, params: ReportParams): Source {
  switch (type) {
    case "enrollments":
      return enrollmentSource(tenantId, params, false);
    case "course_progress":
      return enrollmentSource(tenantId, params, true);
    case "grades":
      return gradesSource(tenantId, params);
    case "users":
      return usersSource(tenantId, params);
    case "user_activity":
      return activitySource(tenantId, params);
    case "live_attendance":
      return attendanceSource(tenantId, params);
    case "certificates":
      return certificateSource(tenantId, params);
  }
}

/** Checks that the ids a run names are this institution's (a 400 at POST, not a failed run). */
export async function unknownReferences(db: Executor, tenantId: string, p: ReportParams): Promise<string[]> {
  const missing: string[] = [];
  const exists = async (table: string, id: string) => {
    const r = (await db.execute(
      sql`SELECT 1 FROM ${sql.raw(table)} WHERE tenant_id = ${tenantId} AND id = ${id}`,
    )) as { rows: unknown[] };
    return r.rows.length > 0;
  };
  if (p.courseId !== undefined && !(await exists("courses", p.courseId))) missing.push("courseId");
  if (p.liveClassId !== undefined && !(await exists("live_classes", p.liveClassId)))
    missing.push("liveClassId");
  return missing;
}
