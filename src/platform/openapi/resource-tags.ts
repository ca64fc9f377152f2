/**
 * The reference's resource groups, in the order /docs lists them. Every operation carries exactly one of these
 * names as its only tag.
 */
export const RESOURCE_TAG_LIST = [
  { name: "institution", description: "The institution itself: profile, settings, host and custom domain." },
  { name: "courses", description: "Courses: create, publish, archive and delete them." },
  { name: "modules", description: "The ordered modules that group a course's lessons." },
  { name: "lessons", description: "Lessons and their content, inside a course's modules." },
  { name: "enrollments", description: "Who takes or teaches which course, and how far they got." },
  { name: "completions", description: "Lesson completions, which drive progress and course completion." },
  {
    name: "learning-paths",
    description: "Ordered courses with prerequisites, enrollment in all of them at once, and path progress.",
  },
  { name: "quizzes", description: "Quizzes, their attempts and scores." },
  {
    name: "assignments",
    description: "Assignment settings and extensions, submissions with their attempts, lateness and grading.",
  },
  {
    name: "gradebook",
    description: "Grade categories and items, grades with their posting, course grades and the change log.",
  },
  {
    name: "rubrics",
    description: "Rubrics with versioned criteria, assessments that write grades, and CSV import.",
  },
  { name: "question-banks", description: "Reusable questions that quizzes draw from." },
  {
    name: "certificates",
    description:
      "Certificate templates, certificates issued on completion or by hand, PDFs and public verification.",
  },
  {
    name: "gamification",
    description:
      "Point rules, the append-only point ledger, levels, leaderboards, and badges issued as Open Badges 3.0 " +
      "credentials.",
  },
  { name: "users", description: "Students, instructors and administrators of the institution." },
  { name: "profile-fields", description: "Custom profile fields the institution defines for its users." },
  { name: "themes", description: "The institution's brand: colours, fonts, logo and custom CSS." },
  { name: "classes", description: "Class groups of users, for enrolling and reporting together." },
  { name: "invites", description: "Invitations that let a person activate their account." },
  { name: "tags", description: "Labels for organising and filtering the catalogue." },
  { name: "media", description: "Uploaded files: three-step uploads, verification, signed download URLs." },
  { name: "drive", description: "Folders over the uploaded files, shared with a course or a class." },
  {
    name: "reports",
    description: "Report runs as background jobs, streamed to CSV or JSON lines behind signed download URLs.",
  },
  { name: "jobs", description: "Background jobs: status, progress and counts, cancellation." },
  { name: "api-keys", description: "Keys for server-to-server calls, with scopes and rate tiers." },
  { name: "billing", description: "The plan, the Stripe subscription and the payment log." },
  {
    name: "automations",
    description: "Trigger → condition → action rules, their deliveries and inbound URLs.",
  },
  { name: "webhooks", description: "URLs subscribed to platform events, and what was delivered to them." },
  { name: "events", description: "Platform events, as automations and webhooks received them." },
  {
    name: "video-providers",
    description: "Connections to Jitsi, BigBlueButton and Zoom, with sealed credentials.",
  },
  {
    name: "lti-tools",
    description:
      "LTI 1.3 tools: registration, the platform's keys, launches, deep linking, grades and rosters.",
  },
  { name: "calendar", description: "The agenda over a window, custom events and per-user iCalendar feeds." },
  {
    name: "live-classes",
    description: "Scheduled video classes, their occurrences, join links and attendance.",
  },
  {
    name: "ai-provider",
    description: "The OpenAI-compatible AI provider the institution's AI features call.",
  },
  { name: "prompts", description: "Versioned prompt templates for AI features: render, restore and run." },
  {
    name: "ai-limits",
    description: "AI credit limits per institution, role, course, class group and user, and usage.",
  },
  {
    name: "ai-analytics",
    description: "AI usage from daily rollups, and conversation records whose transcripts only admins read.",
  },
  {
    name: "rag",
    description: "Knowledge bases of documents and lessons, searched by full-text rank with citations.",
  },
  { name: "auth", description: "Session sign-in, cookie rotation and sign-out." },
  { name: "health", description: "Liveness and readiness probes for the deployment." },
  { name: "email", description: "Mail templates per locale, the messages sent and their delivery status." },
] as const;

export type ResourceTag = (typeof RESOURCE_TAG_LIST)[number]["name"];
export const RESOURCE_TAGS: readonly ResourceTag[] = RESOURCE_TAG_LIST.map((t) => t.name);
