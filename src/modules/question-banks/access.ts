/** Who may read and change banks and questions: keys with the scope, teachers and administrators. */
export const bankRead = {
  kind: "authenticated",
  auth: ["key", "session"],
  scope: "question-banks:read",
  roles: ["teacher", "institution_admin"],
} as const;

export const bankWrite = {
  kind: "authenticated",
  auth: ["key", "session"],
  scope: "question-banks:write",
  roles: ["teacher", "institution_admin"],
} as const;
