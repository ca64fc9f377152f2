import { type Static, Type } from "typebox";
import { IsoDateTime, StringEnum, Uuid } from "../../platform/http/schemas.js";
import { CappedPageOf } from "../../platform/pagination/capped.js";
import { PageQuery } from "../../platform/pagination/pagination.js";
import { ALLOWED_CONTENT_TYPES, MEDIA_KINDS } from "./content-types.js";

/** `verifying`: one completion is checking the bytes (seconds); others answer 409 meanwhile. */
export const MEDIA_STATUSES = ["pending_upload", "verifying", "ready", "failed"] as const;
export type MediaStatus = (typeof MEDIA_STATUSES)[number];

/** Why a completion failed; stored in `error`. */
export const MEDIA_ERRORS = [
  "size_mismatch",
  "checksum_mismatch",
  "content_type_mismatch",
  "upload_expired",
] as const;
export type MediaErrorCode = (typeof MEDIA_ERRORS)[number];

const EXAMPLE_ID = "3f9a1c2e-5b7d-4e8f-a1b2-c3d4e5f6a7b8";
const FOLDER_ID = "8b1e2d3c-4f5a-4b6c-9d7e-0f1a2b3c4d5e";

const MEDIA_EXAMPLE = {
  id: EXAMPLE_ID,
  kind: "document",
  filename: "Plano de ensino.pdf",
  contentType: "application/pdf",
  sizeBytes: 482113,
  checksumSha256: "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
  status: "ready",
  folderId: FOLDER_ID,
  error: null,
  url: `https://escola.aula.app/api/media/${EXAMPLE_ID}/download?token=1767261600.q0m2…`,
  urlExpiresAt: "2026-01-01T10:00:00.000Z",
  readyAt: "2026-01-01T09:55:02.000Z",
  createdAt: "2026-01-01T09:55:00.000Z",
  updatedAt: "2026-01-01T09:55:02.000Z",
};

/**
 * A file name as people write it; no path separators or control characters, so it is safe in any header, and no
 * bidirectional controls (U+061C, U+200E–U+200F, U+202A–U+202E, U+2066–U+2069), which make
 * `invoice<U+202E>fdp.exe` display as `invoiceexe.pdf`. They are refused (400 naming the field), not stripped:
 * the client learns that the name it sent is not the one people would see, and nothing is renamed behind its back.
 * Used for media, drive files and drive folders, on creation and on rename.
 */
export const Filename = Type.String({
  minLength: 1,
  maxLength: 255,
  pattern: "^(?=.*\\S)[^/\\\\\\u0000-\\u001f\\u007f\\u061c\\u200e\\u200f\\u202a-\\u202e\\u2066-\\u2069]+$",
  description:
    "1–255 characters, no `/`, `\\`, control characters or bidirectional controls (U+061C, U+200E, U+200F, " +
    "U+202A–U+202E, U+2066–U+2069).",
});

export const Media = Type.Object(
  {
    id: Uuid,
    kind: StringEnum(MEDIA_KINDS, { description: "Decided by `contentType`." }),
    filename: Type.String(),
    contentType: Type.String(),
    sizeBytes: Type.Integer({ minimum: 1 }),
    checksumSha256: Type.Union([Type.String(), Type.Null()], {
      description: "The SHA-256 (hex) declared at upload, checked at completion.",
    }),
    status: StringEnum(MEDIA_STATUSES),
    folderId: Type.Union([Uuid, Type.Null()], { description: "The drive folder holding the file." }),
    error: Type.Union([StringEnum(MEDIA_ERRORS), Type.Null()], {
      description: "Why the upload failed (`failed` only).",
    }),
    url: Type.Union([Type.String(), Type.Null()], {
      description:
        "A short-lived signed download URL: on `GET /media/:id` and completion of a ready file, else null.",
    }),
    urlExpiresAt: Type.Union([IsoDateTime, Type.Null()]),
    readyAt: Type.Union([IsoDateTime, Type.Null()]),
    createdAt: IsoDateTime,
    updatedAt: IsoDateTime,
  },
  {
    additionalProperties: false,
    examples: [MEDIA_EXAMPLE],
  },
);
export type MediaRecord = Static<typeof Media>;

