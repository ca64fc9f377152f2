/**
 * The platform events automations and webhook subscriptions can trigger on, with the version of each payload.
 * Payloads only ever gain fields; a change that removes or renames one is a new `schemaVersion`
 * (RESOURCES.md §5: LearnWorlds made users re-create hooks when payloads changed in place).
 * `data` is flat and camelCase; `{{event.*}}` in templates and `event.*` in conditions resolve there.
 */
export interface EventPayloads {
  lesson_completed: {
    courseId: string;
    lessonId: string;
    moduleId: string | null;
    enrollmentId: string | null;
    completedAt: string;
    timeSpentSeconds: number | null;
    scorePercent: number | null;
    progressPercent: number | null;
    courseCompleted: boolean;
  };
  quiz_submitted: {
    courseId: string | null;
    quizId: string;
    attemptId: string;
    attemptNumber: number;
    score: number;
    maxScore: number;
    percent: number;
    passed: boolean | null;
    submittedAt: string;
    /** Added after the first release of this payload (fields are only ever added). */
    lessonId: string;
    enrollmentId: string | null;
    /** `pending_review` while an essay awaits a teacher: `score` and `percent` then cover the graded part only. */
    gradingStatus: "graded" | "pending_review";
    timeSpentSeconds: number | null;
    /** Added with the settings: the letter of `percent` on the institution's grading scale; null until graded. */
    letterGrade?: string | null;
  };
  enrollment_created: {
    enrollmentId: string;
    courseId: string;
    role: string;
    status: string;
    source: string;
    classGroupId: string | null;
  };
  enrollment_completed: {
    enrollmentId: string;
    courseId: string;
    completedAt: string;
    progressPercent: number;
    finalScore: number | null;
  };
  grade_posted: {
    courseId: string | null;
    gradeItemId: string;
    gradeItemTitle: string;
    score: number;
    maxScore: number;
    percent: number;
    passed: boolean | null;
    postedAt: string;
  };
  user_created: { userId: string; role: string; status: string };
  user_inactive: {
    userId: string;
    lastActivityAt: string | null;
    inactiveDays: number;
    thresholdDays: number;
    /** Added with the institution's settings: what counted as activity (`inactivity.basis`). */
    basis: "access" | "activity";
  };
  class_member_added: { classGroupId: string; userId: string; role: string };
  class_member_removed: { classGroupId: string; userId: string };
  course_created: CourseLifecycle;
  course_published: CourseLifecycle;
  course_archived: CourseLifecycle;
  course_deleted: CourseLifecycle;
  module_completed: {
    courseId: string;
    moduleId: string;
    enrollmentId: string | null;
    completedAt: string;
    progressPercent: number | null;
  };
  lesson_completion_reset: {
    courseId: string;
    lessonId: string;
    moduleId: string;
    enrollmentId: string | null;
    progressPercent: number | null;
  };
  quiz_graded: EventPayloads["quiz_submitted"] & { previousScore: number | null };
  enrollment_dropped: { enrollmentId: string; courseId: string; mode: "drop" | "delete" };
  enrollment_expired: { enrollmentId: string; courseId: string; expiresAt: string; progressPercent: number };
  enrollment_progressed: {
    enrollmentId: string;
    courseId: string;
    progressPercent: number;
    previousProgressPercent: number;
    lessonsCompleted: number;
    lessonsTotal: number;
  };
  invite_expired: InviteLifecycle;
  user_updated: { userId: string; changedFields: string[] };
  /** A user lost access: suspended (`PATCH status`) or deleted. */
  user_deactivated: { userId: string; reason: "suspended" | "deleted" };
  invite_sent: InviteLifecycle;
  invite_accepted: InviteLifecycle & { userId: string };
  invite_revoked: InviteLifecycle;
  user_tag_added: { userId: string; tagId: string; tagName: string };
  user_tag_removed: { userId: string; tagId: string; tagName: string };
  /** An upload was completed and its size, checksum and content type verified. */
  media_ready: MediaLifecycle & { sizeBytes: number; readyAt: string };
  /** An upload was refused at completion (or expired unfinished); its bytes were deleted. */
  media_failed: MediaLifecycle & { error: string };
  /** The JSON object posted to an inbound webhook URL, as sent. */
  webhook: Record<string, unknown>;
  /** Audit: the institution's settings changed; `changedKeys` are `namespace.key` paths, `version` the new one. */
  settings_updated: { changedKeys: string[]; version: number };
  /** A theme became the institution's active one; `previousThemeId` is the one it replaced. */
  theme_activated: { themeId: string; name: string; version: number; previousThemeId: string | null };
  /**
   * An active enrollment had no learning activity (its last completion, or its enrollment if none) for the
   * institution's `inactivity.enrollmentInactiveDays`; once per inactivity period.
   */
  enrollment_inactive: {
    enrollmentId: string;
    courseId: string;
    lastActivityAt: string | null;
    inactiveDays: number;
    thresholdDays: number;
    progressPercent: number;
    basis: "activity";
  };
  /** A mail could not be sent: an SMTP 5xx, or every retry used. `email` is masked (`a***@example.com`). */
  email_failed: {
    messageId: string;
    email: string;
    templateKey: string | null;
    attempts: number;
    error: string;
  };
  /** A sent mail bounced or drew a complaint, as the provider reported it. */
  email_bounced: {
    messageId: string;
    email: string;
    templateKey: string | null;
    kind: "bounce" | "complaint";
    reason: string | null;
  };
  live_class_scheduled: LiveClassLifecycle & { occurrences: number };
  /** The whole class (`occurrenceId` null) or one occurrence was canceled. */
  live_class_canceled: LiveClassLifecycle & { occurrenceId: string | null };
  live_class_started: LiveClassLifecycle & { occurrenceId: string };
  live_class_ended: LiveClassLifecycle & { occurrenceId: string; endedAt: string };
  /** A user's attendance of an occurrence reached the class's threshold (once per user and occurrence). */
  live_class_attended: {
    liveClassId: string;
    occurrenceId: string;
    userId: string;
    durationSeconds: number;
    status: string;
    source: "provider" | "manual";
    lessonId: string | null;
  };
}

