/** Quizzes are course content (`courses:*`); any signed-in user may read them, teachers and admins change them. */
export const quizRead = { kind: "authenticated", auth: ["key", "session"], scope: "courses:read" } as const;
export const quizWrite = {
  kind: "authenticated",
  auth: ["key", "session"],
  scope: "courses:write",
  roles: ["teacher", "institution_admin"],
} as const;

/** Attempts are grades (`grades:*`): recorded, read and graded by teachers and admins. */
export const attemptRead = {
  kind: "authenticated",
  auth: ["key", "session"],
  scope: "grades:read",
  roles: ["teacher", "institution_admin"],
} as const;
export const attemptWrite = {
  kind: "authenticated",
  auth: ["key", "session"],
  scope: "grades:write",
  roles: ["teacher", "institution_admin"],
} as const;
