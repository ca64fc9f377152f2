import { adminSessionOnly } from "../../platform/auth/access.js";
import { principalOf, tenantOf } from "../../platform/auth/request.js";
import type { AppContext } from "../../platform/context.js";
import { publicOrigin } from "../../platform/http/host.js";
import type { App } from "../../platform/http/types.js";
import { openidConfiguration, register, startRegistration } from "./dynamic-registration.js";
import {
  OpenIdConfiguration,
  RegistrationBody,
  RegistrationResponse,
  RegistrationStart,
  StartRegistrationBody,
} from "./dynamic-schemas.js";
import { LTI_PATH } from "./tools.js";

const tags = ["lti-tools"];

/** 1EdTech Dynamic Registration: the administrator's start, our OpenID configuration, the tool's registration. */
export function dynamicRoutes(app: App, ctx: AppContext): void {
  const deps = (request: Parameters<typeof publicOrigin>[0]) => ({ ctx, origin: publicOrigin(request) });

  app.post(
    "/api/institution/lti-tools/dynamic-registrations",
    {
      config: { access: adminSessionOnly() },
      schema: {
        tags,
        summary: "Start a tool's dynamic registration",
        description:
          "An administrator's session only. Answers the tool's registration URL with `openid_configuration` and " +
          "a one-hour, single-use `registration_token`, for the administrator's browser to open (1EdTech LTI " +
          "Dynamic Registration). The tool reads the configuration and posts its registration to the platform's " +
          "registration endpoint; the tool then appears in the list with `registrationMethod: dynamic`, status " +
          "`active` and privacy level `anonymous`.",
        body: StartRegistrationBody,
        response: { 201: RegistrationStart },
      },
    },
    async (request, reply) => {
      const tenantId = tenantOf(request).id;
      const started = await startRegistration(
        deps(request),
        tenantId,
        principalOf(request),
        request.body.registrationUrl,
      );
      reply.code(201);
      return started;
    },
  );

  app.get(
    `${LTI_PATH}/openid-configuration`,
    {
      config: { access: { kind: "tenant" } },
      schema: {
        tags,
        summary: "The platform's OpenID configuration (LTI Dynamic Registration)",
        description: "No credentials: what a registering tool reads, on the host of this request.",
        response: { 200: OpenIdConfiguration },
      },
    },
    (request) => openidConfiguration(publicOrigin(request)),
  );

  app.post(
    `${LTI_PATH}/registrations`,
    {
      config: { access: { kind: "tenant" }, closedWhileInactive: true, errors: [401] },
      schema: {
        tags,
        summary: "A tool's client registration (LTI Dynamic Registration)",
        description:
          "The tool posts its OpenID Connect client registration with the LTI tool configuration claim, with " +
          "`Authorization: Bearer <registration_token>`. The tool is created (its URLs checked as for a manual " +
          "registration, its `jwks_uri` through the outbound SSRF rule) and the answer gives its `client_id` and " +
          "`deployment_id`. A missing, foreign, expired or already used token: 401.",
        body: RegistrationBody,
        response: { 201: RegistrationResponse },
      },
    },
    async (request, reply) => {
      const tenantId = tenantOf(request).id;
      const registered = await register(deps(request), tenantId, request.headers.authorization, request.body);
      reply.code(201);
      return registered;
    },
  );
}
