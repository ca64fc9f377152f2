import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  foreignKey,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { isoTimestamp, tenantIdColumn } from "./columns.js";
import { courses } from "./courses.js";
import { enrollments } from "./learning.js";
import { rubrics } from "./rubrics.js";
import { users } from "./users.js";

/** Migration 0052. A course's grade categories (Canvas's assignment groups): weight and drop rule. */
export const gradeCategories = pgTable(
  "grade_categories",
  {
    tenantId: tenantIdColumn(),
    id: uuid("id").notNull().defaultRandom(),
    courseId: uuid("course_id").notNull(),
    name: text("name").notNull(),
    weight: numeric("weight", { precision: 5, scale: 2, mode: "number" }),
    dropLowest: integer("drop_lowest").notNull().default(0),
    position: integer("position").notNull(),
    createdAt: isoTimestamp("created_at").notNull().default(sql`now()`),
    updatedAt: isoTimestamp("updated_at").notNull().default(sql`now()`),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index("grade_categories_course_position_idx").on(t.tenantId, t.courseId, t.position, t.id),
    foreignKey({
      columns: [t.tenantId, t.courseId],
      foreignColumns: [courses.tenantId, courses.id],
    }).onDelete("cascade"),
  ],
);

/** A column of a course's gradebook. */
export const gradeItems = pgTable(
  "grade_items",
  {
    tenantId: tenantIdColumn(),
    id: uuid("id").notNull().defaultRandom(),
    courseId: uuid("course_id").notNull(),
    categoryId: uuid("category_id"),
    title: text("title").notNull(),
    sourceType: text("source_type").notNull().default("manual"),
    sourceId: uuid("source_id"),
    maxPoints: numeric("max_points", { precision: 10, scale: 2, mode: "number" }).notNull(),
    passPercent: numeric("pass_percent", { precision: 5, scale: 2, mode: "number" }),
    dueAt: isoTimestamp("due_at"),
    position: integer("position").notNull(),
    visibleToStudents: boolean("visible_to_students").notNull().default(true),
    postPolicy: text("post_policy").notNull().default("automatic"),
    excludedFromFinal: boolean("excluded_from_final").notNull().default(false),
    /** Migration 0053: a grading assessment with this rubric writes the item's grade. */
    rubricId: uuid("rubric_id"),
    createdAt: isoTimestamp("created_at").notNull().default(sql`now()`),
    updatedAt: isoTimestamp("updated_at").notNull().default(sql`now()`),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index("grade_items_course_position_idx").on(t.tenantId, t.courseId, t.position, t.id),
    index("grade_items_category_idx").on(t.tenantId, t.categoryId),
    index("grade_items_rubric_idx").on(t.tenantId, t.rubricId).where(sql`${t.rubricId} IS NOT NULL`),
    uniqueIndex("grade_items_source_key")
      .on(t.tenantId, t.courseId, t.sourceType, t.sourceId)
      .where(sql`${t.sourceId} IS NOT NULL`),
    foreignKey({
      columns: [t.tenantId, t.courseId],
      foreignColumns: [courses.tenantId, courses.id],
    }).onDelete("cascade"),
    // ON DELETE SET NULL (category_id) in the migration: the item stays, uncategorised.
    foreignKey({
      columns: [t.tenantId, t.categoryId],
      foreignColumns: [gradeCategories.tenantId, gradeCategories.id],
    }),
    // ON DELETE SET NULL (rubric_id) in migration 0053: the item stays, without a rubric.
    foreignKey({ columns: [t.tenantId, t.rubricId], foreignColumns: [rubrics.tenantId, rubrics.id] }),
  ],
);