export const CreateUploadBody = Type.Object(
  {
    filename: Filename,
    contentType: StringEnum(ALLOWED_CONTENT_TYPES, {
      description: "One of the allowed types; it decides the kind, and the bytes must match it.",
    }),
    sizeBytes: Type.Integer({ minimum: 1, description: "Exact size in bytes; the upload must match it." }),
    checksumSha256: Type.Optional(
      Type.String({
        pattern: "^[0-9a-fA-F]{64}$",
        description: "SHA-256 of the content, hex; checked at completion.",
      }),
    ),
    folderId: Type.Optional(
      Type.Union([Uuid, Type.Null()], { description: "A drive folder to place it in." }),
    ),
  },
  {
    additionalProperties: false,
    examples: [{ filename: "Plano de ensino.pdf", contentType: "application/pdf", sizeBytes: 482113 }],
  },
);
export type CreateUploadInput = Static<typeof CreateUploadBody>;

export const UploadTargetSchema = Type.Object(
  {
    url: Type.String({ description: "Send the bytes here, as the whole request body." }),
    method: Type.Literal("PUT"),
    headers: Type.Record(Type.String(), Type.String(), { description: "Headers to send with the bytes." }),
    expiresAt: IsoDateTime,
  },
  { additionalProperties: false },
);

export const CreatedUpload = Type.Object(
  { media: Media, upload: UploadTargetSchema },
  {
    additionalProperties: false,
    examples: [
      {
        media: {
          ...MEDIA_EXAMPLE,
          status: "pending_upload",
          url: null,
          urlExpiresAt: null,
          readyAt: null,
          checksumSha256: null,
        },
        upload: {
          url: `https://escola.aula.app/api/media/${EXAMPLE_ID}/content?token=1767261600.q0m2…`,
          method: "PUT",
          headers: { "Content-Type": "application/pdf" },
          expiresAt: "2026-01-01T10:55:00.000Z",
        },
      },
    ],
  },
);

export const UpdateMediaBody = Type.Object(
  {
    filename: Type.Optional(Filename),
    folderId: Type.Optional(
      Type.Union([Uuid, Type.Null()], { description: "null takes it out of the drive." }),
    ),
  },
  { additionalProperties: false, minProperties: 1, examples: [{ filename: "Syllabus.pdf", folderId: null }] },
);
export type UpdateMediaInput = Static<typeof UpdateMediaBody>;

export const MEDIA_SORTS = ["createdAt", "-createdAt", "filename", "-filename"] as const;
export type MediaSort = (typeof MEDIA_SORTS)[number];

export const ListMediaQuery = Type.Object(
  {
    ...PageQuery,
    kind: Type.Optional(StringEnum(MEDIA_KINDS)),
    status: Type.Optional(StringEnum(MEDIA_STATUSES)),
    folderId: Type.Optional(Uuid),
    search: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 255,
        description: "Matches the file name, ignoring case and accents.",
      }),
    ),
    sort: Type.Optional(StringEnum(MEDIA_SORTS, { default: "-createdAt", description: "Newest first." })),
  },
  { additionalProperties: false },
);
export type ListMediaQueryType = Static<typeof ListMediaQuery>;

export const MediaPage = CappedPageOf(Media);

export const DeleteMediaQuery = Type.Object(
  {
    force: Type.Optional(
      Type.Boolean({ default: false, description: "Delete even when lessons use the file (they lose it)." }),
    ),
  },
  { additionalProperties: false },
);

export const TokenQuery = Type.Object(
  { token: Type.String({ maxLength: 128, description: "The signature the URL was issued with." }) },
  { additionalProperties: false },
);
