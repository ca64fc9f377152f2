import { type Static, Type } from "typebox";
import { IsoDateTime, StringEnum, Uuid } from "../../platform/http/schemas.js";
import { CappedPageOf } from "../../platform/pagination/capped.js";
import { PageQuery } from "../../platform/pagination/pagination.js";

const AGS = "https://purl.imsglobal.org/spec/lti-ags/scope";
export const LTI_SCOPES = [
  `${AGS}/lineitem`,
  `${AGS}/lineitem.readonly`,
  `${AGS}/result.readonly`,
  `${AGS}/score`,
  "https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly",
] as const;
export const PLACEMENTS = ["course_navigation", "lesson", "editor_button", "deep_linking"] as const;
export const PRIVACY_LEVELS = ["anonymous", "name_only", "email_only", "public"] as const;
export const TOOL_STATUSES = ["active", "disabled"] as const;
export type PrivacyLevel = (typeof PRIVACY_LEVELS)[number];

const Url = (description: string) => Type.String({ minLength: 1, maxLength: 2048, description });
const BROWSER_URL =
  "https, or http on a loopback host (localhost, 127.0.0.1, [::1]), which browsers treat as secure.";

/** RSA or EC public key; private members are refused (a tool must never hand us its private key). */
export const PublicJwk = Type.Object(
  {
    kty: StringEnum(["RSA", "EC"] as const),
    kid: Type.Optional(Type.String({ maxLength: 200 })),
    alg: Type.Optional(StringEnum(["RS256", "RS384", "RS512", "ES256", "ES384"] as const)),
    use: Type.Optional(Type.Literal("sig")),
    n: Type.Optional(Type.String({ maxLength: 4096 })),
    e: Type.Optional(Type.String({ maxLength: 16 })),
    crv: Type.Optional(StringEnum(["P-256", "P-384"] as const)),
    x: Type.Optional(Type.String({ maxLength: 200 })),
    y: Type.Optional(Type.String({ maxLength: 200 })),
  },
  {
    additionalProperties: false,
    description: "The tool's public signing key (JWK): RSA `n`,`e` or EC `crv`,`x`,`y`.",
  },
);

const CustomParameters = Type.Record(
  Type.String({ pattern: "^[A-Za-z0-9_]{1,64}$" }),
  Type.String({ maxLength: 1024 }),
  {
    maxProperties: 50,
    description:
      "Sent in the `custom` claim. Values may be substitution variables: `$User.id`, `$User.username`, " +
      "`$Person.name.full`, `$Person.name.given`, `$Person.name.family`, `$Person.email.primary`, " +
      "`$CourseSection.sourcedId`, `$Context.id`, `$Context.title`, `$ResourceLink.id`; personal ones are " +
      "replaced only when the privacy level sends that data (otherwise left as written).",
  },
);

const PLATFORM_EXAMPLE = {
  issuer: "https://acme.aula.example",
  authorizationUrl: "https://acme.aula.example/api/institution/lti/authorize",
  tokenUrl: "https://acme.aula.example/api/institution/lti/token",
  jwksUrl: "https://acme.aula.example/api/institution/lti/jwks",
};

export const PlatformConfig = Type.Object(
  {
    issuer: Type.String(),
    authorizationUrl: Type.String(),
    tokenUrl: Type.String(),
    jwksUrl: Type.String(),
  },
  {
    additionalProperties: false,
    description: "What the tool's administrator types in (the host of this request).",
    examples: [PLATFORM_EXAMPLE],
  },
);

export const LtiTool = Type.Object(
  {
    id: Uuid,
    name: Type.String(),
    description: Type.Union([Type.String(), Type.Null()]),
    vendor: Type.Union([Type.String(), Type.Null()]),
    iconUrl: Type.Union([Type.String(), Type.Null()]),
    ltiVersion: Type.Literal("1.3"),
    registrationMethod: StringEnum(["manual", "dynamic"] as const),
    clientId: Type.String({ description: "Issued by the platform." }),
    deploymentIds: Type.Array(Type.String()),
    targetLinkUri: Type.String(),
    oidcInitiationUrl: Type.String(),
    redirectUris: Type.Array(Type.String()),
    jwksUrl: Type.Union([Type.String(), Type.Null()]),
    publicJwk: Type.Union([PublicJwk, Type.Null()]),
    scopes: Type.Array(StringEnum(LTI_SCOPES)),
    placements: Type.Array(StringEnum(PLACEMENTS)),
    customParameters: Type.Record(Type.String(), Type.String()),
    privacyLevel: StringEnum(PRIVACY_LEVELS),
    status: StringEnum(TOOL_STATUSES),
    platform: PlatformConfig,
    createdAt: IsoDateTime,
    updatedAt: IsoDateTime,
  },
  {
    additionalProperties: false,
    examples: [
      {
        id: "2d7a4f0e-8b1c-4e55-9a3d-6c0b1f2e3a4b",
        name: "Laboratório virtual",
        description: null,
        vendor: null,
        iconUrl: null,
        ltiVersion: "1.3",
        registrationMethod: "manual",
        clientId: "k3Zq9V0xYwq2mB7nR1sT5uLh8dFgJcEa",
        deploymentIds: ["0f3e1d2c-4b5a-4c6d-8e7f-9a0b1c2d3e4f"],
        targetLinkUri: "https://tool.example.com/lti/launch",
        oidcInitiationUrl: "https://tool.example.com/lti/login",
        redirectUris: ["https://tool.example.com/lti/launch"],
        jwksUrl: "https://tool.example.com/lti/keys",
        publicJwk: null,
        scopes: [`${AGS}/score`],
        placements: ["lesson"],
        customParameters: { aluno: "$User.id" },
        privacyLevel: "name_only",
        status: "active",
        platform: PLATFORM_EXAMPLE,
        createdAt: "2026-03-01T12:00:00.000Z",
        updatedAt: "2026-03-01T12:00:00.000Z",
      },
    ],
  },
);
export type LtiToolRecord = Static<typeof LtiTool>;

