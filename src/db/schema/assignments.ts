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
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { isoTimestamp, tenantIdColumn } from "./columns.js";
import { enrollments, lessons } from "./learning.js";
import { tenants } from "./tenancy.js";
import { users } from "./users.js";

/** Migration 0054. The settings of a lesson of type `assignment` (one per lesson, as a quiz is). */
export const assignments = pgTable(
  "assignments",
  {
    tenantId: tenantIdColumn().references(() => tenants.id, { onDelete: "cascade" }),
    id: uuid("id").notNull().defaultRandom(),
    lessonId: uuid("lesson_id").notNull(),
    courseId: uuid("course_id").notNull(),
    instructions: text("instructions"),
    dueAt: isoTimestamp("due_at"),
    lockAt: isoTimestamp("lock_at"),
    allowedKinds: text("allowed_kinds").array().notNull().default(sql`'{text}'::text[]`),
    allowedAttempts: integer("allowed_attempts"),
    pointsPossible: numeric("points_possible", { precision: 10, scale: 2, mode: "number" })
      .notNull()
      .default(100),
    /** `{deductionPercent, interval: "day"|"hour", maxDeductionPercent}` */
    latePolicy: jsonb("late_policy").notNull(),
    /** When the worker marked the students without a submission `missing` (reset when `dueAt` changes). */
    missingSweptAt: isoTimestamp("missing_swept_at"),
    createdAt: isoTimestamp("created_at").notNull().default(sql`now()`),
    updatedAt: isoTimestamp("updated_at").notNull().default(sql`now()`),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex("assignments_lesson_key").on(t.tenantId, t.lessonId),
    index("assignments_missing_due_idx")
      .on(t.dueAt)
      .where(sql`${t.dueAt} IS NOT NULL AND ${t.missingSweptAt} IS NULL`),
    foreignKey({
      columns: [t.tenantId, t.lessonId],
      foreignColumns: [lessons.tenantId, lessons.id],
    }).onDelete("cascade"),
  ],
);

/** A student's own due (and lock) date for an assignment. */
export const assignmentExtensions = pgTable(
  "assignment_extensions",
  {
    tenantId: tenantIdColumn(),
    assignmentId: uuid("assignment_id").notNull(),
    userId: uuid("user_id").notNull(),
    dueAt: isoTimestamp("due_at").notNull(),
    lockAt: isoTimestamp("lock_at"),
    missingSweptAt: isoTimestamp("missing_swept_at"),
    createdAt: isoTimestamp("created_at").notNull().default(sql`now()`),
    updatedAt: isoTimestamp("updated_at").notNull().default(sql`now()`),
  },
  (t) => [
    primaryKey({ name: "assignment_extensions_pk", columns: [t.tenantId, t.assignmentId, t.userId] }),
    index("assignment_extensions_missing_due_idx").on(t.dueAt).where(sql`${t.missingSweptAt} IS NULL`),
    foreignKey({
      columns: [t.tenantId, t.assignmentId],
      foreignColumns: [assignments.tenantId, assignments.id],
    }).onDelete("cascade"),
    foreignKey({ columns: [t.tenantId, t.userId], foreignColumns: [users.tenantId, users.id] }).onDelete(
      "cascade",
    ),
  ],
);

const content = {
  bodyText: text("body_text"),
  attachmentMediaIds: uuid("attachment_media_ids").array().notNull().default(sql`'{}'::uuid[]`),
  url: text("url"),
  submittedAt: isoTimestamp("submitted_at"),
  score: numeric("score", { precision: 10, scale: 2, mode: "number" }),
  deductedPoints: numeric("deducted_points", { precision: 10, scale: 2, mode: "number" }),
  finalScore: numeric("final_score", { precision: 10, scale: 2, mode: "number" }),
  feedback: text("feedback"),
  gradedAt: isoTimestamp("graded_at"),
  /** `{type: "user"|"api_key"|"system", id}` */
  gradedBy: jsonb("graded_by"),
};

/** A student's submission to an assignment lesson: its latest attempt, grade and status. */
export const submissions = pgTable(
  "submissions",
  {
    tenantId: tenantIdColumn(),
    id: uuid("id").notNull().defaultRandom(),
    assignmentId: uuid("assignment_id").notNull(),
    lessonId: uuid("lesson_id").notNull(),
    courseId: uuid("course_id").notNull(),
    userId: uuid("user_id").notNull(),
    enrollmentId: uuid("enrollment_id"),
    attempt: integer("attempt").notNull(),
    status: text("status").notNull(),
    ...content,
    late: boolean("late").notNull().default(false),
    secondsLate: integer("seconds_late").notNull().default(0),
    /** The rubric assessment that graded it last (set by gradeSubmissionByRubric); no foreign key. */
    rubricAssessmentId: uuid("rubric_assessment_id"),
    createdAt: isoTimestamp("created_at").notNull().default(sql`now()`),
    updatedAt: isoTimestamp("updated_at").notNull().default(sql`now()`),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex("submissions_lesson_user_key").on(t.tenantId, t.lessonId, t.userId),
    index("submissions_lesson_created_idx").on(t.tenantId, t.lessonId, t.createdAt, t.id),
    index("submissions_lesson_status_created_idx").on(t.tenantId, t.lessonId, t.status, t.createdAt, t.id),
    index("submissions_assignment_idx").on(t.tenantId, t.assignmentId),
    index("submissions_enrollment_idx").on(t.tenantId, t.enrollmentId),
    foreignKey({
      columns: [t.tenantId, t.assignmentId],
      foreignColumns: [assignments.tenantId, assignments.id],
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

/** Earlier attempts of a submission, as they stood when the next attempt replaced them. */
export const submissionVersions = pgTable(
  "submission_versions",
  {
    tenantId: tenantIdColumn(),
    submissionId: uuid("submission_id").notNull(),
    attempt: integer("attempt").notNull(),
    status: text("status").notNull(),
    ...content,
    late: boolean("late").notNull(),
    secondsLate: integer("seconds_late").notNull(),
  },
  (t) => [
    primaryKey({ name: "submission_versions_pk", columns: [t.tenantId, t.submissionId, t.attempt] }),
    foreignKey({
      columns: [t.tenantId, t.submissionId],
      foreignColumns: [submissions.tenantId, submissions.id],
    }).onDelete("cascade"),
  ],
);

/** Comments on a submission by its student or the course's staff. */
export const submissionComments = pgTable(
  "submission_comments",
  {
    tenantId: tenantIdColumn(),
    id: uuid("id").notNull().defaultRandom(),
    submissionId: uuid("submission_id").notNull(),
    /** `{type: "user"|"api_key", id}` */
    author: jsonb("author").notNull(),
    body: text("body").notNull(),
    createdAt: isoTimestamp("created_at").notNull().default(sql`now()`),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index("submission_comments_submission_created_idx").on(t.tenantId, t.submissionId, t.createdAt, t.id),
    foreignKey({
      columns: [t.tenantId, t.submissionId],
      foreignColumns: [submissions.tenantId, submissions.id],
    }).onDelete("cascade"),
  ],
);
