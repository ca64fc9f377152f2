/**
 * How a route's access declaration reads in the reference: its security requirement, the sentence after
 * "**Access:**" in its description, and the schemes those requirements name.
 */
import type { RouteAccess } from "../auth/types.js";

/** The ways a caller authenticates, as the document's `components.securitySchemes`. */
export const SECURITY_SCHEMES = {
  apiKey: {
    type: "http",
    scheme: "bearer",
    description:
      "`mia_` + 40 hex characters. A key holds scopes (`courses:read`, `courses:write`, …); each " +
      "operation names the one it needs, and a key without it gets 403 `insufficient_scope`. A key " +
      "created with `scopes: []` holds every scope. `GET /api/institution/scopes` lists them all, with " +
      "what each allows.",
  },
  session: { type: "apiKey", in: "cookie", name: "sb-access-token" },
  cronSecret: { type: "http", scheme: "bearer", description: "The deployment's `CRON_SECRET`." },
} as const;

/** A route's security requirement and the sentence that says it in words. */
export function describeAccess(access: RouteAccess | undefined): {
  security?: Record<string, string[]>[];
  note: string;
} {
  if (access === undefined || access.kind === "public") return { security: [], note: "No authentication." };
  if (access.kind === "tenant")
    return { security: [], note: "No credentials; the tenant comes from the Host." };
  if (access.kind === "cron")
    return { security: [{ cronSecret: [] }], note: "`Authorization: Bearer $CRON_SECRET`; any host." };
  const security: Record<string, string[]>[] = [];
  if (access.auth.includes("key")) security.push({ apiKey: access.scope ? [access.scope] : [] });
  if (access.auth.includes("session")) security.push({ session: [] });
  const parts = [
    access.auth.includes("key")
      ? `API key with scope \`${access.scope}\``
      : "Session only (API keys get 403)",
  ];
  if (access.auth.includes("key") && access.auth.includes("session")) parts.push("or a session");
  if (access.roles) parts.push(`session roles: ${access.roles.map((r) => `\`${r}\``).join(", ")}`);
  return { security, note: `${parts.join("; ")}.` };
}
