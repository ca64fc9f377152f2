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
  };
  class_member_added: { classGroupId: string; userId: string };
  /** The JSON object posted to an inbound webhook URL, as sent. */
  webhook: Record<string, unknown>;
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
      description: "A user had no activity for the number of days an automation's condition asks for.",
    },
    class_member_added: { schemaVersion: 1, description: "A user joined a class group." },
    webhook: {
      schemaVersion: 1,
      description: "A JSON object arrived at an automation's inbound webhook URL.",
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
