/**
 * The report types: what each one is, the parameters it takes, and where its rows come from (sources.ts). A run
 * reads its rows through a keyset cursor over the index of its driving table (cursor.ts), so a report of a
 * million rows costs a thousand short statements, never one that holds the database.
 */
export const REPORT_TYPE_KEYS = [
  "enrollments",
  "course_progress",
  "grades",
  "users",
  "user_activity",
  "live_attendance",
  "certificates",
] as const;
export type ReportTypeKey = (typeof REPORT_TYPE_KEYS)[number];

export const REPORT_FORMATS = ["csv", "jsonl"] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

export interface ReportParameter {
  name: string;
  type: "uuid" | "string";
  required: boolean;
  /** The values a `string` parameter takes. */
  values?: readonly string[];
  description: string;
}

export interface ReportTypeInfo {
  key: ReportTypeKey;
  title: string;
  description: string;
  parameters: ReportParameter[];
  formats: readonly ReportFormat[];
}

const courseId = (what: string): ReportParameter => ({
  name: "courseId",
  type: "uuid",
  required: false,
  description: `Only ${what} of this course (400 when the course is not this institution's).`,
});

const ENROLLMENT_STATUSES = ["active", "pending", "completed", "expired", "suspended", "dropped"] as const;
const enrollmentStatus: ReportParameter = {
  name: "status",
  type: "string",
  required: false,
  values: ENROLLMENT_STATUSES,
  description: "Only enrollments in this status.",
};
const role: ReportParameter = {
  name: "role",
  type: "string",
  required: false,
  values: ["student", "teacher", "institution_admin"],
  description: "Only users of this role.",
};

export const REPORT_TYPES: readonly ReportTypeInfo[] = [
  {
    key: "enrollments",
    title: "Enrollments",
    description: "One row per enrollment: the user, the course, role, status, source and its dates.",
    parameters: [courseId("the enrollments"), enrollmentStatus],
    formats: REPORT_FORMATS,
  },
  {
    key: "course_progress",
    title: "Course progress",
    description:
      "One row per enrollment with its progress: required published lessons completed, of how many, in percent.",
    parameters: [courseId("the enrollments"), enrollmentStatus],
    formats: REPORT_FORMATS,
  },
  {
    key: "grades",
    title: "Course grades",
    description:
      "One row per student and course from the gradebook: current and final scores, posted and unposted.",
    parameters: [courseId("the grades")],
    formats: REPORT_FORMATS,
  },
  {
    key: "users",
    title: "Users and profile fields",
    description:
      "One row per user: name, e-mail, role, status, dates, then one column per active custom profile field " +
      "(`profile.<key>`), in the fields' order.",
    parameters: [role],
    formats: REPORT_FORMATS,
  },
  {
    key: "user_activity",
    title: "User activity",
    description:
      "One row per user: last sign-in, enrollments, completed enrollments and the last activity in any course.",
    parameters: [role],
    formats: REPORT_FORMATS,
  },
  {
    key: "live_attendance",
    title: "Live class attendance",
    description:
      "One row per attendee of a live class occurrence: status, join and leave times, time present.",
    parameters: [
      {
        name: "liveClassId",
        type: "uuid",
        required: false,
        description: "Only this live class's occurrences (400 when it is not this institution's).",
      },
    ],
    formats: REPORT_FORMATS,
  },
  {
    key: "certificates",
    title: "Certificates",
    description:
      "One row per certificate issued: serial, status, the student, the course or path, its dates.",
    parameters: [
      courseId("the certificates"),
      {
        name: "status",
        type: "string",
        required: false,
        values: ["valid", "revoked", "expired"],
        description: "Only certificates in this status.",
      },
    ],
    formats: REPORT_FORMATS,
  },
];

export function reportType(key: string): ReportTypeInfo | undefined {
  return REPORT_TYPES.find((t) => t.key === key);
}
