import { type Static, Type } from "typebox";
import { IsoDateTime, StringEnum, Uuid } from "../../platform/http/schemas.js";
import { CappedPageOf } from "../../platform/pagination/capped.js";
import { PageQuery } from "../../platform/pagination/pagination.js";

export const LESSON_TYPES = ["text", "video", "audio", "pdf", "file", "embed", "quiz", "assignment"] as const;
export type LessonType = (typeof LESSON_TYPES)[number];
export const LESSON_STATUSES = ["draft", "published"] as const;
export const CRITERIA_TYPES = ["view", "min_time", "submit", "min_score", "manual"] as const;
export const LESSON_SORTS = ["position", "-position", "title", "-title", "createdAt", "-createdAt"] as const;
export type LessonSort = (typeof LESSON_SORTS)[number];

const Title = Type.String({ minLength: 1, maxLength: 255 });
const NullableDate = Type.Union([IsoDateTime, Type.Null()]);

/** A text lesson's body: the limit holds for the body as sent and as stored, once sanitised. */
export const MAX_BODY_HTML = 100_000;

/**
 * Every key any lesson type may carry; which ones a type accepts (and requires) is checked against the type in
 * content.ts, so a wrong combination is a 400 naming the field rather than an opaque "matches no schema".
 */
const ContentFields = {
  bodyHtml: Type.Optional(
    Type.String({
      maxLength: MAX_BODY_HTML,
      description: "`text` lessons: the body, HTML, at most this long before and after sanitising.",
    }),
  ),
  url: Type.Optional(
    Type.String({
      format: "uri",
      maxLength: 2048,
      description:
        "`video`, `audio`, `pdf`, `file` (or `mediaId` instead) and `embed` lessons: an https URL.",
    }),
  ),
  mediaId: Type.Optional(Type.String({ format: "uuid", description: "A media item, instead of `url`." })),
  instructions: Type.Optional(
    Type.String({
      maxLength: 100_000,
      description: "`quiz` and `assignment` lessons: optional instructions.",
    }),
  ),
};
const ContentIn = Type.Object(ContentFields, {
  additionalProperties: false,
  description:
    "Shaped by `type`: text `{bodyHtml}`; video, audio, pdf, file `{url}` or `{mediaId}`; embed `{url}`; " +
    "quiz and assignment `{}` or `{instructions}`.",
});
export type LessonContent = Static<typeof ContentIn>;

const CriteriaIn = Type.Object(
  {
    type: StringEnum(CRITERIA_TYPES),
    minSeconds: Type.Optional(Type.Integer({ minimum: 1, maximum: 86_400, description: "For `min_time`." })),
    minScorePercent: Type.Optional(
      Type.Number({ minimum: 0, maximum: 100, description: "For `min_score`." }),
    ),
  },
  {
    additionalProperties: false,
    description:
      "How a learner completes the lesson. `submit` and `min_score` only for quiz and assignment lessons. " +
      'Default `{"type": "submit"}` for those and `{"type": "view"}` for the others.',
  },
);
export type CompletionCriteria = Static<typeof CriteriaIn>;

export const LESSON_EXAMPLE = {
  id: "0f8b1c3e-2a4d-4e6f-8a0b-1c2d3e4f5a6b",
  courseId: "6a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d",
  moduleId: "7b2c3d4e-5f6a-4b7c-8d9e-0f1a2b3c4d5e",
  title: "Vetores no plano",
  type: "video",
  content: { url: "https://videos.example.com/vetores.mp4" },
  position: 1,
  status: "published",
  isPreview: true,
  durationSeconds: 540,
  requiredForCompletion: true,
  completionCriteria: { type: "min_time", minSeconds: 300 },
  unlockAt: null,
  dueAt: null,
  createdAt: "2026-03-01T12:00:00.000Z",
  updatedAt: "2026-03-01T12:00:00.000Z",
};

