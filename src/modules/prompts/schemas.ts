import { type Static, Type } from "typebox";
import { IsoDateTime, StringEnum, Uuid } from "../../platform/http/schemas.js";
import { CappedPageOf } from "../../platform/pagination/capped.js";
import { PageQuery } from "../../platform/pagination/pagination.js";
import { MAX_TEMPLATE, MAX_VALUE, MAX_VARIABLES } from "./template.js";

export const AI_FEATURES = [
  "tutor_chat",
  "grading_assist",
  "content_generation",
  "rag_search",
  "summarize",
  "translate",
] as const;
export type AiFeature = (typeof AI_FEATURES)[number];
export const PROMPT_STATUSES = ["draft", "active", "archived"] as const;
export type PromptStatus = (typeof PROMPT_STATUSES)[number];
export const MAX_OUTPUT_TOKENS = 16_384;

const VariableName = Type.String({ pattern: "^[A-Za-z_][A-Za-z0-9_]{0,63}$" });

export const Variable = Type.Object(
  {
    name: VariableName,
    required: Type.Boolean({ default: true }),
    description: Type.Union([Type.String({ maxLength: 500 }), Type.Null()]),
  },
  { additionalProperties: false },
);
const VariableInput = Type.Object(
  {
    name: VariableName,
    required: Type.Optional(Type.Boolean({ description: "Default true." })),
    description: Type.Optional(Type.Union([Type.String({ maxLength: 500 }), Type.Null()])),
  },
  { additionalProperties: false },
);
const Variables = Type.Array(VariableInput, {
  maxItems: MAX_VARIABLES,
  description:
    "Every `{{name}}` the template uses, each once: used but undeclared, or declared but unused, is 400.",
});

export const ModelParams = Type.Object(
  {
    model: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    temperature: Type.Optional(Type.Number({ minimum: 0, maximum: 2 })),
    maxOutputTokens: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_OUTPUT_TOKENS })),
  },
  { additionalProperties: false },
);
export type ModelParamsType = Static<typeof ModelParams>;

const Template = Type.String({
  minLength: 1,
  maxLength: MAX_TEMPLATE,
  description: "Text with `{{name}}` placeholders only (no logic); at most 1,000 placeholders.",
});

export const Prompt = Type.Object(
  {
    id: Uuid,
    key: Type.String(),
    name: Type.String(),
    feature: StringEnum(AI_FEATURES),
    template: Type.String(),
    variables: Type.Array(Variable),
    modelParams: ModelParams,
    status: StringEnum(PROMPT_STATUSES),
    scope: StringEnum(["institution", "course"] as const),
    courseId: Type.Union([Uuid, Type.Null()]),
    version: Type.Integer({ description: "+1 whenever template, variables or modelParams change." }),
    createdAt: IsoDateTime,
    updatedAt: IsoDateTime,
  },
  {
    additionalProperties: false,
    examples: [
      {
        id: "3f1c2a4e-8b9d-4c1e-9f0a-1b2c3d4e5f60",
        key: "tutor.default",
        name: "Tutor",
        feature: "tutor_chat",
        template: "Tutor of {{course}}",
        variables: [{ name: "course", required: true, description: null }],
        modelParams: { maxOutputTokens: 512 },
        status: "active",
        scope: "institution",
        courseId: null,
        version: 1,
        createdAt: "2026-11-27T12:00:00.000Z",
        updatedAt: "2026-11-27T12:00:00.000Z",
      },
    ],
  },
);
export type PromptRecord = Static<typeof Prompt>;

export const CreatePromptBody = Type.Object(
  {
    key: Type.String({
      pattern: "^[a-z0-9_.-]{1,80}$",
      description: "Unique in the institution; immutable.",
    }),
    name: Type.String({ minLength: 1, maxLength: 100 }),
    feature: StringEnum(AI_FEATURES),
    template: Template,
    variables: Type.Optional(Variables),
    modelParams: Type.Optional(ModelParams),
    status: Type.Optional(StringEnum(PROMPT_STATUSES, { description: "Default `draft`." })),
    courseId: Type.Optional(Type.Union([Uuid, Type.Null()], { description: "Gives the course scope." })),
  },
  {
    additionalProperties: false,
    examples: [
      {
        key: "tutor.default",
        name: "Tutor",
        feature: "tutor_chat",
        template: "You are a tutor of {{course}}. Answer: {{question}}",
        variables: [{ name: "course" }, { name: "question" }],
        modelParams: { temperature: 0.3, maxOutputTokens: 512 },
      },
    ],
  },
);
export type CreatePromptInput = Static<typeof CreatePromptBody>;

