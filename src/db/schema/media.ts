import { sql } from "drizzle-orm";
import {
  bigint,
  foreignKey,
  index,
  jsonb,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { isoTimestamp, tenantIdColumn } from "./columns.js";
import { courses } from "./courses.js";
import { tenants } from "./tenancy.js";
import { classGroups } from "./users.js";

/**
 * A drive folder. `scope` says who may read it besides staff (`institution`: every member; `course`: the course's
 * enrolled students; `class`: the class's members); sub-folders carry their root's scope, copied so that an
 * access check reads one row. A course or class deleted takes its folders with it (their files stay, unfiled).
 */
export const driveFolders = pgTable(
  "drive_folders",
  {
    tenantId: tenantIdColumn().references(() => tenants.id, { onDelete: "cascade" }),
    id: uuid("id").notNull().defaultRandom(),
    parentId: uuid("parent_id"),
    name: text("name").notNull(),
    scope: text("scope").notNull().default("institution"),
    courseId: uuid("course_id"),
    classId: uuid("class_id"),
    createdAt: isoTimestamp("created_at").notNull().default(sql`now()`),
    updatedAt: isoTimestamp("updated_at").notNull().default(sql`now()`),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    // Sibling names are unique ignoring case; root folders are siblings of each other.
    uniqueIndex("drive_folders_sibling_name_key").on(
      t.tenantId,
      sql`coalesce(${t.parentId}, '00000000-0000-0000-0000-000000000000'::uuid)`,
      sql`lower(${t.name})`,
    ),
    // A folder's sub-folders in the order its children are listed (the top level under the nil uuid).
    index("drive_folders_children_idx").on(
      t.tenantId,
      sql`coalesce(${t.parentId}, '00000000-0000-0000-0000-000000000000'::uuid)`,
      sql`aula_fold(${t.name})`,
      t.id,
    ),
    // The top-level folders of each audience (the institution under the nil uuid, a course, a class) in that order:
    // a student's top level, read part by part (migration 0044).
    index("drive_folders_audience_roots_idx")
      .on(
        t.tenantId,
        t.scope,
        sql`coalesce(${t.courseId}, ${t.classId}, '00000000-0000-0000-0000-000000000000'::uuid)`,
        sql`aula_fold(${t.name})`,
        t.id,
      )
      .where(sql`${t.parentId} IS NULL`),
    foreignKey({ columns: [t.tenantId, t.parentId], foreignColumns: [t.tenantId, t.id] }).onDelete("cascade"),
    foreignKey({
      columns: [t.tenantId, t.courseId],
      foreignColumns: [courses.tenantId, courses.id],
    }).onDelete("cascade"),
    foreignKey({
      columns: [t.tenantId, t.classId],
      foreignColumns: [classGroups.tenantId, classGroups.id],
    }).onDelete("cascade"),
  ],
);

/**
 * An uploaded file. Its bytes live in the configured store under `storage_key`; `size_bytes` of every row that is
 * not `failed` counts against the plan's storage (a pending upload reserves its declared size), kept in
 * `tenant_counters` (`media:bytes`) by a trigger of the migration.
 */
export const media = pgTable(
  "media",
  {
    tenantId: tenantIdColumn().references(() => tenants.id, { onDelete: "cascade" }),
    id: uuid("id").notNull().defaultRandom(),
    kind: text("kind").notNull(),
    filename: text("filename").notNull(),
    contentType: text("content_type").notNull(),
    sizeBytes: bigint("size_bytes", { mode: "number" }).notNull(),
    /** The SHA-256 the client declared (hex), checked at completion. */
    checksumSha256: text("checksum_sha256"),
    /**
     * `pending_upload` → `verifying` (one completion has claimed it) → `ready` | `failed`; a verification that found
     * nothing uploaded goes back to `pending_upload`.
     */
    status: text("status").notNull().default("pending_upload"),
    /** `local` or `s3`: the store the bytes were sent to, kept so a change of store never loses old files. */
    storage: text("storage").notNull(),
    /** Where the served bytes are; on S3 a key of the verification that made the file ready (complete.ts). */
    storageKey: text("storage_key").notNull(),
    folderId: uuid("folder_id"),
    error: text("error"),
    /** What the local upload route received (bytes and their SHA-256, hashed as they streamed). */
    receivedBytes: bigint("received_bytes", { mode: "number" }),
    receivedSha256: text("received_sha256"),
    uploadExpiresAt: isoTimestamp("upload_expires_at").notNull(),
    /** `{type: "user"|"api_key", id}` */
    createdBy: jsonb("created_by"),
    readyAt: isoTimestamp("ready_at"),
    createdAt: isoTimestamp("created_at").notNull().default(sql`now()`),
    updatedAt: isoTimestamp("updated_at").notNull().default(sql`now()`),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index("media_tenant_created_idx").on(t.tenantId, t.createdAt, t.id),
    index("media_tenant_kind_created_idx").on(t.tenantId, t.kind, t.createdAt, t.id),
    index("media_tenant_status_created_idx").on(t.tenantId, t.status, t.createdAt, t.id),
    index("media_tenant_filename_idx").on(t.tenantId, sql`aula_fold(${t.filename})`, t.id),
    index("media_tenant_folder_idx").on(t.tenantId, t.folderId),
    // A drive folder's files in the order its children are listed (files in no folder under the nil uuid).
    index("media_folder_children_idx").on(
      t.tenantId,
      sql`coalesce(${t.folderId}, '00000000-0000-0000-0000-000000000000'::uuid)`,
      sql`aula_fold(${t.filename})`,
      t.id,
    ),
    index("media_filename_search_idx").using("gin", t.tenantId, sql`aula_fold(${t.filename}) gin_trgm_ops`),
    // The expiry sweep's: uploads still open (pending, or claimed by a verification that may have died).
    index("media_open_expiry_idx")
      .on(t.uploadExpiresAt)
      .where(sql`${t.status} IN ('pending_upload', 'verifying')`),
  ],
);
