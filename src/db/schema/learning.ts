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
import { courses } from "./courses.js";
import { tenants } from "./tenancy.js";
import { classGroups, users } from "./users.js";

/** A course's ordered sections (Canvas modules): positions are 1-based and kept dense by the service. */
export const courseModules = pgTable(
  "course_modules",
  {
    tenantId: tenantIdColumn().references(() => tenants.id, { onDelete: "cascade" }),
    id: uuid("id").notNull().defaultRandom(),
    courseId: uuid("course_id").notNull(),
    title: text("title").notNull(),
    description: text("description"),
    position: integer("position").notNull(),
    status: text("status").notNull().default("draft"),
    unlockAt: isoTimestamp("unlock_at"),
    prerequisiteModuleIds: uuid("prerequisite_module_ids").array().notNull().default(sql`'{}'::uuid[]`),
    /** `all` or `any` of the module's required lessons complete it. */
    completionRequirement: text("completion_requirement").notNull().default("all"),
    sequential: boolean("sequential").notNull().default(false),
    createdAt: isoTimestamp("created_at").notNull().default(sql`now()`),
    updatedAt: isoTimestamp("updated_at").notNull().default(sql`now()`),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index("course_modules_course_position_idx").on(t.tenantId, t.courseId, t.position, t.id),
    index("course_modules_course_status_position_idx").on(t.tenantId, t.courseId, t.status, t.position, t.id),
    index("course_modules_course_title_idx").on(
      t.tenantId,
      t.courseId,
      sql`aula_fold(${t.title})`,
      t.title,
      t.id,
    ),
    index("course_modules_course_created_idx").on(t.tenantId, t.courseId, t.createdAt, t.id),
    foreignKey({
      columns: [t.tenantId, t.courseId],
      foreignColumns: [courses.tenantId, courses.id],
    }).onDelete("cascade"),
  ],
);

/** A module's ordered items. `type` never changes after creation; `content` is shaped by it. */
export const lessons = pgTable(
  "lessons",
  {
    tenantId: tenantIdColumn().references(() => tenants.id, { onDelete: "cascade" }),
    id: uuid("id").notNull().defaultRandom(),
    courseId: uuid("course_id").notNull(),
    moduleId: uuid("module_id").notNull(),
    title: text("title").notNull(),
    type: text("type").notNull(),
    content: jsonb("content").notNull().default(sql`'{}'::jsonb`),
    position: integer("position").notNull(),
    status: text("status").notNull().default("draft"),
    isPreview: boolean("is_preview").notNull().default(false),
    durationSeconds: integer("duration_seconds"),
    requiredForCompletion: boolean("required_for_completion").notNull().default(true),
    /** `{type: view|min_time|submit|min_score|manual, minSeconds?, minScorePercent?}` */
    completionCriteria: jsonb("completion_criteria").notNull().default(sql`'{"type":"view"}'::jsonb`),
    unlockAt: isoTimestamp("unlock_at"),
    dueAt: isoTimestamp("due_at"),
    createdAt: isoTimestamp("created_at").notNull().default(sql`now()`),
    updatedAt: isoTimestamp("updated_at").notNull().default(sql`now()`),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index("lessons_module_position_idx").on(t.tenantId, t.moduleId, t.position, t.id),
    index("lessons_module_status_position_idx").on(t.tenantId, t.moduleId, t.status, t.position, t.id),
    index("lessons_module_type_position_idx").on(t.tenantId, t.moduleId, t.type, t.position, t.id),
    index("lessons_module_title_idx").on(t.tenantId, t.moduleId, sql`aula_fold(${t.title})`, t.title, t.id),
    index("lessons_module_created_idx").on(t.tenantId, t.moduleId, t.createdAt, t.id),
    index("lessons_course_idx").on(t.tenantId, t.courseId),
    index("lessons_due_idx")
      .on(t.tenantId, t.dueAt)
      .where(sql`${t.status} = 'published' AND ${t.dueAt} IS NOT NULL`),
    foreignKey({
      columns: [t.tenantId, t.moduleId],
      foreignColumns: [courseModules.tenantId, courseModules.id],
    }).onDelete("cascade"),
  ],
);

