/** Groups with a read and a write scope; `reports` has only `reports:read`. 17 × 2 + 1 = 35 scopes. */
export const SCOPE_GROUPS = [
  "courses",
  "users",
  "enrollments",
  "classes",
  "media",
  "grades",
  "rubrics",
  "question-banks",
  "live-classes",
  "tags",
  "invites",
  "lti",
  "drive",
  "settings",
  "automations",
  "ai",
  "gamification",
] as const;

export type ScopeGroup = (typeof SCOPE_GROUPS)[number];
export type Scope = `${ScopeGroup}:${"read" | "write"}` | "reports:read";

export const SCOPES: readonly Scope[] = [
  ...SCOPE_GROUPS.flatMap((g) => [`${g}:read`, `${g}:write`] as Scope[]),
  "reports:read",
];

const SCOPE_SET: ReadonlySet<string> = new Set(SCOPES);

export function isScope(value: string): value is Scope {
  return SCOPE_SET.has(value);
}

/** An empty scope list is an administrator key: it holds every scope. */
export function holdsScope(granted: readonly string[], required: Scope): boolean {
  return granted.length === 0 || granted.includes(required);
}

/** What each group's scopes are for; `:read` reads and lists it, `:write` creates, changes and deletes it. */
export const SCOPE_GROUP_DESCRIPTIONS: Record<ScopeGroup | "reports", string> = {
  courses: "courses, their modules and lessons, lesson completions, and learning paths",
  users: "users, their profile values and invitations sent on creation",
  enrollments: "enrollments and their progress, learning-path enrollments included",
  classes: "class groups and their members",
  media: "uploaded files (media)",
  grades: "grades and gradebooks",
  rubrics: "rubrics",
  "question-banks": "question banks, questions and quizzes",
  "live-classes": "live classes, their occurrences and attendance, and the calendar",
  tags: "tags and what they are attached to",
  invites: "invitations",
  lti: "LTI tools and launches",
  drive: "drive folders and the files in them",
  settings: "institution settings, profile fields, themes, e-mail templates and messages, video providers",
  automations: "automations, webhook endpoints and their deliveries",
  ai: "AI features",
  gamification: "points, badges and leaderboards",
  reports: "reports",
};

/** A sentence for people: what `scope` lets a key do. */
export function describeScope(scope: Scope): string {
  const [group, access] = scope.split(":") as [ScopeGroup | "reports", "read" | "write"];
  const what = SCOPE_GROUP_DESCRIPTIONS[group];
  return access === "read" ? `Read and list ${what}.` : `Create, change and delete ${what}.`;
}
