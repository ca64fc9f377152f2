import { sql } from "drizzle-orm";
import { boolean, foreignKey, index, integer, pgTable, primaryKey, text, uuid } from "drizzle-orm/pg-core";
import { isoTimestamp, tenantIdColumn } from "./columns.js";
import { courses } from "./courses.js";
import { tenants } from "./tenancy.js";
import { users } from "./users.js";

/** An ordered set of courses (a Thinkific or LearnWorlds bundle); `requiredCount` counts its required courses. */
export const learningPaths = pgTable(
  "learning_paths",
  {
    tenantId: tenantIdColumn().references(() => tenants.id, { onDelete: "cascade" }),
    id: uuid("id").notNull().defaultRandom(),
    title: text("title").notNull(),
    description: text("description"),
    sequential: boolean("sequential").notNull().default(false),
    status: text("status").notNull().default("draft"),
    requiredCount: integer("required_count").notNull().default(0),
    createdAt: isoTimestamp("created_at").notNull().default(sql`now()`),
    updatedAt: isoTimestamp("updated_at").notNull().default(sql`now()`),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index("learning_paths_tenant_created_idx").on(t.tenantId, t.createdAt, t.id),
    index("learning_paths_tenant_status_created_idx").on(t.tenantId, t.status, t.createdAt, t.id),
    index("learning_paths_tenant_title_idx").on(t.tenantId, sql`aula_fold(${t.title})`, t.title, t.id),
    index("learning_paths_search_idx").using(
      "gin",
      t.tenantId,
      sql`aula_fold(${t.title} || ' ' || coalesce(${t.description}, '')) gin_trgm_ops`,
    ),
  ],
);

/** A course of a path: its place, whether it counts toward completion, and the courses of the path it waits for. */
export const learningPathCourses = pgTable(
  "learning_path_courses",
  {
    tenantId: tenantIdColumn(),
    pathId: uuid("path_id").notNull(),
    courseId: uuid("course_id").notNull(),
    position: integer("position").notNull(),
    required: boolean("required").notNull().default(true),
    prerequisites: uuid("prerequisites").array().notNull().default(sql`'{}'`),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.pathId, t.courseId] }),
    index("learning_path_courses_course_idx").on(t.tenantId, t.courseId),
    foreignKey({
      name: "learning_path_courses_path_fk",
      columns: [t.tenantId, t.pathId],
      foreignColumns: [learningPaths.tenantId, learningPaths.id],
    }).onDelete("cascade"),
    foreignKey({
      name: "learning_path_courses_course_fk",
      columns: [t.tenantId, t.courseId],
      foreignColumns: [courses.tenantId, courses.id],
    }).onDelete("cascade"),
  ],
);

/** A user's enrollment in a path, with its progress kept on write (`requiredCompleted` of the path's required courses). */
export const learningPathEnrollments = pgTable(
  "learning_path_enrollments",
  {
    tenantId: tenantIdColumn(),
    pathId: uuid("path_id").notNull(),
    userId: uuid("user_id").notNull(),
    status: text("status").notNull().default("active"),
    requiredCompleted: integer("required_completed").notNull().default(0),
    enrolledAt: isoTimestamp("enrolled_at").notNull().default(sql`now()`),
    completedAt: isoTimestamp("completed_at"),
    updatedAt: isoTimestamp("updated_at").notNull().default(sql`now()`),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.pathId, t.userId] }),
    index("learning_path_enrollments_path_enrolled_idx").on(t.tenantId, t.pathId, t.enrolledAt, t.userId),
    index("learning_path_enrollments_path_status_enrolled_idx").on(
      t.tenantId,
      t.pathId,
      t.status,
      t.enrolledAt,
      t.userId,
    ),
    index("learning_path_enrollments_user_idx").on(t.tenantId, t.userId),
    foreignKey({
      name: "learning_path_enrollments_path_fk",
      columns: [t.tenantId, t.pathId],
      foreignColumns: [learningPaths.tenantId, learningPaths.id],
    }).onDelete("cascade"),
    foreignKey({
      name: "learning_path_enrollments_user_fk",
      columns: [t.tenantId, t.userId],
      foreignColumns: [users.tenantId, users.id],
    }).onDelete("cascade"),
  ],
);
