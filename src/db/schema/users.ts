import { sql } from "drizzle-orm";
import {
  foreignKey,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { isoTimestamp, tenantIdColumn } from "./columns.js";
import { tenants } from "./tenancy.js";

export const users = pgTable(
  "users",
  {
    tenantId: tenantIdColumn().references(() => tenants.id, { onDelete: "cascade" }),
    id: uuid("id").notNull().defaultRandom(),
    name: text("name").notNull(),
    email: text("email").notNull(),
    role: text("role").notNull(),
    status: text("status").notNull().default("active"),
    lastLoginAt: isoTimestamp("last_login_at"),
    createdAt: isoTimestamp("created_at").notNull().default(sql`now()`),
    updatedAt: isoTimestamp("updated_at").notNull().default(sql`now()`),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex("users_tenant_email_key").on(t.tenantId, sql`lower(${t.email})`),
    index("users_tenant_created_idx").on(t.tenantId, t.createdAt, t.id),
    index("users_tenant_name_idx").on(t.tenantId, sql`aula_fold(${t.name})`, t.id),
    index("users_tenant_role_created_idx").on(t.tenantId, t.role, t.createdAt, t.id),
    index("users_search_idx").using(
      "gin",
      t.tenantId,
      sql`aula_fold(${t.name} || ' ' || ${t.email}) gin_trgm_ops`,
    ),
  ],
);

/** Kept apart from `users` so that no query of user records can ever select a hash by accident. */
export const passwordCredentials = pgTable(
  "password_credentials",
  {
    tenantId: tenantIdColumn(),
    userId: uuid("user_id").notNull(),
    passwordHash: text("password_hash").notNull(),
    updatedAt: isoTimestamp("updated_at").notNull().default(sql`now()`),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.userId] }),
    foreignKey({ columns: [t.tenantId, t.userId], foreignColumns: [users.tenantId, users.id] }).onDelete(
      "cascade",
    ),
  ],
);

/** Class groups; their full CRUD belongs to the classes module, users reference them by id. */
export const classGroups = pgTable(
  "class_groups",
  {
    tenantId: tenantIdColumn().references(() => tenants.id, { onDelete: "cascade" }),
    id: uuid("id").notNull().defaultRandom(),
    name: text("name").notNull(),
    code: text("code"),
    description: text("description"),
    status: text("status").notNull().default("active"),
    capacity: integer("capacity"),
    courseIds: uuid("course_ids").array().notNull().default(sql`'{}'::uuid[]`),
    startsAt: isoTimestamp("starts_at"),
    endsAt: isoTimestamp("ends_at"),
    createdAt: isoTimestamp("created_at").notNull().default(sql`now()`),
    updatedAt: isoTimestamp("updated_at").notNull().default(sql`now()`),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex("class_groups_tenant_code_key").on(t.tenantId, t.code),
    index("class_groups_tenant_created_idx").on(t.tenantId, t.createdAt, t.id),
    index("class_groups_search_idx").using(
      "gin",
      t.tenantId,
      sql`aula_fold(${t.name} || ' ' || coalesce(${t.code}, '')) gin_trgm_ops`,
    ),
    index("class_groups_tenant_status_created_idx").on(t.tenantId, t.status, t.createdAt, t.id),
    index("class_groups_tenant_name_idx").on(t.tenantId, sql`aula_fold(${t.name})`, t.id),
    index("class_groups_course_ids_idx").using("gin", t.courseIds),
  ],
);

/**
 * One row per course of a class, kept by triggers from `class_groups.course_ids` (migration 0049) with the class's
 * sort keys: a course's classes in each list order through an index, and the course's total from its counter.
 */
export const classGroupCourses = pgTable(
  "class_group_courses",
  {
    tenantId: uuid("tenant_id").notNull(),
    classGroupId: uuid("class_group_id").notNull(),
    courseId: uuid("course_id").notNull(),
    name: text("name").notNull(),
    createdAt: isoTimestamp("created_at").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.classGroupId, t.courseId], name: "class_group_courses_pk" }),
    index("class_group_courses_created_idx").on(t.tenantId, t.courseId, t.createdAt, t.classGroupId),
    index("class_group_courses_name_idx").on(
      t.tenantId,
      t.courseId,
      sql`aula_fold(${t.name})`,
      t.classGroupId,
    ),
    foreignKey({
      columns: [t.tenantId, t.classGroupId],
      foreignColumns: [classGroups.tenantId, classGroups.id],
      name: "class_group_courses_class_fk",
    }).onDelete("cascade"),
  ],
);

export const classGroupMembers = pgTable(
  "class_group_members",
  {
    tenantId: tenantIdColumn(),
    classGroupId: uuid("class_group_id").notNull(),
    userId: uuid("user_id").notNull(),
    role: text("role").notNull().default("student"),
    createdAt: isoTimestamp("created_at").notNull().default(sql`now()`),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.classGroupId, t.userId] }),
    index("class_group_members_class_created_idx").on(t.tenantId, t.classGroupId, t.createdAt, t.userId),
    index("class_group_members_class_role_created_idx").on(
      t.tenantId,
      t.classGroupId,
      t.role,
      t.createdAt,
      t.userId,
    ),
    index("class_group_members_user_idx").on(t.tenantId, t.userId),
    foreignKey({
      columns: [t.tenantId, t.classGroupId],
      foreignColumns: [classGroups.tenantId, classGroups.id],
    }).onDelete("cascade"),
    foreignKey({ columns: [t.tenantId, t.userId], foreignColumns: [users.tenantId, users.id] }).onDelete(
      "cascade",
    ),
  ],
);
