import { type Static, Type } from "typebox";

const TOOL_CONFIG = "https://purl.imsglobal.org/spec/lti-tool-configuration";
const Url = (description: string) => Type.String({ minLength: 1, maxLength: 2048, description });
const Strings = (max: number) => Type.Array(Type.String({ maxLength: 256 }), { maxItems: max });

export const StartRegistrationBody = Type.Object(
  { registrationUrl: Url("The tool's registration (initiation) URL: https, or http on a loopback host.") },
  { additionalProperties: false, examples: [{ registrationUrl: "https://tool.example.com/lti/register" }] },
);

export const RegistrationStart = Type.Object(
  {
    redirectUrl: Type.String({
      description: "The registration URL with `openid_configuration` and `registration_token`: open it.",
    }),
    expiresAt: Type.String({ format: "date-time" }),
  },
  {
    additionalProperties: false,
    examples: [
      {
        redirectUrl:
          "https://tool.example.com/lti/register?openid_configuration=https%3A%2F%2Fescola.aula.app%2Fapi%2Finstitution%2Flti%2Fopenid-configuration&registration_token=eyJhbGciOiJSUzI1NiJ9.e30.c2ln",
        expiresAt: "2026-03-01T13:00:00.000Z",
      },
    ],
  },
);

const ToolConfiguration = Type.Object(
  {
    domain: Type.String({ minLength: 1, maxLength: 255 }),
    target_link_uri: Url("Where launches go."),
    description: Type.Optional(Type.String({ maxLength: 4000 })),
    custom_parameters: Type.Optional(
      Type.Record(Type.String({ maxLength: 64 }), Type.String({ maxLength: 1024 })),
    ),
    claims: Type.Optional(Strings(50)),
    messages: Type.Optional(
      Type.Array(Type.Object({ type: Type.String({ maxLength: 64 }) }, { additionalProperties: true }), {
        maxItems: 20,
      }),
    ),
  },
  // Extension members of the claim (secondary_domains, vendor claims) are ignored, not refused (RFC 7591 2).
  { additionalProperties: true },
);

export const RegistrationBody = Type.Object(
  {
    application_type: Type.Optional(Type.String({ maxLength: 32 })),
    response_types: Type.Optional(Strings(10)),
    grant_types: Type.Optional(Strings(10)),
    initiate_login_uri: Url("The tool's OIDC login initiation URL."),
    redirect_uris: Type.Array(Url("A launch redirect URI."), { minItems: 1, maxItems: 20 }),
    client_name: Type.Optional(Type.String({ maxLength: 255 })),
    jwks_uri: Url("The tool's public keys."),
    logo_uri: Type.Optional(Url("The tool's logo.")),
    token_endpoint_auth_method: Type.Optional(Type.String({ maxLength: 64 })),
    scope: Type.Optional(Type.String({ maxLength: 2000 })),
    [TOOL_CONFIG]: ToolConfiguration,
  },
  {
    // RFC 7591 2: a server ignores client metadata it does not understand (contacts, tos_uri, policy_uri, …).
    additionalProperties: true,
    examples: [
      {
        application_type: "web",
        response_types: ["id_token"],
        grant_types: ["implicit", "client_credentials"],
        initiate_login_uri: "https://tool.example.com/lti/login",
        redirect_uris: ["https://tool.example.com/lti/launch"],
        client_name: "Laboratório virtual",
        jwks_uri: "https://tool.example.com/lti/keys",
        token_endpoint_auth_method: "private_key_jwt",
        scope: "https://purl.imsglobal.org/spec/lti-ags/scope/score",
        [TOOL_CONFIG]: {
          domain: "tool.example.com",
          target_link_uri: "https://tool.example.com/lti/launch",
          messages: [{ type: "LtiResourceLinkRequest" }],
        },
      },
    ],
  },
);
export type RegistrationInput = Static<typeof RegistrationBody>;

