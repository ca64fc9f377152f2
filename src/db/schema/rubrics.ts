import { sql } from "drizzle-orm";
import {
  boolean,
  foreignKey,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  uuid,
} from "drizzle-orm/pg-core";
import { isoTimestamp, tenantIdColumn } from "./columns.js";
import { courses } from "./courses.js";
import { users } from "./users.js";

/** Migration 0053. A rubric: its current criteria are those of its current `version` (rubric_versions). */
export const rubrics = pgTable(
  "rubrics",
  {
    tenantId: tenantIdColumn(),
    id: uuid("id").notNull().defaultRandom(),
    title: text("title").notNull(),
    description: text("description"),
    scope: text("scope").notNull().default("institution"),
    courseId: uuid("course_id"),
    freeFormComments: boolean("free_form_comments").notNull().default(false),
    hideScoreTotal: boolean("hide_score_total").notNull().default(false),
    status: text("status").notNull().default("active"),
    version: integer("version").notNull().default(1),
    createdAt: isoTimestamp("created_at").notNull().default(sql`now()`),
    updatedAt: isoTimestamp("updated_at").notNull().default(sql`now()`),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index("rubrics_tenant_created_idx").on(t.tenantId, t.createdAt, t.id),
    index("rubrics_tenant_status_created_idx").on(t.tenantId, t.status, t.createdAt, t.id),
    index("rubrics_tenant_scope_created_idx").on(t.tenantId, t.scope, t.createdAt, t.id),
    index("rubrics_tenant_course_created_idx").on(t.tenantId, t.courseId, t.createdAt, t.id),
    // rubrics_tenant_title_idx (aula_fold) and rubrics_search_idx (trigram) are in the migration.
    foreignKey({
      columns: [t.tenantId, t.courseId],
      foreignColumns: [courses.tenantId, courses.id],
    }).onDelete("cascade"),
  ],
);

/**
 * One version of a rubric's criteria. A version an assessment was made with is never changed: an edit of the
 * criteria then writes the next version, and the rubric points at it.
 */
export const rubricVersions = pgTable(
  "rubric_versions",
  {
    tenantId: tenantIdColumn(),
    rubricId: uuid("rubric_id").notNull(),
    version: integer("version").notNull(),
    /** Criterion[]: `{id, description, longDescription, points, useRange, ratings[{id, description, …}]}` */
    criteria: jsonb("criteria").notNull(),
    pointsPossible: numeric("points_possible", { precision: 10, scale: 2, mode: "number" }).notNull(),
    createdAt: isoTimestamp("created_at").notNull().default(sql`now()`),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.rubricId, t.version] }),
    foreignKey({
      columns: [t.tenantId, t.rubricId],
      foreignColumns: [rubrics.tenantId, rubrics.id],
    }).onDelete("cascade"),
  ],
);

/** An assessment of a target (a quiz attempt; submissions later) with one version of a rubric. */
export const rubricAssessments = pgTable(
  "rubric_assessments",
  {
    tenantId: tenantIdColumn(),
    id: uuid("id").notNull().defaultRandom(),
    rubricId: uuid("rubric_id").notNull(),
    rubricVersion: integer("rubric_version").notNull(),
    targetType: text("target_type").notNull(),
    targetId: uuid("target_id").notNull(),
    courseId: uuid("course_id").notNull(),
    userId: uuid("user_id").notNull(),
    /** `{type: "user"|"api_key"|"system", id}` */
    assessedBy: jsonb("assessed_by").notNull(),
    type: text("type").notNull(),
    /** `[{criterionId, ratingId, points, comment}]` in the version's criterion order. */
    criterionScores: jsonb("criterion_scores").notNull(),
    totalPoints: numeric("total_points", { precision: 10, scale: 2, mode: "number" }).notNull(),
    createdAt: isoTimestamp("created_at").notNull().default(sql`now()`),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index("rubric_assessments_rubric_created_idx").on(t.tenantId, t.rubricId, t.createdAt, t.id),
    index("rubric_assessments_target_idx").on(t.tenantId, t.targetType, t.targetId),
    foreignKey({
      columns: [t.tenantId, t.rubricId, t.rubricVersion],
      foreignColumns: [rubricVersions.tenantId, rubricVersions.rubricId, rubricVersions.version],
    }).onDelete("cascade"),
    foreignKey({
      columns: [t.tenantId, t.courseId],
      foreignColumns: [courses.tenantId, courses.id],
    }).onDelete("cascade"),
    foreignKey({ columns: [t.tenantId, t.userId], foreignColumns: [users.tenantId, users.id] }).onDelete(
      "cascade",
    ),
  ],
);
