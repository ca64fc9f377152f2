import { sql } from "drizzle-orm";
import {
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { isoTimestamp, tenantIdColumn } from "./columns.js";
import { courses } from "./courses.js";
import { learningPaths } from "./learning-paths.js";
import { tenants } from "./tenancy.js";
import { users } from "./users.js";

/** A certificate's design (migration 0051): its layout text, orientation, images (media ids) and validity. */
export const certificateTemplates = pgTable(
  "certificate_templates",
  {
    tenantId: tenantIdColumn().references(() => tenants.id, { onDelete: "cascade" }),
    id: uuid("id").notNull().defaultRandom(),
    name: text("name").notNull(),
    layout: jsonb("layout").notNull(),
    orientation: text("orientation").notNull().default("landscape"),
    backgroundMediaId: uuid("background_media_id"),
    signatureMediaId: uuid("signature_media_id"),
    expiresAfterDays: integer("expires_after_days"),
    status: text("status").notNull().default("active"),
    createdAt: isoTimestamp("created_at").notNull().default(sql`now()`),
    updatedAt: isoTimestamp("updated_at").notNull().default(sql`now()`),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index("certificate_templates_tenant_created_idx").on(t.tenantId, t.createdAt, t.id),
    index("certificate_templates_tenant_status_created_idx").on(t.tenantId, t.status, t.createdAt, t.id),
  ],
);

/** The courses whose completion issues a template's certificate: one template per course. */
export const certificateTemplateCourses = pgTable(
  "certificate_template_courses",
  {
    tenantId: tenantIdColumn(),
    courseId: uuid("course_id").notNull(),
    templateId: uuid("template_id").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.courseId] }),
    index("certificate_template_courses_template_idx").on(t.tenantId, t.templateId, t.courseId),
    foreignKey({
      columns: [t.tenantId, t.courseId],
      foreignColumns: [courses.tenantId, courses.id],
    }).onDelete("cascade"),
    foreignKey({
      columns: [t.tenantId, t.templateId],
      foreignColumns: [certificateTemplates.tenantId, certificateTemplates.id],
    }).onDelete("cascade"),
  ],
);

/** The learning paths whose completion issues a template's certificate: one template per path. */
export const certificateTemplatePaths = pgTable(
  "certificate_template_paths",
  {
    tenantId: tenantIdColumn(),
    learningPathId: uuid("learning_path_id").notNull(),
    templateId: uuid("template_id").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.learningPathId] }),
    index("certificate_template_paths_template_idx").on(t.tenantId, t.templateId, t.learningPathId),
    foreignKey({
      columns: [t.tenantId, t.learningPathId],
      foreignColumns: [learningPaths.tenantId, learningPaths.id],
    }).onDelete("cascade"),
    foreignKey({
      columns: [t.tenantId, t.templateId],
      foreignColumns: [certificateTemplates.tenantId, certificateTemplates.id],
    }).onDelete("cascade"),
  ],
);

export const certificates = pgTable(
  "certificates",
  {
    tenantId: tenantIdColumn(),
    id: uuid("id").notNull().defaultRandom(),
    templateId: uuid("template_id").notNull(),
    userId: uuid("user_id").notNull(),
    /** A course's certificate names its course, a path's its path: exactly one (migration 0055). */
    courseId: uuid("course_id"),
    enrollmentId: uuid("enrollment_id"),
    learningPathId: uuid("learning_path_id"),
    serial: text("serial").notNull(),
    status: text("status").notNull().default("valid"),
    source: text("source").notNull(),
    studentName: text("student_name").notNull(),
    courseTitle: text("course_title"),
    learningPathTitle: text("learning_path_title"),
    issuedAt: isoTimestamp("issued_at").notNull().default(sql`now()`),
    expiresAt: isoTimestamp("expires_at"),
    revokedAt: isoTimestamp("revoked_at"),
    revocationReason: text("revocation_reason"),
    expiringNotifiedAt: isoTimestamp("expiring_notified_at"),
    createdAt: isoTimestamp("created_at").notNull().default(sql`now()`),
    updatedAt: isoTimestamp("updated_at").notNull().default(sql`now()`),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex("certificates_serial_key").on(t.tenantId, t.serial),
    uniqueIndex("certificates_valid_enrollment_key")
      .on(t.tenantId, t.enrollmentId)
      .where(sql`status = 'valid'`),
    index("certificates_tenant_issued_idx").on(t.tenantId, t.issuedAt, t.id),
    index("certificates_tenant_status_issued_idx").on(t.tenantId, t.status, t.issuedAt, t.id),
    index("certificates_user_issued_idx").on(t.tenantId, t.userId, t.issuedAt, t.id),
    index("certificates_course_issued_idx").on(t.tenantId, t.courseId, t.issuedAt, t.id),
    index("certificates_course_status_issued_idx").on(t.tenantId, t.courseId, t.status, t.issuedAt, t.id),
    uniqueIndex("certificates_valid_path_key")
      .on(t.tenantId, t.learningPathId, t.userId)
      .where(sql`status = 'valid' AND learning_path_id IS NOT NULL`),
    index("certificates_path_issued_idx")
      .on(t.tenantId, t.learningPathId, t.issuedAt, t.id)
      .where(sql`learning_path_id IS NOT NULL`),
    index("certificates_path_status_issued_idx")
      .on(t.tenantId, t.learningPathId, t.status, t.issuedAt, t.id)
      .where(sql`learning_path_id IS NOT NULL`),
    index("certificates_expiry_idx").on(t.expiresAt).where(sql`status = 'valid' AND expires_at IS NOT NULL`),
    index("certificates_expiring_idx")
      .on(t.expiresAt)
      .where(sql`status = 'valid' AND expires_at IS NOT NULL AND expiring_notified_at IS NULL`),
    foreignKey({
      columns: [t.tenantId, t.templateId],
      foreignColumns: [certificateTemplates.tenantId, certificateTemplates.id],
    }).onDelete("cascade"),
    foreignKey({ columns: [t.tenantId, t.userId], foreignColumns: [users.tenantId, users.id] }).onDelete(
      "cascade",
    ),
    foreignKey({
      columns: [t.tenantId, t.courseId],
      foreignColumns: [courses.tenantId, courses.id],
    }).onDelete("cascade"),
    foreignKey({
      columns: [t.tenantId, t.learningPathId],
      foreignColumns: [learningPaths.tenantId, learningPaths.id],
    }).onDelete("cascade"),
  ],
);