export const Lesson = Type.Object(
  {
    id: Uuid,
    courseId: Uuid,
    moduleId: Uuid,
    title: Type.String(),
    type: StringEnum(LESSON_TYPES),
    content: Type.Object(ContentFields, { additionalProperties: false }),
    position: Type.Integer({ minimum: 1 }),
    status: StringEnum(LESSON_STATUSES),
    isPreview: Type.Boolean(),
    durationSeconds: Type.Union([Type.Integer(), Type.Null()]),
    requiredForCompletion: Type.Boolean(),
    completionCriteria: Type.Object(
      {
        type: StringEnum(CRITERIA_TYPES),
        minSeconds: Type.Optional(Type.Integer()),
        minScorePercent: Type.Optional(Type.Number()),
      },
      { additionalProperties: false },
    ),
    unlockAt: NullableDate,
    dueAt: NullableDate,
    createdAt: IsoDateTime,
    updatedAt: IsoDateTime,
  },
  {
    additionalProperties: false,
    examples: [LESSON_EXAMPLE],
  },
);
export type LessonRecord = Static<typeof Lesson>;

const Position = Type.Integer({
  minimum: 1,
  description: "1-based; the following lessons move down. Past the end means last.",
});

const editable = {
  content: Type.Optional(ContentIn),
  position: Type.Optional(Position),
  status: Type.Optional(StringEnum(LESSON_STATUSES)),
  isPreview: Type.Optional(Type.Boolean({ description: "Visible without an enrollment." })),
  durationSeconds: Type.Optional(
    Type.Union([Type.Integer({ minimum: 0, maximum: 2_147_483_647 }), Type.Null()]),
  ),
  requiredForCompletion: Type.Optional(Type.Boolean()),
  completionCriteria: Type.Optional(CriteriaIn),
  unlockAt: Type.Optional(NullableDate),
  dueAt: Type.Optional(Type.Union([IsoDateTime, Type.Null()], { description: "Not before `unlockAt`." })),
};

export const CreateLessonBody = Type.Object(
  { title: Title, type: StringEnum(LESSON_TYPES), ...editable },
  {
    additionalProperties: false,
    examples: [
      {
        title: "Vetores no plano",
        type: "video",
        content: { url: "https://videos.example.com/vetores.mp4" },
        isPreview: true,
        durationSeconds: 540,
        completionCriteria: { type: "min_time", minSeconds: 300 },
      },
    ],
  },
);
export type CreateLessonInput = Static<typeof CreateLessonBody>;

/** `type` is absent on purpose: it never changes (a different type is a new lesson), so sending it is a 400. */
export const UpdateLessonBody = Type.Object(
  { title: Type.Optional(Title), ...editable },
  {
    additionalProperties: false,
    minProperties: 1,
    examples: [{ title: "Vetores no plano (revisado)", position: 2, status: "published" }],
  },
);
export type UpdateLessonInput = Static<typeof UpdateLessonBody>;

export const ListLessonsQuery = Type.Object(
  {
    ...PageQuery,
    sort: Type.Optional(StringEnum(LESSON_SORTS, { default: "position" })),
    status: Type.Optional(StringEnum(LESSON_STATUSES)),
    type: Type.Optional(StringEnum(LESSON_TYPES)),
  },
  { additionalProperties: false },
);
export type ListLessonsQueryType = Static<typeof ListLessonsQuery>;

export const LessonPage = CappedPageOf(Lesson);

export const LessonOrderBody = Type.Object(
  {
    lessonIds: Type.Array(Uuid, {
      uniqueItems: true,
      maxItems: 1000,
      description: "Every lesson of the module, each once, in the new order.",
    }),
  },
  { additionalProperties: false, examples: [{ lessonIds: ["0f8b1c3e-2a4d-4e6f-8a0b-1c2d3e4f5a6b"] }] },
);
export type LessonOrderInput = Static<typeof LessonOrderBody>;

export const LessonList = Type.Object(
  { data: Type.Array(Lesson) },
  { additionalProperties: false, examples: [{ data: [LESSON_EXAMPLE] }] },
);

export const MoveLessonBody = Type.Object(
  {
    moduleId: Type.String({ format: "uuid", description: "A module of the same course." }),
    position: Type.Optional(Type.Integer({ minimum: 1, description: "Default: last in that module." })),
  },
  {
    additionalProperties: false,
    examples: [{ moduleId: "7b2c3d4e-5f6a-4b7c-8d9e-0f1a2b3c4d5e", position: 1 }],
  },
);
export type MoveLessonInput = Static<typeof MoveLessonBody>;
