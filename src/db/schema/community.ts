import { sql } from "drizzle-orm";
import { foreignKey, index, jsonb, pgTable, primaryKey, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { isoTimestamp, tenantIdColumn } from "./columns.js";
import { tenants } from "./tenancy.js";

/** An invitation to join the institution; only a hash of its acceptance token is kept. */
export const invites = pgTable(
  "invites",
  {
    tenantId: tenantIdColumn().references(() => tenants.id, { onDelete: "cascade" }),
    id: uuid("id").notNull().defaultRandom(),
    email: text("email").notNull(),
    name: text("name"),
    role: text("role").notNull().default("student"),
    courseIds: uuid("course_ids").array().notNull().default(sql`'{}'::uuid[]`),
    classGroupIds: uuid("class_group_ids").array().notNull().default(sql`'{}'::uuid[]`),
    message: text("message"),
    /** The invitation mail's language; null means the institution's default locale. */
    locale: text("locale"),
    tokenHash: text("token_hash").notNull(),
    status: text("status").notNull().default("pending"),
    expiresAt: isoTimestamp("expires_at").notNull(),
    sentAt: isoTimestamp("sent_at"),
    acceptedAt: isoTimestamp("accepted_at"),
    acceptedUserId: uuid("accepted_user_id"),
    /** `{type: "user"|"api_key", id}` */
    invitedBy: jsonb("invited_by"),
    createdAt: isoTimestamp("created_at").notNull().default(sql`now()`),
    updatedAt: isoTimestamp("updated_at").notNull().default(sql`now()`),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex("invites_token_hash_key").on(t.tokenHash),
    index("invites_tenant_created_idx").on(t.tenantId, t.createdAt, t.id),
    index("invites_tenant_email_idx").on(t.tenantId, sql`lower(${t.email})`, t.id),
    index("invites_tenant_expires_idx").on(t.tenantId, t.expiresAt, t.id),
    index("invites_tenant_status_created_idx").on(t.tenantId, t.status, t.createdAt, t.id),
    index("invites_tenant_status_expires_idx").on(t.tenantId, t.status, t.expiresAt, t.id),
  ],
);

export const tags = pgTable(
  "tags",
  {
    tenantId: tenantIdColumn().references(() => tenants.id, { onDelete: "cascade" }),
    id: uuid("id").notNull().defaultRandom(),
    name: text("name").notNull(),
    slug: text("slug").notNull(),
    color: text("color"),
    /** The resource types this tag may be attached to (`user`, `course`, `class`, `question`). */
    appliesTo: text("applies_to").array().notNull(),
    createdAt: isoTimestamp("created_at").notNull().default(sql`now()`),
    updatedAt: isoTimestamp("updated_at").notNull().default(sql`now()`),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex("tags_tenant_name_key").on(t.tenantId, sql`lower(${t.name})`),
    uniqueIndex("tags_tenant_slug_key").on(t.tenantId, t.slug),
    index("tags_tenant_created_idx").on(t.tenantId, t.createdAt, t.id),
    index("tags_search_idx").using("gin", t.tenantId, sql`aula_fold(${t.name}) gin_trgm_ops`),
    index("tags_tenant_name_idx").on(t.tenantId, sql`aula_fold(${t.name})`, sql`lower(${t.name})`),
  ],
);

/**
 * A tag on a resource. `resource_id` names a row of the table `resource_type` stands for; the migration's
 * triggers delete a resource's assignments with the resource.
 */
export const tagAssignments = pgTable(
  "tag_assignments",
  {
    tenantId: tenantIdColumn(),
    tagId: uuid("tag_id").notNull(),
    resourceType: text("resource_type").notNull(),
    resourceId: uuid("resource_id").notNull(),
    createdAt: isoTimestamp("created_at").notNull().default(sql`now()`),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.tagId, t.resourceType, t.resourceId] }),
    index("tag_assignments_resource_idx").on(t.tenantId, t.resourceType, t.resourceId),
    // A tag's resources, newest first, without sorting every assignment of a heavily used tag.
    index("tag_assignments_tag_created_idx").on(
      t.tenantId,
      t.tagId,
      t.createdAt,
      t.resourceType,
      t.resourceId,
    ),
    foreignKey({ columns: [t.tenantId, t.tagId], foreignColumns: [tags.tenantId, tags.id] }).onDelete(
      "cascade",
    ),
  ],
);
