/** Who may read and change classes: keys by scope; sessions of teachers and administrators. */
export const tags = ["classes"];
export const read = {
  kind: "authenticated",
  auth: ["key", "session"],
  scope: "classes:read",
  roles: ["teacher", "institution_admin"],
} as const;
export const write = {
  kind: "authenticated",
  auth: ["key", "session"],
  scope: "classes:write",
  roles: ["teacher", "institution_admin"],
} as const;
