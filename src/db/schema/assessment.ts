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
import { lessons } from "./learning.js";
import { tenants } from "./tenancy.js";
import { users } from "./users.js";

export const questionBanks = pgTable(
  "question_banks",
  {
    tenantId: tenantIdColumn().references(() => tenants.id, { onDelete: "cascade" }),
    id: uuid("id").notNull().defaultRandom(),
    title: text("title").notNull(),
    description: text("description"),
    courseId: uuid("course_id"),
    status: text("status").notNull().default("active"),
    createdAt: isoTimestamp("created_at").notNull().default(sql`now()`),
    updatedAt: isoTimestamp("updated_at").notNull().default(sql`now()`),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index("question_banks_tenant_created_idx").on(t.tenantId, t.createdAt, t.id),
    index("question_banks_search_idx").using("gin", t.tenantId, sql`aula_fold(${t.title}) gin_trgm_ops`),
    index("question_banks_tenant_course_created_idx").on(t.tenantId, t.courseId, t.createdAt, t.id),
    index("question_banks_tenant_status_created_idx").on(t.tenantId, t.status, t.createdAt, t.id),
    index("question_banks_tenant_title_idx").on(t.tenantId, sql`aula_fold(${t.title})`, t.title, t.id),
  ],
);

/**
 * A question's current content; `version` grows by one on every content change and each version's content is
 * kept in `question_versions`, so an attempt pins the exact text it was scored against.
 */
export const questions = pgTable(
  "questions",
  {
    tenantId: tenantIdColumn().references(() => tenants.id, { onDelete: "cascade" }),
    id: uuid("id").notNull().defaultRandom(),
    bankId: uuid("bank_id").notNull(),
    type: text("type").notNull(),
    stem: text("stem").notNull(),
    /** By type: `{options}`, `{acceptedAnswers}`, `{numeric}`, `{pairs}`, `{items}`. */
    content: jsonb("content").notNull().default(sql`'{}'::jsonb`),
    points: numeric("points", { precision: 8, scale: 2, mode: "number" }).notNull().default(1),
    difficulty: text("difficulty"),
    explanation: text("explanation"),
    tags: text("tags").array().notNull().default(sql`'{}'::text[]`),
    version: integer("version").notNull().default(1),
    status: text("status").notNull().default("active"),
    createdAt: isoTimestamp("created_at").notNull().default(sql`now()`),
    updatedAt: isoTimestamp("updated_at").notNull().default(sql`now()`),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index("questions_bank_created_idx").on(t.tenantId, t.bankId, t.createdAt, t.id),
    index("questions_bank_difficulty_created_idx").on(t.tenantId, t.bankId, t.difficulty, t.createdAt, t.id),
    index("questions_search_idx").using("gin", t.tenantId, sql`aula_fold(${t.stem}) gin_trgm_ops`),
    index("questions_bank_updated_idx").on(t.tenantId, t.bankId, t.updatedAt, t.id),
    index("questions_bank_type_created_idx").on(t.tenantId, t.bankId, t.type, t.createdAt, t.id),
    index("questions_bank_status_created_idx").on(t.tenantId, t.bankId, t.status, t.createdAt, t.id),
    index("questions_bank_tags_idx").using("gin", t.tenantId, t.bankId, t.tags).with({ fastupdate: false }),
    foreignKey({
      columns: [t.tenantId, t.bankId],
      foreignColumns: [questionBanks.tenantId, questionBanks.id],
    }).onDelete("cascade"),
  ],
);

/**
 * One row per tag of a question, kept by triggers from `questions.tags` (migration 0048), with the question's
 * bank and timestamps: a bank's questions with one tag in each list order through an index, however rare the
 * tag, and a tag's total from its counter.
 */
export const questionTags = pgTable(
  "question_tags",
  {
    tenantId: uuid("tenant_id").notNull(),
    questionId: uuid("question_id").notNull(),
    tag: text("tag").notNull(),
    bankId: uuid("bank_id").notNull(),
    createdAt: isoTimestamp("created_at").notNull(),
    updatedAt: isoTimestamp("updated_at").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.questionId, t.tag] }),
    index("question_tags_created_idx").on(t.tenantId, t.bankId, t.tag, t.createdAt, t.questionId),
    index("question_tags_updated_idx").on(t.tenantId, t.bankId, t.tag, t.updatedAt, t.questionId),
    foreignKey({
      columns: [t.tenantId, t.questionId],
      foreignColumns: [questions.tenantId, questions.id],
    }).onDelete("cascade"),
  ],
);

export const questionVersions = pgTable(
  "question_versions",
  {
    tenantId: tenantIdColumn(),
    questionId: uuid("question_id").notNull(),
    version: integer("version").notNull(),
    /** The question as it was at this version: type, stem, content, points. */
    snapshot: jsonb("snapshot").notNull(),
    createdAt: isoTimestamp("created_at").notNull().default(sql`now()`),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.questionId, t.version] }),
    foreignKey({
      columns: [t.tenantId, t.questionId],
      foreignColumns: [questions.tenantId, questions.id],
    }).onDelete("cascade"),
  ],
);