interface MediaLifecycle {
  mediaId: string;
  kind: string;
  filename: string;
  contentType: string;
  folderId: string | null;
}

/** No join URL: links are per user and some carry credentials (BigBlueButton's checksum, Zoom's password). */
interface LiveClassLifecycle {
  liveClassId: string;
  title: string;
  startsAt: string;
  durationMinutes: number;
  courseId: string | null;
  classGroupId: string | null;
  provider: string;
}

interface CourseLifecycle {
  courseId: string;
  title: string;
  status: string;
}

interface InviteLifecycle {
  inviteId: string;
  email: string;
  role: string;
  courseIds: string[];
  classGroupIds: string[];
  expiresAt: string;
}

export type EventType = keyof EventPayloads;

export const EVENT_CATALOGUE: { readonly [K in EventType]: { schemaVersion: number; description: string } } =
  {
    lesson_completed: { schemaVersion: 1, description: "A user completed a lesson for the first time." },
    quiz_submitted: {
      schemaVersion: 1,
      description: "A quiz attempt was submitted and its objective part scored.",
    },
    enrollment_created: { schemaVersion: 1, description: "A user was enrolled in a course." },
    enrollment_completed: {
      schemaVersion: 1,
      description: "An enrollment met its course's completion rule.",
    },
    grade_posted: { schemaVersion: 1, description: "A grade became visible to the student." },
    user_created: { schemaVersion: 1, description: "A user was created." },
    user_inactive: {
      schemaVersion: 1,
      description:
        "A user had no activity for the number of days an automation's condition asks for (else the institution's " +
        "inactivity.userInactiveDays).",
    },
    class_member_added: { schemaVersion: 1, description: "A user joined a class group." },
    class_member_removed: { schemaVersion: 1, description: "A user left a class group." },
    course_created: { schemaVersion: 1, description: "A course was created." },
    course_published: { schemaVersion: 1, description: "A course was published." },
    course_archived: { schemaVersion: 1, description: "A course was archived." },
    course_deleted: { schemaVersion: 1, description: "A course was deleted." },
    module_completed: {
      schemaVersion: 1,
      description: "A user completed the required lessons of a module.",
    },
    lesson_completion_reset: {
      schemaVersion: 1,
      description: "A user's completion of a lesson was removed.",
    },
    quiz_graded: {
      schemaVersion: 1,
      description: "A quiz attempt's manual grading finished or its score changed.",
    },
    enrollment_dropped: { schemaVersion: 1, description: "An enrollment was dropped or deleted." },
    enrollment_expired: {
      schemaVersion: 1,
      description: "An active enrollment reached its expiry before the course was completed.",
    },
    invite_expired: { schemaVersion: 1, description: "A pending invitation reached its expiry unaccepted." },
    enrollment_progressed: {
      schemaVersion: 1,
      description: "An enrollment's progress grew; at most once a minute per enrollment.",
    },
    user_updated: { schemaVersion: 1, description: "A user's profile, role or status changed." },
    user_deactivated: { schemaVersion: 1, description: "A user was suspended or deleted." },
    invite_sent: { schemaVersion: 1, description: "An invitation was created or sent again." },
    invite_accepted: { schemaVersion: 1, description: "An invitation was accepted." },
    invite_revoked: { schemaVersion: 1, description: "An invitation was revoked." },
    user_tag_added: { schemaVersion: 1, description: "A tag was attached to a user." },
    user_tag_removed: { schemaVersion: 1, description: "A tag was removed from a user." },
    media_ready: { schemaVersion: 1, description: "An uploaded file was verified and is ready." },
    media_failed: {
      schemaVersion: 1,
      description: "An upload failed its size, checksum or content check, or expired unfinished.",
    },
    webhook: {
      schemaVersion: 1,
      description: "A JSON object arrived at an automation's inbound webhook URL.",
    },
    settings_updated: {
      schemaVersion: 1,
      description: "The institution's settings changed (audit): the keys that changed and the new version.",
    },
    theme_activated: { schemaVersion: 1, description: "A theme became the institution's active theme." },
    enrollment_inactive: {
      schemaVersion: 1,
      description:
        "An active enrollment had no learning activity for the institution's enrollmentInactiveDays; once per period.",
    },
    email_failed: {
      schemaVersion: 1,
      description: "A mail could not be sent (refused by the SMTP server, or every retry used).",
    },
    email_bounced: {
      schemaVersion: 1,
      description: "A sent mail bounced or drew a complaint, as the mail provider reported it.",
    },
    live_class_scheduled: {
      schemaVersion: 1,
      description: "A live class was scheduled (with its occurrences).",
    },
    live_class_canceled: {
      schemaVersion: 1,
      description: "A live class, or one of its occurrences, was canceled.",
    },
    live_class_started: { schemaVersion: 1, description: "An occurrence of a live class started." },
    live_class_ended: { schemaVersion: 1, description: "An occurrence of a live class ended." },
    live_class_attended: {
      schemaVersion: 1,
      description: "A user attended an occurrence of a live class for at least its threshold.",
    },
  };

