import { adminSessionOnly, admins } from "../../platform/auth/access.js";
import { tenantOf } from "../../platform/auth/request.js";
import type { AppContext } from "../../platform/context.js";
import { IdParams, requireUuid } from "../../platform/http/schemas.js";
import type { App } from "../../platform/http/types.js";
import type { Kind } from "./repo.js";
import { SigningSecretResponse } from "./schemas.js";
import { automationDeps, readSigningSecret, rotateSigningSecret } from "./service.js";

/** Who may call automation and webhook-endpoint routes: keys by scope, sessions of administrators only. */
export const readAccess = admins("automations:read");
export const writeAccess = admins("automations:write");
/** Secrets and tokens are shown to an administrator's session only (SECURITY.md API5). */
export const adminSessionAccess = adminSessionOnly();

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
