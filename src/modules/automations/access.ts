import { tenantOf } from "../../platform/auth/request.js";
import type { AppContext } from "../../platform/context.js";
import { IdParams, requireUuid } from "../../platform/http/schemas.js";
import type { App } from "../../platform/http/types.js";
import type { Kind } from "./repo.js";
import { SigningSecretResponse } from "./schemas.js";
import { automationDeps, readSigningSecret, rotateSigningSecret } from "./service.js";

/** Who may call automation and webhook-endpoint routes: keys by scope, sessions of administrators only. */
const admin = ["institution_admin"] as const;
export const readAccess = {
  kind: "authenticated",
  auth: ["key", "session"],
  scope: "automations:read",
  roles: admin,
} as const;
export const writeAccess = {
  kind: "authenticated",
  auth: ["key", "session"],
  scope: "automations:write",
  roles: admin,
} as const;
/** Secrets and tokens are shown to an administrator's session only (SECURITY.md API5). */
export const adminSessionAccess = { kind: "authenticated", auth: ["session"], roles: admin } as const;

/** `GET <base>/:id/signing-secret` and `POST <base>/:id/rotate-secret`, for automations and endpoints alike. */
export function signingSecretRoutes(
  app: App,
  ctx: AppContext,
  base: string,
  kind: Kind,
  tags: string[],
): void {
  const deps = () => automationDeps(ctx);
  app.get(
    `${base}/:id/signing-secret`,
    {
      config: { access: adminSessionAccess },
      schema: {
        tags,
        summary: "Read the signing secret",
        params: IdParams,
        response: { 200: SigningSecretResponse },
      },
    },
    async (request, reply) => {
      reply.header("cache-control", "no-store");
      const id = requireUuid(request.params.id);
      return { signingSecret: await readSigningSecret(deps(), tenantOf(request).id, id, kind) };
    },
  );
  app.post(
    `${base}/:id/rotate-secret`,
    {
      config: { access: adminSessionAccess },
      schema: {
        tags,
        summary: "Rotate the signing secret",
        description:
          "Deliveries sent from now on are signed with the new secret, retries of older ones included.",
        params: IdParams,
        response: { 200: SigningSecretResponse },
      },
    },
    async (request, reply) => {
      reply.header("cache-control", "no-store");
      const id = requireUuid(request.params.id);
      return { signingSecret: await rotateSigningSecret(deps(), tenantOf(request).id, id, kind) };
    },
  );
}