const writable = {
  name: Type.String({ minLength: 1, maxLength: 100, pattern: "\\S" }),
  description: Type.Union([Type.String({ maxLength: 2000 }), Type.Null()]),
  vendor: Type.Union([Type.String({ maxLength: 200 }), Type.Null()]),
  iconUrl: Type.Union([Url("An https image URL."), Type.Null()]),
  targetLinkUri: Url(`Where launches go. ${BROWSER_URL}`),
  oidcInitiationUrl: Url(`The tool's OIDC login initiation URL. ${BROWSER_URL}`),
  redirectUris: Type.Array(Url(BROWSER_URL), { minItems: 1, maxItems: 20, uniqueItems: true }),
  jwksUrl: Type.Union([
    Url("The tool's public key set, fetched by the platform: a public https URL (the outbound SSRF rule)."),
    Type.Null(),
  ]),
  publicJwk: Type.Union([PublicJwk, Type.Null()]),
  scopes: Type.Array(StringEnum(LTI_SCOPES), { maxItems: 5, uniqueItems: true }),
  placements: Type.Array(StringEnum(PLACEMENTS), { maxItems: 4, uniqueItems: true }),
  customParameters: CustomParameters,
  privacyLevel: StringEnum(PRIVACY_LEVELS, {
    description:
      "`anonymous`: no name or e-mail; `name_only`: name claims; `email_only`: e-mail; `public`: both. " +
      "The user's opaque id (`sub`) is always sent.",
  }),
};

const EXAMPLE = {
  name: "Laboratório virtual",
  targetLinkUri: "https://tool.example.com/lti/launch",
  oidcInitiationUrl: "https://tool.example.com/lti/login",
  redirectUris: ["https://tool.example.com/lti/launch"],
  jwksUrl: "https://tool.example.com/lti/keys",
  scopes: [`${AGS}/score`],
  privacyLevel: "name_only",
};

const { name, targetLinkUri, oidcInitiationUrl, redirectUris, ...optionalFields } = {
  ...writable,
  status: StringEnum(TOOL_STATUSES),
};

export const CreateLtiToolBody = Type.Object(
  {
    name,
    targetLinkUri,
    oidcInitiationUrl,
    redirectUris,
    ...Type.Partial(Type.Object(optionalFields)).properties,
  },
  { additionalProperties: false, examples: [EXAMPLE] },
);
export type CreateLtiToolInput = Static<typeof CreateLtiToolBody>;

export const UpdateLtiToolBody = Type.Partial(
  Type.Object({ name, targetLinkUri, oidcInitiationUrl, redirectUris, ...optionalFields }),
  {
    additionalProperties: false,
    minProperties: 1,
    examples: [{ name: "Laboratório (novo)", status: "disabled" }],
  },
);
export type UpdateLtiToolInput = Static<typeof UpdateLtiToolBody>;

export const ListLtiToolsQuery = Type.Object(
  { ...PageQuery, status: Type.Optional(StringEnum(TOOL_STATUSES)) },
  { additionalProperties: false },
);
export type ListLtiToolsQueryType = Static<typeof ListLtiToolsQuery>;

export const LtiToolPage = CappedPageOf(LtiTool);

export const ToolIdParams = Type.Object(
  { toolId: Type.String({ maxLength: 64 }) },
  { additionalProperties: false },
);

export const KeyRotation = Type.Object(
  {
    kid: Type.String({ description: "The new current key." }),
    previousKid: Type.Union([Type.String(), Type.Null()]),
    previousPublishedUntil: Type.Union([IsoDateTime, Type.Null()], {
      description: "The old key stays in the JWKS until then, past the expiry of anything it signed.",
    }),
  },
  {
    additionalProperties: false,
    examples: [
      {
        kid: "Xb2k9Qm1LwP0aZ7c",
        previousKid: "r4Tn8Hs2VdE6yU1o",
        previousPublishedUntil: "2026-03-01T13:00:00.000Z",
      },
    ],
  },
);

export const Jwks = Type.Object(
  { keys: Type.Array(Type.Record(Type.String(), Type.Unknown())) },
  {
    additionalProperties: false,
    examples: [
      {
        keys: [
          {
            kty: "RSA",
            n: "0vx7agoebGcQSuuPiLJXZpt...",
            e: "AQAB",
            kid: "Xb2k9Qm1LwP0aZ7c",
            alg: "RS256",
            use: "sig",
          },
        ],
      },
    ],
  },
);
