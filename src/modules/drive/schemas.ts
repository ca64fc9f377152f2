import { type Static, Type } from "typebox";
import { IsoDateTime, StringEnum, Uuid } from "../../platform/http/schemas.js";
import { PageOf, PageQuery } from "../../platform/pagination/pagination.js";
import { MEDIA_KINDS } from "../media/content-types.js";
import { Filename, MEDIA_STATUSES } from "../media/schemas.js";

export const FOLDER_SCOPES = ["institution", "course", "class"] as const;
export type FolderScope = (typeof FOLDER_SCOPES)[number];

const FOLDER_ID = "8b1e2d3c-4f5a-4b6c-9d7e-0f1a2b3c4d5e";
const PARENT_ID = "2a4c6e8f-1b3d-4f5a-8c7e-9d0f1a2b3c4d";
const COURSE_ID = "6a1d0c52-3f7e-4b8a-9c21-5e4f3a2b1c0d";
const FILE_ID = "3f9a1c2e-5b7d-4e8f-a1b2-c3d4e5f6a7b8";

const Scope = StringEnum(FOLDER_SCOPES, {
  description:
    "Who reads it besides staff: `institution` every member, `course` the course's enrolled students, `class` " +
    "the class's members. Set on a top-level folder; sub-folders take their root's.",
});

export const Folder = Type.Object(
  {
    id: Uuid,
    name: Type.String(),
    parentId: Type.Union([Uuid, Type.Null()], { description: "null for a top-level folder." }),
    path: Type.String({ description: "The names from the top, `/`-separated." }),
    scope: Scope,
    courseId: Type.Union([Uuid, Type.Null()]),
    classId: Type.Union([Uuid, Type.Null()]),
    folderCount: Type.Integer({ minimum: 0, description: "Sub-folders directly inside." }),
    fileCount: Type.Integer({ minimum: 0, description: "Files directly inside." }),
    createdAt: IsoDateTime,
    updatedAt: IsoDateTime,
  },
  {
    additionalProperties: false,
    examples: [
      {
        id: FOLDER_ID,
        name: "Semana 1",
        parentId: PARENT_ID,
        path: "/Álgebra Linear/Semana 1",
        scope: "course",
        courseId: COURSE_ID,
        classId: null,
        folderCount: 0,
        fileCount: 3,
        createdAt: "2026-02-01T10:00:00.000Z",
        updatedAt: "2026-02-01T10:00:00.000Z",
      },
    ],
  },
);
export type FolderRecord = Static<typeof Folder>;

export const CreateFolderBody = Type.Object(
  {
    name: Filename,
    parentId: Type.Optional(Type.Union([Uuid, Type.Null()])),
    scope: Type.Optional(Scope),
    courseId: Type.Optional(Uuid),
    classId: Type.Optional(Uuid),
  },
  {
    additionalProperties: false,
    examples: [{ name: "Álgebra Linear", scope: "course", courseId: COURSE_ID }],
  },
);
export type CreateFolderInput = Static<typeof CreateFolderBody>;

export const UpdateFolderBody = Type.Object(
  {
    name: Type.Optional(Filename),
    parentId: Type.Optional(
      Type.Union([Uuid, Type.Null()], { description: "Move; null makes it top-level." }),
    ),
    scope: Type.Optional(Scope),
    courseId: Type.Optional(Type.Union([Uuid, Type.Null()])),
    classId: Type.Optional(Type.Union([Uuid, Type.Null()])),
  },
  { additionalProperties: false, minProperties: 1, examples: [{ name: "Semana 2", parentId: PARENT_ID }] },
);
export type UpdateFolderInput = Static<typeof UpdateFolderBody>;

export const DeleteFolderQuery = Type.Object(
  {
    recursive: Type.Optional(
      Type.Boolean({ default: false, description: "Delete its sub-folders and files too." }),
    ),
  },
  { additionalProperties: false },
);

export const FolderParams = Type.Object({
  id: Type.String({ maxLength: 64, description: "A folder id, or `root` for the top level." }),
});

export const DriveFile = Type.Object(
  {
    id: Uuid,
    name: Type.String(),
    folderId: Type.Union([Uuid, Type.Null()]),
    kind: StringEnum(MEDIA_KINDS),
    contentType: Type.String(),
    sizeBytes: Type.Integer({ minimum: 1 }),
    status: StringEnum(MEDIA_STATUSES),
    url: Type.Union([Type.String(), Type.Null()], {
      description: "Signed, short-lived; on a ready file only.",
    }),
    urlExpiresAt: Type.Union([IsoDateTime, Type.Null()]),
    createdAt: IsoDateTime,
    updatedAt: IsoDateTime,
  },
  {
    additionalProperties: false,
    examples: [
      {
        id: FILE_ID,
        name: "Lista 1.pdf",
        folderId: FOLDER_ID,
        kind: "document",
        contentType: "application/pdf",
        sizeBytes: 48211,
        status: "ready",
        url: `https://escola.aula.app/api/media/${FILE_ID}/download?token=1767261600.q0m2…`,
        urlExpiresAt: "2026-02-01T10:05:00.000Z",
        createdAt: "2026-02-01T10:00:00.000Z",
        updatedAt: "2026-02-01T10:00:00.000Z",
      },
    ],
  },
);
export type DriveFileRecord = Static<typeof DriveFile>;

export const PlaceFileBody = Type.Object(
  { mediaId: Uuid, folderId: Uuid },
  { additionalProperties: false, examples: [{ mediaId: FILE_ID, folderId: FOLDER_ID }] },
);
export type PlaceFileInput = Static<typeof PlaceFileBody>;

export const UpdateFileBody = Type.Object(
  { name: Type.Optional(Filename), folderId: Type.Optional(Uuid) },
  { additionalProperties: false, minProperties: 1, examples: [{ name: "Lista 1 (corrigida).pdf" }] },
);
export type UpdateFileInput = Static<typeof UpdateFileBody>;

export const Entry = Type.Object(
  {
    type: StringEnum(["folder", "file"] as const),
    id: Uuid,
    name: Type.String(),
    kind: Type.Union([StringEnum(MEDIA_KINDS), Type.Null()], { description: "Files only." }),
    contentType: Type.Union([Type.String(), Type.Null()]),
    sizeBytes: Type.Union([Type.Integer({ minimum: 1 }), Type.Null()]),
    status: Type.Union([StringEnum(MEDIA_STATUSES), Type.Null()]),
    createdAt: IsoDateTime,
    updatedAt: IsoDateTime,
  },
  {
    additionalProperties: false,
    examples: [
      {
        type: "folder",
        id: FOLDER_ID,
        name: "Semana 1",
        kind: null,
        contentType: null,
        sizeBytes: null,
        status: null,
        createdAt: "2026-02-01T10:00:00.000Z",
        updatedAt: "2026-02-01T10:00:00.000Z",
      },
    ],
  },
);
export type EntryRecord = Static<typeof Entry>;

export const ChildrenQuery = Type.Object({ ...PageQuery }, { additionalProperties: false });
export const ChildrenPage = PageOf(Entry);

export const Quota = Type.Object(
  {
    usedBytes: Type.Integer({ minimum: 0, description: "Ready files and pending uploads' reservations." }),
    limitBytes: Type.Integer({ minimum: 0, description: "The plan's storage (`PLAN_STORAGE_LIMITS`)." }),
    plan: Type.String(),
  },
  { additionalProperties: false, examples: [{ usedBytes: 73400320, limitBytes: 1073741824, plan: "free" }] },
);
