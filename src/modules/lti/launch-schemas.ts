import { type Static, Type } from "typebox";
import { IsoDateTime, StringEnum, Uuid } from "../../platform/http/schemas.js";

export const MESSAGE_TYPES = ["LtiResourceLinkRequest", "LtiDeepLinkingRequest"] as const;

export const LaunchBody = Type.Object(
  {
    courseId: Uuid,
    lessonId: Type.Optional(Uuid),
    messageType: Type.Optional(
      StringEnum(MESSAGE_TYPES, {
        default: "LtiResourceLinkRequest",
        description:
          "`LtiDeepLinkingRequest` (teachers of the course and administrators) picks content to add.",
      }),
    ),
  },
  {
    additionalProperties: false,
    examples: [{ courseId: "6f1c0e62-3c1b-4d2e-9a55-0f1e2d3c4b5a", messageType: "LtiResourceLinkRequest" }],
  },
);
export type LaunchInput = Static<typeof LaunchBody>;

export const LaunchStart = Type.Object(
  {
    url: Type.String({ description: "The tool's OIDC login initiation URL with the launch's parameters." }),
    expiresAt: IsoDateTime,
  },
  {
    additionalProperties: false,
    examples: [
      {
        url: "https://tool.example.com/lti/login?iss=https%3A%2F%2Facme.aula.example&login_hint=…",
        expiresAt: "2026-03-01T12:05:00.000Z",
      },
    ],
  },
);

/** The OIDC authentication request (IMS Security Framework 5.1.1.2), as the tool sends the browser. */
export const AuthorizeQuery = Type.Object(
  {
    scope: Type.String({ maxLength: 200 }),
    response_type: Type.String({ maxLength: 50 }),
    client_id: Type.String({ maxLength: 200 }),
    redirect_uri: Type.String({ maxLength: 2048 }),
    login_hint: Type.String({ maxLength: 200 }),
    state: Type.String({ minLength: 1, maxLength: 2048 }),
    response_mode: Type.String({ maxLength: 50 }),
    nonce: Type.String({ minLength: 1, maxLength: 512 }),
    prompt: Type.Optional(Type.String({ maxLength: 50 })),
    lti_message_hint: Type.String({ maxLength: 64 }),
    lti_deployment_id: Type.Optional(Type.String({ maxLength: 200 })),
  },
  { additionalProperties: true },
);
export type AuthorizeQueryType = Static<typeof AuthorizeQuery>;