/**
 * A user's enrollment in a course. At most one that is not `dropped` per (user, course): a dropped enrollment
 * keeps its history and a new one may be made. Progress is computed from lesson completions, never stored.
 */
export const enrollments = pgTable(
  "enrollments",
  {
    tenantId: tenantIdColumn().references(() => tenants.id, { onDelete: "cascade" }),
    id: uuid("id").notNull().defaultRandom(),
    userId: uuid("user_id").notNull(),
    courseId: uuid("course_id").notNull(),
    /** Cleared (not cascaded) when the class group is deleted: see the migration's ON DELETE SET NULL (column). */
    classGroupId: uuid("class_group_id"),
    role: text("role").notNull().default("student"),
    status: text("status").notNull().default("active"),
    source: text("source").notNull().default("api"),
    enrolledAt: isoTimestamp("enrolled_at").notNull().default(sql`now()`),
    startedAt: isoTimestamp("started_at"),
    completedAt: isoTimestamp("completed_at"),
    expiresAt: isoTimestamp("expires_at"),
    lastActivityAt: isoTimestamp("last_activity_at"),
    /** When `enrollment_progressed` was last written, so it is written at most once a minute per enrollment. */
    progressEventAt: isoTimestamp("progress_event_at"),
    createdAt: isoTimestamp("created_at").notNull().default(sql`now()`),
    updatedAt: isoTimestamp("updated_at").notNull().default(sql`now()`),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex("enrollments_current_key")
      .on(t.tenantId, t.userId, t.courseId)
      .where(sql`${t.status} <> 'dropped'`),
    index("enrollments_tenant_created_idx").on(t.tenantId, t.createdAt, t.id),
    index("enrollments_tenant_status_created_idx").on(t.tenantId, t.status, t.createdAt, t.id),
    index("enrollments_course_created_idx").on(t.tenantId, t.courseId, t.createdAt, t.id),
    index("enrollments_user_created_idx").on(t.tenantId, t.userId, t.createdAt, t.id),
    index("enrollments_user_status_created_idx").on(t.tenantId, t.userId, t.status, t.createdAt, t.id),
    index("enrollments_course_status_created_idx").on(t.tenantId, t.courseId, t.status, t.createdAt, t.id),
    index("enrollments_class_idx").on(t.tenantId, t.classGroupId),
    foreignKey({ columns: [t.tenantId, t.userId], foreignColumns: [users.tenantId, users.id] }).onDelete(
      "cascade",
    ),
    foreignKey({
      columns: [t.tenantId, t.courseId],
      foreignColumns: [courses.tenantId, courses.id],
    }).onDelete("cascade"),
    foreignKey({
      name: "enrollments_class_group_fk",
      columns: [t.tenantId, t.classGroupId],
      foreignColumns: [classGroups.tenantId, classGroups.id],
    }),
  ],
);

/** The first completion of a lesson by a user; a repeat changes nothing. */
export const lessonCompletions = pgTable(
  "lesson_completions",
  {
    tenantId: tenantIdColumn().references(() => tenants.id, { onDelete: "cascade" }),
    lessonId: uuid("lesson_id").notNull(),
    userId: uuid("user_id").notNull(),
    courseId: uuid("course_id").notNull(),
    moduleId: uuid("module_id").notNull(),
    enrollmentId: uuid("enrollment_id"),
    completedAt: isoTimestamp("completed_at").notNull().default(sql`now()`),
    timeSpentSeconds: integer("time_spent_seconds"),
    scorePercent: numeric("score_percent", { precision: 5, scale: 2, mode: "number" }),
    source: text("source").notNull().default("api"),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.lessonId, t.userId] }),
    index("lesson_completions_course_user_idx").on(t.tenantId, t.courseId, t.userId),
    index("lesson_completions_lesson_completed_idx").on(t.tenantId, t.lessonId, t.completedAt, t.userId),
    foreignKey({
      columns: [t.tenantId, t.lessonId],
      foreignColumns: [lessons.tenantId, lessons.id],
    }).onDelete("cascade"),
    foreignKey({ columns: [t.tenantId, t.userId], foreignColumns: [users.tenantId, users.id] }).onDelete(
      "cascade",
    ),
  ],
);