export const EVENT_TYPES = Object.keys(EVENT_CATALOGUE) as EventType[];

export function isEventType(value: string): value is EventType {
  return Object.hasOwn(EVENT_CATALOGUE, value);
}

/** Who caused an event. */
export type EventActor =
  | { type: "user"; id: string }
  | { type: "api_key"; id: string }
  | { type: "system" }
  | { type: "webhook"; automationId: string };

/** The user an event is about, as it was when it happened (`{{user.*}}`). */
export interface EventSubject {
  id: string;
  name: string;
  email: string;
  role: string;
}

const SAMPLE_ID = "00000000-0000-4000-8000-000000000000";
const SAMPLE_TIME = "2026-01-15T12:00:00.000Z";

const SAMPLE_INVITE: InviteLifecycle = {
  inviteId: SAMPLE_ID,
  email: "maria@example.com",
  role: "student",
  courseIds: [SAMPLE_ID],
  classGroupIds: [],
  expiresAt: SAMPLE_TIME,
};

/** A plausible payload per event, for an automation's test run when no event is given. */
const SAMPLE_LIVE_CLASS = {
  liveClassId: SAMPLE_ID,
  title: "Revisão para a prova",
  startsAt: SAMPLE_TIME,
  durationMinutes: 60,
  courseId: SAMPLE_ID,
  classGroupId: null,
  provider: "jitsi",
};