/** A quiz is the settings and sections of one lesson of type `quiz`. */
export const quizzes = pgTable(
  "quizzes",
  {
    tenantId: tenantIdColumn().references(() => tenants.id, { onDelete: "cascade" }),
    id: uuid("id").notNull().defaultRandom(),
    lessonId: uuid("lesson_id").notNull(),
    courseId: uuid("course_id").notNull(),
    instructions: text("instructions"),
    timeLimitSeconds: integer("time_limit_seconds"),
    allowedAttempts: integer("allowed_attempts"),
    scoringPolicy: text("scoring_policy").notNull().default("highest"),
    passPercent: numeric("pass_percent", { precision: 5, scale: 2, mode: "number" }).notNull().default(60),
    shuffleQuestions: boolean("shuffle_questions").notNull().default(false),
    showCorrectAnswers: boolean("show_correct_answers").notNull().default(false),
    /** `[{id, title?, source: {type: fixed, questionIds} | {type: random, bankId, pickCount}, pointsPerQuestion?}]` */
    sections: jsonb("sections").notNull().default(sql`'[]'::jsonb`),
    createdAt: isoTimestamp("created_at").notNull().default(sql`now()`),
    updatedAt: isoTimestamp("updated_at").notNull().default(sql`now()`),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex("quizzes_lesson_key").on(t.tenantId, t.lessonId),
    index("quizzes_tenant_created_idx").on(t.tenantId, t.createdAt, t.id),
    index("quizzes_tenant_updated_idx").on(t.tenantId, t.updatedAt, t.id),
    index("quizzes_tenant_course_created_idx").on(t.tenantId, t.courseId, t.createdAt, t.id),
    foreignKey({
      columns: [t.tenantId, t.lessonId],
      foreignColumns: [lessons.tenantId, lessons.id],
    }).onDelete("cascade"),
  ],
);

export const quizAttempts = pgTable(
  "quiz_attempts",
  {
    tenantId: tenantIdColumn().references(() => tenants.id, { onDelete: "cascade" }),
    id: uuid("id").notNull().defaultRandom(),
    quizId: uuid("quiz_id").notNull(),
    userId: uuid("user_id").notNull(),
    enrollmentId: uuid("enrollment_id"),
    attemptNumber: integer("attempt_number").notNull(),
    status: text("status").notNull().default("in_progress"),
    startedAt: isoTimestamp("started_at").notNull().default(sql`now()`),
    submittedAt: isoTimestamp("submitted_at"),
    timeSpentSeconds: integer("time_spent_seconds"),
    score: numeric("score", { precision: 10, scale: 2, mode: "number" }),
    maxScore: numeric("max_score", { precision: 10, scale: 2, mode: "number" }),
    percent: numeric("percent", { precision: 5, scale: 2, mode: "number" }),
    passed: boolean("passed"),
    /** Seconds a teacher added to this attempt's time limit (Canvas `extra_time`). */
    extraTimeSeconds: integer("extra_time_seconds").notNull().default(0),
    /** When a timed attempt ends: its start plus the quiz's limit (pinned at the start) plus its extra time. */
    endsAt: isoTimestamp("ends_at"),
    /** The questions drawn for this attempt, each pinned to `{questionId, version, points}`. */
    questions: jsonb("questions").notNull().default(sql`'[]'::jsonb`),
    answers: jsonb("answers").notNull().default(sql`'[]'::jsonb`),
    gradedBy: jsonb("graded_by"),
    createdAt: isoTimestamp("created_at").notNull().default(sql`now()`),
    updatedAt: isoTimestamp("updated_at").notNull().default(sql`now()`),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex("quiz_attempts_number_key").on(t.tenantId, t.quizId, t.userId, t.attemptNumber),
    index("quiz_attempts_quiz_created_idx").on(t.tenantId, t.quizId, t.createdAt, t.id),
    index("quiz_attempts_quiz_status_created_idx").on(t.tenantId, t.quizId, t.status, t.createdAt, t.id),
    index("quiz_attempts_quiz_score_idx").on(t.tenantId, t.quizId, t.score.asc().nullsLast(), t.id),
    index("quiz_attempts_quiz_score_desc_idx").on(
      t.tenantId,
      t.quizId,
      t.score.desc().nullsLast(),
      t.id.desc(),
    ),
    // What the worker's time-up pass scans, across tenants (migration 0056).
    index("quiz_attempts_open_ends_idx")
      .on(t.endsAt)
      .where(sql`status = 'in_progress' AND ends_at IS NOT NULL`),
    foreignKey({ columns: [t.tenantId, t.quizId], foreignColumns: [quizzes.tenantId, quizzes.id] }).onDelete(
      "cascade",
    ),
    foreignKey({ columns: [t.tenantId, t.userId], foreignColumns: [users.tenantId, users.id] }).onDelete(
      "cascade",
    ),
  ],
);