export const RegistrationResponse = Type.Object(
  {
    client_id: Type.String(),
    application_type: Type.Literal("web"),
    response_types: Type.Array(Type.String()),
    grant_types: Type.Array(Type.String()),
    initiate_login_uri: Type.String(),
    redirect_uris: Type.Array(Type.String()),
    client_name: Type.String(),
    jwks_uri: Type.String(),
    token_endpoint_auth_method: Type.Literal("private_key_jwt"),
    scope: Type.String(),
    [TOOL_CONFIG]: Type.Object(
      {
        domain: Type.String(),
        target_link_uri: Type.String(),
        custom_parameters: Type.Record(Type.String(), Type.String()),
        messages: Type.Array(Type.Object({ type: Type.String() }, { additionalProperties: false })),
        deployment_id: Type.String(),
      },
      { additionalProperties: false },
    ),
  },
  {
    additionalProperties: false,
    examples: [
      {
        client_id: "b3JkZXItb2YtdGhlLXBob2VuaXgtMTIz",
        application_type: "web",
        response_types: ["id_token"],
        grant_types: ["implicit", "client_credentials"],
        initiate_login_uri: "https://tool.example.com/lti/login",
        redirect_uris: ["https://tool.example.com/lti/launch"],
        client_name: "Laboratório virtual",
        jwks_uri: "https://tool.example.com/lti/keys",
        token_endpoint_auth_method: "private_key_jwt",
        scope: "https://purl.imsglobal.org/spec/lti-ags/scope/score",
        [TOOL_CONFIG]: {
          domain: "tool.example.com",
          target_link_uri: "https://tool.example.com/lti/launch",
          custom_parameters: {},
          messages: [{ type: "LtiResourceLinkRequest" }],
          deployment_id: "8d0e6f0c-1f4e-4a51-9a3e-2b7c1d9e0f11",
        },
      },
    ],
  },
);

export const OpenIdConfiguration = Type.Object(
  {
    issuer: Type.String(),
    authorization_endpoint: Type.String(),
    token_endpoint: Type.String(),
    jwks_uri: Type.String(),
    registration_endpoint: Type.String(),
    token_endpoint_auth_methods_supported: Type.Array(Type.String()),
    token_endpoint_auth_signing_alg_values_supported: Type.Array(Type.String()),
    scopes_supported: Type.Array(Type.String()),
    response_types_supported: Type.Array(Type.String()),
    subject_types_supported: Type.Array(Type.String()),
    id_token_signing_alg_values_supported: Type.Array(Type.String()),
    claims_supported: Type.Array(Type.String()),
    "https://purl.imsglobal.org/spec/lti-platform-configuration": Type.Object(
      {
        product_family_code: Type.String(),
        version: Type.String(),
        messages_supported: Type.Array(Type.Object({ type: Type.String() }, { additionalProperties: false })),
        variables: Type.Array(Type.String()),
      },
      { additionalProperties: false },
    ),
  },
  {
    additionalProperties: false,
    examples: [
      {
        issuer: "https://escola.aula.app",
        authorization_endpoint: "https://escola.aula.app/api/institution/lti/authorize",
        token_endpoint: "https://escola.aula.app/api/institution/lti/token",
        jwks_uri: "https://escola.aula.app/api/institution/lti/jwks",
        registration_endpoint: "https://escola.aula.app/api/institution/lti/registrations",
        token_endpoint_auth_methods_supported: ["private_key_jwt"],
        token_endpoint_auth_signing_alg_values_supported: ["RS256", "ES256"],
        scopes_supported: ["openid", "https://purl.imsglobal.org/spec/lti-ags/scope/score"],
        response_types_supported: ["id_token"],
        subject_types_supported: ["public"],
        id_token_signing_alg_values_supported: ["RS256"],
        claims_supported: ["sub", "iss", "name", "email"],
        "https://purl.imsglobal.org/spec/lti-platform-configuration": {
          product_family_code: "aula",
          version: "1.0",
          messages_supported: [{ type: "LtiResourceLinkRequest" }],
          variables: ["$User.id"],
        },
      },
    ],
  },
);
