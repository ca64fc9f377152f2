import { sql } from "drizzle-orm";
import { foreignKey, index, jsonb, pgTable, primaryKey, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { isoTimestamp, tenantIdColumn } from "./columns.js";
import { tenants } from "./tenancy.js";

/** A registered LTI 1.3 tool (RESOURCES 4.18); the institution is the platform. Migration 0058. */
export const ltiTools = pgTable(
  "lti_tools",
  {
    tenantId: tenantIdColumn().references(() => tenants.id, { onDelete: "cascade" }),
    id: uuid("id").notNull().defaultRandom(),
    name: text("name").notNull(),
    description: text("description"),
    vendor: text("vendor"),
    iconUrl: text("icon_url"),
    registrationMethod: text("registration_method").notNull().default("manual"),
    clientId: text("client_id").notNull(),
    deploymentId: text("deployment_id").notNull(),
    targetLinkUri: text("target_link_uri").notNull(),
    oidcInitiationUrl: text("oidc_initiation_url").notNull(),
    redirectUris: jsonb("redirect_uris").$type<string[]>().notNull(),
    jwksUrl: text("jwks_url"),
    publicJwk: jsonb("public_jwk").$type<Record<string, unknown>>(),
    scopes: jsonb("scopes").$type<string[]>().notNull().default(sql`'[]'::jsonb`),
    placements: jsonb("placements").$type<string[]>().notNull().default(sql`'[]'::jsonb`),
    customParameters: jsonb("custom_parameters")
      .$type<Record<string, string>>()
      .notNull()
      .default(sql`'{}'::jsonb`),
    privacyLevel: text("privacy_level").notNull().default("anonymous"),
    status: text("status").notNull().default("active"),
    createdAt: isoTimestamp("created_at").notNull().default(sql`now()`),
    updatedAt: isoTimestamp("updated_at").notNull().default(sql`now()`),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex("lti_tools_client_id_key").on(t.clientId),
    index("lti_tools_tenant_created_idx").on(t.tenantId, t.createdAt, t.id),
    index("lti_tools_tenant_status_created_idx").on(t.tenantId, t.status, t.createdAt, t.id),
  ],
);

/** The institution's RS256 signing keys: one `current`, and `previous` ones published until `publishedUntil`. */
export const ltiPlatformKeys = pgTable(
  "lti_platform_keys",
  {
    tenantId: tenantIdColumn().references(() => tenants.id, { onDelete: "cascade" }),
    kid: text("kid").notNull(),
    /** PKCS#8 PEM sealed with the secrets keyring, bound to `lti-key:<tenant>:<kid>`. */
    privateKey: text("private_key").notNull(),
    publicJwk: jsonb("public_jwk").$type<Record<string, unknown>>().notNull(),
    status: text("status").notNull().default("current"),
    publishedUntil: isoTimestamp("published_until"),
    createdAt: isoTimestamp("created_at").notNull().default(sql`now()`),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.kid] }),
    uniqueIndex("lti_platform_keys_current_key").on(t.tenantId).where(sql`status = 'current'`),
  ],
);

/** A launch a user started: claimed once by the OIDC authorization request. */
export const ltiLaunches = pgTable(
  "lti_launches",
  {
    tenantId: tenantIdColumn().references(() => tenants.id, { onDelete: "cascade" }),
    id: uuid("id").notNull().defaultRandom(),
    toolId: uuid("tool_id").notNull(),
    userId: uuid("user_id").notNull(),
    messageType: text("message_type").notNull(),
    courseId: uuid("course_id"),
    lessonId: uuid("lesson_id"),
    nonce: text("nonce"),
    expiresAt: isoTimestamp("expires_at").notNull(),
    usedAt: isoTimestamp("used_at"),
    /** When a deep-linking response for this launch was accepted: one response per launch. */
    returnedAt: isoTimestamp("returned_at"),
    createdAt: isoTimestamp("created_at").notNull().default(sql`now()`),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    foreignKey({
      columns: [t.tenantId, t.toolId],
      foreignColumns: [ltiTools.tenantId, ltiTools.id],
    }).onDelete("cascade"),
    uniqueIndex("lti_launches_nonce_key").on(t.tenantId, t.toolId, t.nonce),
    index("lti_launches_expires_idx").on(t.expiresAt),
  ],
);

/** Client-assertion ids a tool has used at the token endpoint, kept until the assertion expires. */
export const ltiAssertionJtis = pgTable(
  "lti_assertion_jtis",
  {
    tenantId: tenantIdColumn().references(() => tenants.id, { onDelete: "cascade" }),
    toolId: uuid("tool_id").notNull(),
    jti: text("jti").notNull(),
    expiresAt: isoTimestamp("expires_at").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.toolId, t.jti] }),
    foreignKey({
      columns: [t.tenantId, t.toolId],
      foreignColumns: [ltiTools.tenantId, ltiTools.id],
    }).onDelete("cascade"),
    index("lti_assertion_jtis_expires_idx").on(t.expiresAt),
  ],
);

/** An AGS line item: one gradebook grade item, created through the tool. */
export const ltiLineItems = pgTable(
  "lti_line_items",
  {
    tenantId: tenantIdColumn().references(() => tenants.id, { onDelete: "cascade" }),
    id: uuid("id").notNull().defaultRandom(),
    toolId: uuid("tool_id").notNull(),
    courseId: uuid("course_id").notNull(),
    gradeItemId: uuid("grade_item_id").notNull(),
    resourceLinkId: text("resource_link_id"),
    resourceId: text("resource_id"),
    tag: text("tag"),
    createdAt: isoTimestamp("created_at").notNull().default(sql`now()`),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    foreignKey({
      columns: [t.tenantId, t.toolId],
      foreignColumns: [ltiTools.tenantId, ltiTools.id],
    }).onDelete("cascade"),
    uniqueIndex("lti_line_items_grade_item_key").on(t.tenantId, t.gradeItemId),
    index("lti_line_items_course_idx").on(t.tenantId, t.toolId, t.courseId, t.createdAt, t.id),
  ],
);

/** A lesson made from a deep-linking content item: launched with the item's URL and custom parameters. */
export const ltiLinks = pgTable(
  "lti_links",
  {
    tenantId: tenantIdColumn().references(() => tenants.id, { onDelete: "cascade" }),
    lessonId: uuid("lesson_id").notNull(),
    toolId: uuid("tool_id").notNull(),
    url: text("url"),
    custom: jsonb("custom").$type<Record<string, string>>().notNull().default(sql`'{}'::jsonb`),
    createdAt: isoTimestamp("created_at").notNull().default(sql`now()`),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.lessonId] }),
    foreignKey({
      columns: [t.tenantId, t.toolId],
      foreignColumns: [ltiTools.tenantId, ltiTools.id],
    }).onDelete("cascade"),
    index("lti_links_tool_idx").on(t.tenantId, t.toolId),
  ],
);

/**
 * Dynamic Registration tokens handed out (migration 0065): each is consumed by the registration that uses it, so a
 * token cannot register its tool again after the tool is deleted, which the tool's primary key alone allowed.
 */
export const ltiRegistrationTokens = pgTable(
  "lti_registration_tokens",
  {
    tenantId: tenantIdColumn().references(() => tenants.id, { onDelete: "cascade" }),
    id: uuid("id").notNull(),
    expiresAt: isoTimestamp("expires_at").notNull(),
    usedAt: isoTimestamp("used_at"),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index("lti_registration_tokens_expires_idx").on(t.tenantId, t.expiresAt),
  ],
);
