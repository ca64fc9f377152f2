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
import { tenants } from "./tenancy.js";
import { users } from "./users.js";

/**
 * A connection to a video provider (RESOURCES 4.14). `credentials` is the provider's credentials object as JSON,
 * sealed with the secrets keyring (bound to the row by its id); only `credentials_fingerprint` is ever shown.
 */
export const videoProviders = pgTable(
  "video_providers",
  {
    tenantId: tenantIdColumn().references(() => tenants.id, { onDelete: "cascade" }),
    id: uuid("id").notNull().defaultRandom(),
    provider: text("provider").notNull(),
    purpose: text("purpose").notNull(),
    name: text("name").notNull(),
    credentials: text("credentials"),
    credentialsFingerprint: text("credentials_fingerprint"),
    settings: jsonb("settings").notNull().default(sql`'{}'::jsonb`),
    isDefault: boolean("is_default").notNull().default(false),
    /** `connected`, `error` (the last test failed), `disconnected`. */
    status: text("status").notNull().default("connected"),
    lastCheckedAt: isoTimestamp("last_checked_at"),
    lastError: text("last_error"),
    createdAt: isoTimestamp("created_at").notNull().default(sql`now()`),
    updatedAt: isoTimestamp("updated_at").notNull().default(sql`now()`),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index("video_providers_tenant_created_idx").on(t.tenantId, t.createdAt, t.id),
    index("video_providers_tenant_name_idx").on(t.tenantId, sql`lower(${t.name})`, t.id),
    index("video_providers_tenant_status_created_idx").on(t.tenantId, t.status, t.createdAt, t.id),
    index("video_providers_tenant_purpose_created_idx").on(t.tenantId, t.purpose, t.createdAt, t.id),
    index("video_providers_tenant_provider_created_idx").on(t.tenantId, t.provider, t.createdAt, t.id),
    // One default per purpose: a second concurrent default fails here instead of leaving two.
    uniqueIndex("video_providers_default_key").on(t.tenantId, t.purpose).where(sql`${t.isDefault}`),
  ],
);

/** Custom calendar events (RESOURCES 4.32); synthetic ones (live classes, due dates) are computed, not stored. */
export const calendarEvents = pgTable(
  "calendar_events",
  {
    tenantId: tenantIdColumn().references(() => tenants.id, { onDelete: "cascade" }),
    id: uuid("id").notNull().defaultRandom(),
    title: text("title").notNull(),
    description: text("description"),
    startsAt: isoTimestamp("starts_at").notNull(),
    endsAt: isoTimestamp("ends_at").notNull(),
    allDay: boolean("all_day").notNull().default(false),
    timezone: text("timezone"),
    locationName: text("location_name"),
    locationAddress: text("location_address"),
    url: text("url"),
    /** `institution`, `course`, `class_group` or `user`; `context_id` names the course, class or user. */
    contextType: text("context_type").notNull(),
    contextId: uuid("context_id"),
    /** An RRULE (without `DTSTART`), expanded from `starts_at` in `timezone`. */
    recurrence: text("recurrence"),
    /** The end of the last occurrence (or `ends_at`): bounds the window query of recurring events. */
    lastEndsAt: isoTimestamp("last_ends_at").notNull(),
    status: text("status").notNull().default("active"),
    createdBy: uuid("created_by"),
    createdAt: isoTimestamp("created_at").notNull().default(sql`now()`),
    updatedAt: isoTimestamp("updated_at").notNull().default(sql`now()`),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    // The agenda's overlap with a window, bounded at both ends (migration 0034).
    index("calendar_events_span_idx").using(
      "gist",
      t.tenantId,
      sql`tstzrange(${t.startsAt}, ${t.lastEndsAt}, '[]')`,
    ),
    index("calendar_events_tenant_created_idx").on(t.tenantId, t.createdAt, t.id),
  ],
);

/** A user's iCalendar feed: the secret token is stored as its SHA-256 only; rotating replaces it. */
export const calendarFeeds = pgTable(
  "calendar_feeds",
  {
    tenantId: tenantIdColumn().references(() => tenants.id, { onDelete: "cascade" }),
    userId: uuid("user_id").notNull(),
    tokenHash: text("token_hash").notNull(),
    createdAt: isoTimestamp("created_at").notNull().default(sql`now()`),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.userId] }),
    uniqueIndex("calendar_feeds_token_key").on(t.tokenHash),
    foreignKey({ columns: [t.tenantId, t.userId], foreignColumns: [users.tenantId, users.id] }).onDelete(
      "cascade",
    ),
  ],
);

