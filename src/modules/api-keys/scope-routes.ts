import { Type } from "typebox";
import type { App } from "../../platform/http/types.js";
import { describeScope, SCOPES } from "../../platform/scopes/scopes.js";

const ALL_SCOPES =
  "An API key created with `scopes: []` holds every scope: an administrator's key. Give an integration only " +
  "the scopes it needs.";

const ScopeEntry = Type.Object(
  {
    scope: Type.String({ examples: ["courses:read"] }),
    description: Type.String(),
    operations: Type.Array(Type.String(), {
      description: "Every operation a key with this scope may call, as `METHOD /path`.",
    }),
  },
  { additionalProperties: false },
);
const ScopeCatalogue = Type.Object(
  {
    data: Type.Array(ScopeEntry),
    allScopes: Type.String({
      description: "What `scopes: []` means on an API key.",
      examples: ["An API key created with `scopes: []` holds every scope: an administrator's key."],
    }),
  },
  {
    additionalProperties: false,
    examples: [
      {
        data: [
          {
            scope: "courses:read",
            description: "Read and list courses, their modules and lessons, and lesson completions.",
            operations: ["GET /api/institution/courses", "GET /api/institution/courses/:id"],
          },
        ],
        allScopes: ALL_SCOPES,
      },
    ],
  },
);

/**
 * The scopes an API key can hold, what each allows and the operations each opens, read from the routes' own
 * declarations (the same the auth pipeline enforces), so the list cannot drift from what is enforced.
 */
export function scopeRoutes(app: App): void {
  let catalogue: { data: { scope: string; description: string; operations: string[] }[]; allScopes: string };
  app.get(
    "/api/institution/scopes",
    {
      config: { access: { kind: "public" } },
      schema: {
        tags: ["api-keys"],
        summary: "List the scopes of API keys",
        description:
          "Every scope, what it allows and the operations it opens. No credentials: the list is the same " +
          `for every institution, and is also in this reference (each operation names its scope). ${ALL_SCOPES}`,
        response: { 200: ScopeCatalogue },
      },
    },
    async () => {
      catalogue ??= {
        data: SCOPES.map((scope) => ({
          scope,
          description: describeScope(scope),
          operations: app.routeDeclarations
            .filter((r) => r.access.kind === "authenticated" && r.access.scope === scope)
            .map((r) => `${r.method} ${r.url}`)
            .sort(),
        })),
        allScopes: ALL_SCOPES,
      };
      return catalogue;
    },
  );
}
