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
