import { Type } from "typebox";
import { MAX_MEMBERS_PAGE } from "./nrps.js";

/** The IMS services' request bodies and parameters (OAuth token request, deep linking, AGS). */
export const Paging = {
  limit: Type.Optional(Type.Integer({ minimum: 1, default: MAX_MEMBERS_PAGE })),
  page: Type.Optional(Type.Integer({ minimum: 1, default: 1 })),
};
export const CourseParams = Type.Object(
  { courseId: Type.String({ maxLength: 64 }) },
  { additionalProperties: false },
);
export const LineItemParams = Type.Object(
  { courseId: Type.String({ maxLength: 64 }), lineItemId: Type.String({ maxLength: 64 }) },
  { additionalProperties: false },
);
export const Str = (max = 255) => Type.Optional(Type.String({ maxLength: max }));
export const TokenBody = Type.Object(
  {
    grant_type: Type.String({ maxLength: 100 }),
    client_assertion_type: Type.String({ maxLength: 200 }),
    client_assertion: Type.String({ maxLength: 16_384 }),
    scope: Str(2048),
  },
  {
    additionalProperties: false,
    examples: [
      {
        grant_type: "client_credentials",
        client_assertion_type: "urn:ietf:params:oauth:client-assertion-type:jwt-bearer",
        client_assertion:
          "eyJhbGciOiJSUzI1NiJ9.eyJpc3MiOiJrM1pxOVYweFl3cTJtQjduUjFzVDV1TGg4ZEZnSmNFYSJ9.c2ln",
        scope: "https://purl.imsglobal.org/spec/lti-ags/scope/score",
      },
    ],
  },
);
export const DeepLinkBody = Type.Object(
  { JWT: Type.String({ maxLength: 65_536 }) },
  { additionalProperties: false },
);
export const LineItemBody = Type.Object(
  {
    scoreMaximum: Type.Number(),
    label: Type.String({ maxLength: 200 }),
    resourceLinkId: Str(),
    resourceId: Str(),
    tag: Str(),
  },
  { additionalProperties: true, examples: [{ scoreMaximum: 50, label: "Simulação", tag: "final" }] },
);
export const LineItem = Type.Object(
  {
    id: Type.String(),
    label: Type.String(),
    scoreMaximum: Type.Number(),
    resourceLinkId: Str(),
    resourceId: Str(),
    tag: Str(),
  },
  {
    additionalProperties: false,
    examples: [
      {
        id: "https://acme.aula.example/api/institution/lti/courses/6f1c0e62-3c1b-4d2e-9a55-0f1e2d3c4b5a/line-items/0b6f1c1e-5d55-4c1e-9b7a-2f0f4c3e8a11",
        label: "Simulação",
        scoreMaximum: 50,
        tag: "final",
      },
    ],
  },
);
export const ScoreBody = Type.Object(
  {
    userId: Type.String({ maxLength: 64 }),
    scoreGiven: Type.Optional(Type.Number()),
    scoreMaximum: Type.Optional(Type.Number()),
    activityProgress: Type.String({ maxLength: 50 }),
    gradingProgress: Type.String({ maxLength: 50 }),
    timestamp: Type.String({ maxLength: 64 }),
    comment: Str(5000),
  },
  {
    additionalProperties: true,
    examples: [
      {
        userId: "5a3f2e1d-0c9b-4a87-9654-3210fedcba98",
        scoreGiven: 40,
        scoreMaximum: 50,
        activityProgress: "Completed",
        gradingProgress: "FullyGraded",
        timestamp: "2026-03-01T12:00:00.000Z",
      },
    ],
  },
);
