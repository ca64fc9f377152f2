import { sql } from "drizzle-orm";
import {
  boolean,
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
import { enrollments } from "./learning.js";
import { tenants } from "./tenancy.js";
import { users } from "./users.js";

/**
 * The institution's settings (RESOURCES 4.19): one row per tenant holding only the keys an administrator set,
 * `{namespace: {key: value}}`; every other key reads as its default, so a new default reaches every institution
 * that never chose otherwise. `general.locale` and `general.timezone` are not here: they are the tenant row's
 * `default_locale` and `timezone`, which the institution profile shows too (one value, two views).
 */
export const institutionSettings = pgTable("institution_settings", {
  tenantId: tenantIdColumn()
    .primaryKey()
    .references(() => tenants.id, { onDelete: "cascade" }),
  overrides: jsonb("overrides").notNull().default(sql`'{}'::jsonb`),
  version: integer("version").notNull().default(0),
  updatedAt: isoTimestamp("updated_at").notNull().default(sql`now()`),
});

/** Custom profile field definitions (RESOURCES 4.22). `key` and `type` never change once created. */
export const profileFields = pgTable(
  "profile_fields",
  {
    tenantId: tenantIdColumn().references(() => tenants.id, { onDelete: "cascade" }),
    id: uuid("id").notNull().defaultRandom(),
    key: text("key").notNull(),
    label: text("label").notNull(),
    type: text("type").notNull(),
    options: jsonb("options"),
    required: boolean("required").notNull().default(false),
    unique: boolean("unique").notNull().default(false),
    validation: jsonb("validation"),
    position: integer("position").notNull(),
    status: text("status").notNull().default("active"),
    createdAt: isoTimestamp("created_at").notNull().default(sql`now()`),
    updatedAt: isoTimestamp("updated_at").notNull().default(sql`now()`),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex("profile_fields_tenant_key_key").on(t.tenantId, t.key),
    index("profile_fields_tenant_position_idx").on(t.tenantId, t.position, t.id),
    index("profile_fields_tenant_created_idx").on(t.tenantId, t.createdAt, t.id),
    index("profile_fields_tenant_status_position_idx").on(t.tenantId, t.status, t.position, t.id),
    index("profile_fields_tenant_type_position_idx").on(t.tenantId, t.type, t.position, t.id),
  ],
);

/**
 * One user's value of one field. `match_key` is the value's canonical text for scalar types (text: comparisonKey's
 * lowercased NFKC form without invisible characters; numbers and dates in their canonical spelling), which the
 * users list filters by through an index; `unique_key` repeats it only while the field is `unique`, so the partial
 * unique index makes the database, not a read before the write, refuse a second user with the same value.
 */
export const userProfileValues = pgTable(
  "user_profile_values",
  {
    tenantId: tenantIdColumn(),
    userId: uuid("user_id").notNull(),
    fieldId: uuid("field_id").notNull(),
    value: jsonb("value").notNull(),
    matchKey: text("match_key"),
    uniqueKey: text("unique_key"),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.userId, t.fieldId] }),
    foreignKey({ columns: [t.tenantId, t.userId], foreignColumns: [users.tenantId, users.id] }).onDelete(
      "cascade",
    ),
    foreignKey({
      columns: [t.tenantId, t.fieldId],
      foreignColumns: [profileFields.tenantId, profileFields.id],
    }).onDelete("cascade"),
    index("user_profile_values_match_idx").on(t.tenantId, t.fieldId, t.matchKey, t.userId),
    uniqueIndex("user_profile_values_unique_key")
      .on(t.tenantId, t.fieldId, t.uniqueKey)
      .where(sql`${t.uniqueKey} IS NOT NULL`),
  ],
);

/**
 * `enrollment_inactive` already emitted, per enrollment, for the activity it measured from (one event per
 * inactivity period, as `inactivity_notices` does for users). New activity moves past `activity_at` and re-arms.
 */
export const enrollmentInactivityNotices = pgTable(
  "enrollment_inactivity_notices",
  {
    tenantId: tenantIdColumn().references(() => tenants.id, { onDelete: "cascade" }),
    enrollmentId: uuid("enrollment_id").notNull(),
    activityAt: isoTimestamp("activity_at").notNull(),
    emittedAt: isoTimestamp("emitted_at").notNull().default(sql`now()`),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.enrollmentId] }),
    foreignKey({
      columns: [t.tenantId, t.enrollmentId],
      foreignColumns: [enrollments.tenantId, enrollments.id],
    }).onDelete("cascade"),
  ],
);

/**
 * Brand themes (RESOURCES 4.20). At most one `active` per institution (partial unique index); `version` grows with
 * every change, so the compiled variables document can be cached by it.
 */
export const themes = pgTable(
  "themes",
  {
    tenantId: tenantIdColumn().references(() => tenants.id, { onDelete: "cascade" }),
    id: uuid("id").notNull().defaultRandom(),
    name: text("name").notNull(),
    status: text("status").notNull().default("draft"),
    variables: jsonb("variables").notNull().default(sql`'{}'::jsonb`),
    logoMediaId: uuid("logo_media_id"),
    faviconMediaId: uuid("favicon_media_id"),
    loginBackgroundMediaId: uuid("login_background_media_id"),
    customCss: text("custom_css"),
    version: integer("version").notNull().default(1),
    createdAt: isoTimestamp("created_at").notNull().default(sql`now()`),
    updatedAt: isoTimestamp("updated_at").notNull().default(sql`now()`),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index("themes_tenant_created_idx").on(t.tenantId, t.createdAt, t.id),
    index("themes_tenant_name_idx").on(t.tenantId, t.name, t.id),
    index("themes_tenant_status_created_idx").on(t.tenantId, t.status, t.createdAt, t.id),
    uniqueIndex("themes_one_active_key").on(t.tenantId).where(sql`${t.status} = 'active'`),
  ],
);