/** A scheduled live class (RESOURCES 4.13); each occurrence of its recurrence is a row of its own. */
export const liveClasses = pgTable(
  "live_classes",
  {
    tenantId: tenantIdColumn().references(() => tenants.id, { onDelete: "cascade" }),
    id: uuid("id").notNull().defaultRandom(),
    title: text("title").notNull(),
    description: text("description"),
    courseId: uuid("course_id"),
    lessonId: uuid("lesson_id"),
    classGroupId: uuid("class_group_id"),
    hostUserId: uuid("host_user_id").notNull(),
    coHostIds: uuid("co_host_ids").array().notNull().default(sql`'{}'::uuid[]`),
    inviteeIds: uuid("invitee_ids").array().notNull().default(sql`'{}'::uuid[]`),
    startsAt: isoTimestamp("starts_at").notNull(),
    durationMinutes: integer("duration_minutes").notNull(),
    timezone: text("timezone").notNull(),
    recurrence: text("recurrence"),
    /** Null: the built-in Jitsi connection (no credentials). */
    videoProviderId: uuid("video_provider_id"),
    /** Random, never shown: makes the per-occurrence room names (Jitsi, BigBlueButton) unguessable. */
    roomSecret: text("room_secret").notNull(),
    status: text("status").notNull().default("scheduled"),
    recordingEnabled: boolean("recording_enabled").notNull().default(false),
    attendanceThresholdMinutes: integer("attendance_threshold_minutes"),
    createdAt: isoTimestamp("created_at").notNull().default(sql`now()`),
    updatedAt: isoTimestamp("updated_at").notNull().default(sql`now()`),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index("live_classes_tenant_created_idx").on(t.tenantId, t.createdAt, t.id),
    // The list's default order (and, walked backwards, `-startsAt`).
    index("live_classes_tenant_starts_idx").on(t.tenantId, t.startsAt, t.id),
    // Each filter in the default order, so its page and its capped count stop early (migration 0033).
    index("live_classes_course_starts_idx").on(t.tenantId, t.courseId, t.startsAt, t.id),
    index("live_classes_class_group_starts_idx").on(t.tenantId, t.classGroupId, t.startsAt, t.id),
    index("live_classes_host_starts_idx").on(t.tenantId, t.hostUserId, t.startsAt, t.id),
    index("live_classes_provider_idx").on(t.tenantId, t.videoProviderId),
    // A student's audience: the classes it co-hosts or is invited to (migration 0044).
    index("live_classes_co_hosts_idx").using("gin", t.coHostIds),
    index("live_classes_invitees_idx").using("gin", t.inviteeIds),
  ],
);

export const liveClassOccurrences = pgTable(
  "live_class_occurrences",
  {
    tenantId: tenantIdColumn().references(() => tenants.id, { onDelete: "cascade" }),
    id: uuid("id").notNull().defaultRandom(),
    liveClassId: uuid("live_class_id").notNull(),
    startsAt: isoTimestamp("starts_at").notNull(),
    endsAt: isoTimestamp("ends_at").notNull(),
    /** `scheduled`, `live`, `ended`, `canceled`. */
    status: text("status").notNull().default("scheduled"),
    /** The provider's meeting (Zoom's meeting id), created on first join. */
    externalMeetingId: text("external_meeting_id"),
    externalJoinUrl: text("external_join_url"),
    startedAt: isoTimestamp("started_at"),
    endedAt: isoTimestamp("ended_at"),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index("live_class_occurrences_class_idx").on(t.tenantId, t.liveClassId, t.startsAt),
    index("live_class_occurrences_window_idx").on(t.tenantId, t.startsAt),
    foreignKey({
      columns: [t.tenantId, t.liveClassId],
      foreignColumns: [liveClasses.tenantId, liveClasses.id],
    }).onDelete("cascade"),
  ],
);

export const liveClassAttendance = pgTable(
  "live_class_attendance",
  {
    tenantId: tenantIdColumn().references(() => tenants.id, { onDelete: "cascade" }),
    occurrenceId: uuid("occurrence_id").notNull(),
    userId: uuid("user_id").notNull(),
    liveClassId: uuid("live_class_id").notNull(),
    joinedAt: isoTimestamp("joined_at"),
    leftAt: isoTimestamp("left_at"),
    durationSeconds: integer("duration_seconds").notNull().default(0),
    /** `present`, `late`, `absent`, `excused`. */
    status: text("status").notNull(),
    /** `provider` or `manual`. */
    source: text("source").notNull(),
    /** Set once `live_class_attended` was emitted for this user and occurrence, so it is emitted once. */
    attendedAt: isoTimestamp("attended_at"),
    updatedAt: isoTimestamp("updated_at").notNull().default(sql`now()`),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.occurrenceId, t.userId] }),
    // In the list's order: a class's page is read from it, not sorted from all of the tenant's attendance.
    index("live_class_attendance_class_idx").on(t.tenantId, t.liveClassId, t.occurrenceId, t.userId),
    foreignKey({
      columns: [t.tenantId, t.occurrenceId],
      foreignColumns: [liveClassOccurrences.tenantId, liveClassOccurrences.id],
    }).onDelete("cascade"),
    foreignKey({ columns: [t.tenantId, t.userId], foreignColumns: [users.tenantId, users.id] }).onDelete(
      "cascade",
    ),
  ],
);