/** One student's grade on one item. */
export const grades = pgTable(
  "grades",
  {
    tenantId: tenantIdColumn(),
    id: uuid("id").notNull().defaultRandom(),
    gradeItemId: uuid("grade_item_id").notNull(),
    courseId: uuid("course_id").notNull(),
    userId: uuid("user_id").notNull(),
    enrollmentId: uuid("enrollment_id"),
    score: numeric("score", { precision: 10, scale: 2, mode: "number" }),
    overrideScore: numeric("override_score", { precision: 10, scale: 2, mode: "number" }),
    status: text("status").notNull().default("pending"),
    feedback: text("feedback"),
    /** `{type: "user"|"api_key"|"system", id}` */
    gradedBy: jsonb("graded_by"),
    gradedAt: isoTimestamp("graded_at"),
    postedAt: isoTimestamp("posted_at"),
    source: text("source").notNull().default("manual"),
    createdAt: isoTimestamp("created_at").notNull().default(sql`now()`),
    updatedAt: isoTimestamp("updated_at").notNull().default(sql`now()`),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex("grades_item_user_key").on(t.tenantId, t.gradeItemId, t.userId),
    index("grades_item_created_idx").on(t.tenantId, t.gradeItemId, t.createdAt, t.id),
    index("grades_course_user_idx").on(t.tenantId, t.courseId, t.userId),
    index("grades_enrollment_idx").on(t.tenantId, t.enrollmentId),
    foreignKey({
      columns: [t.tenantId, t.gradeItemId],
      foreignColumns: [gradeItems.tenantId, gradeItems.id],
    }).onDelete("cascade"),
    foreignKey({ columns: [t.tenantId, t.userId], foreignColumns: [users.tenantId, users.id] }).onDelete(
      "cascade",
    ),
    // ON DELETE SET NULL (enrollment_id) in the migration.
    foreignKey({
      columns: [t.tenantId, t.enrollmentId],
      foreignColumns: [enrollments.tenantId, enrollments.id],
    }),
  ],
);

/** The course grade of a student (their current enrollment), kept by every grade write: percents, 2 decimals. */
export const courseGrades = pgTable(
  "course_grades",
  {
    tenantId: tenantIdColumn(),
    courseId: uuid("course_id").notNull(),
    userId: uuid("user_id").notNull(),
    enrollmentId: uuid("enrollment_id"),
    currentScore: numeric("current_score", { precision: 7, scale: 2, mode: "number" }),
    finalScore: numeric("final_score", { precision: 7, scale: 2, mode: "number" }),
    unpostedCurrentScore: numeric("unposted_current_score", { precision: 7, scale: 2, mode: "number" }),
    unpostedFinalScore: numeric("unposted_final_score", { precision: 7, scale: 2, mode: "number" }),
    updatedAt: isoTimestamp("updated_at").notNull().default(sql`now()`),
  },
  (t) => [
    primaryKey({ name: "course_grades_pk", columns: [t.tenantId, t.courseId, t.userId] }),
    index("course_grades_enrollment_idx").on(t.tenantId, t.enrollmentId),
    foreignKey({
      columns: [t.tenantId, t.courseId],
      foreignColumns: [courses.tenantId, courses.id],
    }).onDelete("cascade"),
    foreignKey({ columns: [t.tenantId, t.userId], foreignColumns: [users.tenantId, users.id] }).onDelete(
      "cascade",
    ),
  ],
);

/** Append-only: every change of a grade's score, status, override or posting. */
export const gradeChanges = pgTable(
  "grade_changes",
  {
    tenantId: tenantIdColumn(),
    id: uuid("id").notNull().defaultRandom(),
    seq: bigint("seq", { mode: "number" }).generatedAlwaysAsIdentity(),
    courseId: uuid("course_id").notNull(),
    gradeItemId: uuid("grade_item_id").notNull(),
    gradeId: uuid("grade_id").notNull(),
    userId: uuid("user_id").notNull(),
    actorType: text("actor_type").notNull(),
    actorId: uuid("actor_id"),
    via: text("via").notNull(),
    scoreBefore: numeric("score_before", { precision: 10, scale: 2, mode: "number" }),
    scoreAfter: numeric("score_after", { precision: 10, scale: 2, mode: "number" }),
    statusBefore: text("status_before"),
    statusAfter: text("status_after"),
    overrideBefore: numeric("override_before", { precision: 10, scale: 2, mode: "number" }),
    overrideAfter: numeric("override_after", { precision: 10, scale: 2, mode: "number" }),
    postedBefore: isoTimestamp("posted_before"),
    postedAfter: isoTimestamp("posted_after"),
    createdAt: isoTimestamp("created_at").notNull().default(sql`now()`),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index("grade_changes_course_seq_idx").on(t.tenantId, t.courseId, t.seq),
    foreignKey({
      columns: [t.tenantId, t.courseId],
      foreignColumns: [courses.tenantId, courses.id],
    }).onDelete("cascade"),
  ],
);
