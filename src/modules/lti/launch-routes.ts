import { sessionOnly } from "../../platform/auth/access.js";
import { principalOf, tenantOf } from "../../platform/auth/request.js";
import type { AppContext } from "../../platform/context.js";
import { publicOrigin } from "../../platform/http/host.js";
import { requireUuid } from "../../platform/http/schemas.js";
import type { App } from "../../platform/http/types.js";
import { authorize, formPostPage } from "./authorize.js";
import { startLaunch } from "./launch.js";
import { AuthorizeQuery, LaunchBody, LaunchStart } from "./launch-schemas.js";
import { ToolIdParams } from "./schemas.js";
import { LTI_PATH } from "./tools.js";

const tags = ["lti-tools"];

export function launchRoutes(app: App, ctx: AppContext): void {
  app.post(
    "/api/institution/lti-tools/:toolId/launches",
    {
      config: { access: sessionOnly(), errors: [409] },
      schema: {
        tags,
        summary: "Start a launch of a tool",
        description:
          "A signed-in user's session (a launch is a person's). The user must be an administrator or hold a " +
          "current enrollment in the course (403 otherwise); deep linking needs a teacher's enrollment or an " +
          "administrator. The answer's `url` is the tool's OIDC login initiation, for the browser to open within " +
          "five minutes; the tool then sends the browser to the platform's authorization URL, which answers the " +
          "signed launch once. A disabled tool: 409 `conflict`.",
        params: ToolIdParams,
        body: LaunchBody,
        response: { 201: LaunchStart },
      },
    },
    async (request, reply) => {
      const deps = { ctx, origin: publicOrigin(request) };
      const tenantId = tenantOf(request).id;
      const started = await startLaunch(
        deps,
        tenantId,
        principalOf(request),
        requireUuid(request.params.toolId),
        request.body,
      );
      reply.code(201);
      return started;
    },
  );

  app.get(
    `${LTI_PATH}/authorize`,
    {
      config: { access: sessionOnly() },
      schema: {
        tags,
        summary: "OIDC authorization endpoint (LTI launch)",
        description:
          "The tool sends the user's browser here (IMS Security Framework 5.1.1). Needs the session of the user " +
          "who started the launch (`login_hint`) and the unused launch it names (`lti_message_hint`); " +
          "`scope=openid`, `response_type=id_token`, `response_mode=form_post`, a registered `redirect_uri`. " +
          "Answers an HTML page that form-posts `id_token` (RS256, five minutes) and `state` to `redirect_uri`. " +
          "A replayed request, a reused nonce or an expired launch: 400.",
        querystring: AuthorizeQuery,
      },
    },
    async (request, reply) => {
      const tenant = tenantOf(request);
      const signed = await authorize(
        { ctx, origin: publicOrigin(request) },
        { id: tenant.id, name: tenant.name },
        principalOf(request),
        request.query,
      );
      const page = formPostPage(signed.redirectUri, { id_token: signed.idToken, state: signed.state });
      reply.headers(page.headers);
      return page.html;
    },
  );
}