export const UpdatePromptBody = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    template: Type.Optional(Template),
    variables: Type.Optional(Variables),
    modelParams: Type.Optional(ModelParams),
    status: Type.Optional(StringEnum(PROMPT_STATUSES)),
  },
  { additionalProperties: false, minProperties: 1, examples: [{ status: "active" }] },
);
export type UpdatePromptInput = Static<typeof UpdatePromptBody>;

export const ListPromptsQuery = Type.Object(
  {
    ...PageQuery,
    feature: Type.Optional(StringEnum(AI_FEATURES)),
    status: Type.Optional(StringEnum(PROMPT_STATUSES)),
  },
  { additionalProperties: false },
);
export type ListPromptsQueryType = Static<typeof ListPromptsQuery>;
export const PromptPage = CappedPageOf(Prompt);

export const PromptVersion = Type.Object(
  {
    version: Type.Integer(),
    template: Type.String(),
    variables: Type.Array(Variable),
    modelParams: ModelParams,
    createdAt: IsoDateTime,
  },
  {
    additionalProperties: false,
    examples: [
      {
        version: 1,
        template: "Tutor of {{course}}",
        variables: [{ name: "course", required: true, description: null }],
        modelParams: {},
        createdAt: "2026-11-27T12:00:00.000Z",
      },
    ],
  },
);
export const VersionPage = CappedPageOf(PromptVersion);
export const VersionsQuery = Type.Object({ ...PageQuery }, { additionalProperties: false });

export const VersionParams = Type.Object({
  id: Type.String({ maxLength: 64 }),
  version: Type.String({
    maxLength: 64,
    description: "A version number; anything else names no version (404).",
  }),
});

const Values = Type.Record(Type.String({ maxLength: 64 }), Type.String({ maxLength: MAX_VALUE }), {
  maxProperties: MAX_VARIABLES,
  description: "A string per declared variable; required ones must be given.",
});

export const RenderBody = Type.Object(
  {
    variables: Values,
    version: Type.Optional(Type.Integer({ minimum: 1, description: "Default: the current version." })),
  },
  {
    additionalProperties: false,
    examples: [{ variables: { course: "Álgebra", question: "O que é um grupo?" } }],
  },
);
export const Rendered = Type.Object(
  { version: Type.Integer(), rendered: Type.String(), model: Type.Union([Type.String(), Type.Null()]) },
  { additionalProperties: false, examples: [{ version: 1, rendered: "Tutor of Álgebra", model: null }] },
);

export const RunBody = Type.Object(
  {
    variables: Values,
    stream: Type.Optional(
      Type.Boolean({ description: "Answer `text/event-stream`: `delta` events, then one `done` event." }),
    ),
    conversationId: Type.Optional(
      Type.String({
        format: "uuid",
        description:
          "Continue this conversation of the caller's (404 otherwise; 409 when it holds its most messages); " +
          "without it a run starts one. The result names it.",
      }),
    ),
    lessonId: Type.Optional(
      Type.String({
        format: "uuid",
        description: "The lesson a new conversation is about (analytics only).",
      }),
    ),
  },
  {
    additionalProperties: false,
    examples: [{ variables: { course: "Álgebra", question: "O que é um grupo?" } }],
  },
);
export type RunInput = Static<typeof RunBody>;
export const RunResult = Type.Object(
  {
    promptId: Uuid,
    conversationId: Uuid,
    version: Type.Integer(),
    model: Type.String(),
    text: Type.String(),
    usage: Type.Object({
      inputTokens: Type.Integer(),
      outputTokens: Type.Integer(),
      credits: Type.Integer(),
    }),
  },
  {
    additionalProperties: false,
    examples: [
      {
        promptId: "3f1c2a4e-8b9d-4c1e-9f0a-1b2c3d4e5f60",
        conversationId: "7b0f3c1e-2d4a-4b8c-9e1f-0a1b2c3d4e5f",
        version: 1,
        model: "gpt-4o-mini",
        text: "Um grupo é…",
        usage: { inputTokens: 20, outputTokens: 5, credits: 1 },
      },
    ],
  },
);