export const EVENT_SAMPLES: { readonly [K in EventType]: EventPayloads[K] } = {
  lesson_completed: {
    courseId: SAMPLE_ID,
    lessonId: SAMPLE_ID,
    moduleId: SAMPLE_ID,
    enrollmentId: SAMPLE_ID,
    completedAt: SAMPLE_TIME,
    timeSpentSeconds: 600,
    scorePercent: null,
    progressPercent: 40,
    courseCompleted: false,
  },
  quiz_submitted: {
    courseId: SAMPLE_ID,
    quizId: SAMPLE_ID,
    attemptId: SAMPLE_ID,
    attemptNumber: 1,
    score: 8,
    maxScore: 10,
    percent: 80,
    passed: true,
    submittedAt: SAMPLE_TIME,
    lessonId: SAMPLE_ID,
    enrollmentId: SAMPLE_ID,
    gradingStatus: "graded",
    timeSpentSeconds: 540,
    letterGrade: "B",
  },
  enrollment_created: {
    enrollmentId: SAMPLE_ID,
    courseId: SAMPLE_ID,
    role: "student",
    status: "active",
    source: "api",
    classGroupId: null,
  },
  enrollment_completed: {
    enrollmentId: SAMPLE_ID,
    courseId: SAMPLE_ID,
    completedAt: SAMPLE_TIME,
    progressPercent: 100,
    finalScore: 92,
  },
  grade_posted: {
    courseId: SAMPLE_ID,
    gradeItemId: SAMPLE_ID,
    gradeItemTitle: "Final exam",
    score: 45,
    maxScore: 50,
    percent: 90,
    passed: true,
    postedAt: SAMPLE_TIME,
  },
  user_created: { userId: SAMPLE_ID, role: "student", status: "active" },
  user_inactive: {
    userId: SAMPLE_ID,
    lastActivityAt: SAMPLE_TIME,
    inactiveDays: 30,
    thresholdDays: 30,
    basis: "access",
  },
  class_member_added: { classGroupId: SAMPLE_ID, userId: SAMPLE_ID, role: "student" },
  class_member_removed: { classGroupId: SAMPLE_ID, userId: SAMPLE_ID },
  course_created: { courseId: SAMPLE_ID, title: "Álgebra Linear", status: "draft" },
  course_published: { courseId: SAMPLE_ID, title: "Álgebra Linear", status: "published" },
  course_archived: { courseId: SAMPLE_ID, title: "Álgebra Linear", status: "archived" },
  course_deleted: { courseId: SAMPLE_ID, title: "Álgebra Linear", status: "published" },
  module_completed: {
    courseId: SAMPLE_ID,
    moduleId: SAMPLE_ID,
    enrollmentId: SAMPLE_ID,
    completedAt: SAMPLE_TIME,
    progressPercent: 50,
  },
  lesson_completion_reset: {
    courseId: SAMPLE_ID,
    lessonId: SAMPLE_ID,
    moduleId: SAMPLE_ID,
    enrollmentId: SAMPLE_ID,
    progressPercent: 30,
  },
  quiz_graded: {
    courseId: SAMPLE_ID,
    quizId: SAMPLE_ID,
    attemptId: SAMPLE_ID,
    attemptNumber: 1,
    score: 9,
    maxScore: 10,
    percent: 90,
    passed: true,
    submittedAt: SAMPLE_TIME,
    lessonId: SAMPLE_ID,
    enrollmentId: SAMPLE_ID,
    gradingStatus: "graded",
    timeSpentSeconds: 540,
    letterGrade: "A",
    previousScore: 8,
  },
  enrollment_dropped: { enrollmentId: SAMPLE_ID, courseId: SAMPLE_ID, mode: "drop" },
  enrollment_expired: {
    enrollmentId: SAMPLE_ID,
    courseId: SAMPLE_ID,
    expiresAt: SAMPLE_TIME,
    progressPercent: 60,
  },
  invite_expired: SAMPLE_INVITE,
  enrollment_progressed: {
    enrollmentId: SAMPLE_ID,
    courseId: SAMPLE_ID,
    progressPercent: 40,
    previousProgressPercent: 30,
    lessonsCompleted: 4,
    lessonsTotal: 10,
  },
  user_updated: { userId: SAMPLE_ID, changedFields: ["name"] },
  user_deactivated: { userId: SAMPLE_ID, reason: "suspended" },
  invite_sent: SAMPLE_INVITE,
  invite_accepted: { ...SAMPLE_INVITE, userId: SAMPLE_ID },
  invite_revoked: SAMPLE_INVITE,
  user_tag_added: { userId: SAMPLE_ID, tagId: SAMPLE_ID, tagName: "Turma A" },
  user_tag_removed: { userId: SAMPLE_ID, tagId: SAMPLE_ID, tagName: "Turma A" },
  media_ready: {
    mediaId: SAMPLE_ID,
    kind: "document",
    filename: "Plano de ensino.pdf",
    contentType: "application/pdf",
    folderId: null,
    sizeBytes: 482113,
    readyAt: SAMPLE_TIME,
  },
  media_failed: {
    mediaId: SAMPLE_ID,
    kind: "video",
    filename: "Aula 1.mp4",
    contentType: "video/mp4",
    folderId: null,
    error: "content_type_mismatch",
  },
  webhook: { example: true },
  settings_updated: {
    changedKeys: ["security.sessionTimeoutMinutes", "inactivity.userInactiveDays"],
    version: 3,
  },
  theme_activated: { themeId: SAMPLE_ID, name: "Institucional 2026", version: 3, previousThemeId: null },
  enrollment_inactive: {
    enrollmentId: SAMPLE_ID,
    courseId: SAMPLE_ID,
    lastActivityAt: SAMPLE_TIME,
    inactiveDays: 14,
    thresholdDays: 14,
    progressPercent: 40,
    basis: "activity",
  },
  email_failed: {
    messageId: SAMPLE_ID,
    email: "m***@example.com",
    templateKey: "invite",
    attempts: 6,
    error: "550 mailbox unavailable",
  },
  email_bounced: {
    messageId: SAMPLE_ID,
    email: "m***@example.com",
    templateKey: "invite",
    kind: "bounce",
    reason: "550 5.1.1 user unknown",
  },
  live_class_scheduled: { ...SAMPLE_LIVE_CLASS, occurrences: 8 },
  live_class_canceled: { ...SAMPLE_LIVE_CLASS, occurrenceId: null },
  live_class_started: { ...SAMPLE_LIVE_CLASS, occurrenceId: SAMPLE_ID },
  live_class_ended: { ...SAMPLE_LIVE_CLASS, occurrenceId: SAMPLE_ID, endedAt: SAMPLE_TIME },
  live_class_attended: {
    liveClassId: SAMPLE_ID,
    occurrenceId: SAMPLE_ID,
    userId: SAMPLE_ID,
    durationSeconds: 3000,
    status: "present",
    source: "provider",
    lessonId: SAMPLE_ID,
  },
};

export const SAMPLE_SUBJECT: EventSubject = {
  id: SAMPLE_ID,
  name: "Maria Exemplo",
  email: "maria@example.com",
  role: "student",
};
