import { Type } from "typebox";
import { signedIn, staff } from "../../platform/auth/access.js";
import { principalOf, tenantOf } from "../../platform/auth/request.js";
import type { AppContext } from "../../platform/context.js";
import { publicOrigin } from "../../platform/http/host.js";
import { IdParams, requireUuid } from "../../platform/http/schemas.js";
import type { App } from "../../platform/http/types.js";
import type { MediaDeps } from "../media/service.js";
import { storageUsage } from "../media/service.js";
import * as files from "./files.js";
import {
  ChildrenPage,
  ChildrenQuery,
  CreateFolderBody,
  DeleteFolderQuery,
  DriveFile,
  Folder,
  FolderParams,
  PlaceFileBody,
  Quota,
  UpdateFileBody,
  UpdateFolderBody,
} from "./schemas.js";
import * as service from "./service.js";

const tags = ["drive"];
const STUDENT_NOTE =
  "A student's session reads the folders shared with it (institution scope, its courses' and its classes') " +
  "and their ready files; anything else is 404 to it.";
const AUDIENCE_NOTE =
  "Sharing with a folder's audience needs the right to: an administrator may share with any; a teacher with " +
  "the folders of the courses they teach (enrolled as `teacher` or `assistant`) and of the classes they teach " +
  "(member as `teacher`), not institution-wide ones (403 `forbidden`); a key needs `drive:write`, and " +
  "`media:read` to bring in a file that is in no folder (`media:read` or `drive:read` for one in a folder; 403 " +
  "`insufficient_scope`).";
const UNAVAILABLE_NOTE =
  "A file in a store (S3) this server is not configured for is 503 `storage_unavailable`, and nothing changes.";
const read = signedIn("drive:read");
const write = staff("drive:write");
/** The storage quota: teachers' and administrators' sessions only, although any member reads the drive. */
const readQuota = staff("drive:read");

export function driveRoutes(app: App, ctx: AppContext): void {
  const db = ctx.database.db;
  const deps: MediaDeps = { db, config: ctx.config, warn: (message, err) => app.log.warn({ err }, message) };

  app.get(
    "/api/institution/drive/folders/:id/children",
    {
      config: { access: read },
      schema: {
        tags,
        summary: "List a folder's children",
        description:
          "Folders first, then files, each by name; `root` lists the top level (and, for staff, the files in no " +
          `folder). ${STUDENT_NOTE}`,
        params: FolderParams,
        querystring: ChildrenQuery,
        response: { 200: ChildrenPage },
      },
    },
    (request) => {
      const id = request.params.id === "root" ? null : requireUuid(request.params.id);
      return service.listChildren(
        db,
        tenantOf(request).id,
        id,
        request.query,
        service.readerOf(principalOf(request)),
      );
    },
  );

  app.post(
    "/api/institution/drive/folders",
    {
      config: { access: write },
      schema: {
        tags,
        summary: "Create a folder",
        description:
          "Top-level with `scope` (`courseId` for `course`, `classId` for `class`), or inside `parentId`, taking " +
          "its scope. A name already used beside it, ignoring case, is 409.",
        body: CreateFolderBody,
        response: { 201: Folder },
      },
    },
    async (request, reply) => {
      reply.code(201);
      return service.createFolder(db, tenantOf(request).id, request.body);
    },
  );

  app.get(
    "/api/institution/drive/folders/:id",
    {
      config: { access: read },
      schema: {
        tags,
        summary: "Get a folder",
        description: `With its path and the number of folders and files directly inside. ${STUDENT_NOTE}`,
        params: IdParams,
        response: { 200: Folder },
      },
    },
    (request) =>
      service.getFolder(
        db,
        tenantOf(request).id,
        requireUuid(request.params.id),
        service.readerOf(principalOf(request)),
      ),
  );

  app.patch(
    "/api/institution/drive/folders/:id",
    {
      config: { access: write, errors: [403, 409] },
      schema: {
        tags,
        summary: "Rename, move or re-scope a folder",
        description:
          "`parentId` moves it (null: to the top level); into itself or one of its sub-folders is 400. A moved " +
          "folder and its contents take the new parent's scope; a top-level folder's `scope` may be changed, for " +
          "its whole tree. A new scope shares every file below with its audience: a teacher may give only the " +
          `scope of a course or class they teach (403 \`forbidden\` otherwise). ${AUDIENCE_NOTE} A name taken beside it is 409.`,
        params: IdParams,
        body: UpdateFolderBody,
        response: { 200: Folder },
      },
    },
    (request) =>
      service.updateFolder(
        db,
        tenantOf(request).id,
        principalOf(request),
        requireUuid(request.params.id),
        request.body,
      ),
  );

  app.delete(
    "/api/institution/drive/folders/:id",
    {
      config: { access: write, errors: [409, 503] },
      schema: {
        tags,
        summary: "Delete a folder",
        description:
          "409 unless it is empty or `recursive=true`, which deletes its sub-folders and their files (409 if a " +
          "lesson uses one of the files; 503 `storage_unavailable`, deleting nothing, if one is in a store this " +
          "server is not configured for).",
        params: IdParams,
        querystring: DeleteFolderQuery,
        response: { 204: Type.Null() },
      },
    },
    async (request, reply) => {
      await service.deleteFolder(
        db,
        tenantOf(request).id,
        requireUuid(request.params.id),
        request.query.recursive === true,
        deps,
      );
      reply.code(204).send(null);
    },
  );

  app.post(
    "/api/institution/drive/files",
    {
      config: { access: write, errors: [403, 503] },
      schema: {
        tags,
        summary: "Place a file in a folder",
        description:
          "Puts an uploaded file (`mediaId`) in a folder; a file is in one folder at most. That shares it with " +
          `the folder's audience. ${AUDIENCE_NOTE} ${UNAVAILABLE_NOTE}`,
        body: PlaceFileBody,
        response: { 201: DriveFile },
      },
    },
    async (request, reply) => {
      const placed = await files.placeFile(
        deps,
        tenantOf(request).id,
        principalOf(request),
        request.body,
        publicOrigin(request),
      );
      reply.code(201);
      return placed;
    },
  );

  app.get(
    "/api/institution/drive/files/:id",
    {
      config: { access: read, errors: [503] },
      schema: {
        tags,
        summary: "Get a file of the drive",
        description: `A ready file carries a signed, short-lived \`url\`. ${STUDENT_NOTE} ${UNAVAILABLE_NOTE}`,
        params: IdParams,
        response: { 200: DriveFile },
      },
    },
    (request) =>
      files.getFile(
        deps,
        tenantOf(request).id,
        requireUuid(request.params.id),
        publicOrigin(request),
        service.readerOf(principalOf(request)),
      ),
  );

  app.patch(
    "/api/institution/drive/files/:id",
    {
      config: { access: write, errors: [403, 503] },
      schema: {
        tags,
        summary: "Rename or move a file",
        description: `A move to another folder shares the file with its audience. ${AUDIENCE_NOTE} ${UNAVAILABLE_NOTE}`,
        params: IdParams,
        body: UpdateFileBody,
        response: { 200: DriveFile },
      },
    },
    (request) =>
      files.updateFile(
        deps,
        tenantOf(request).id,
        principalOf(request),
        requireUuid(request.params.id),
        request.body,
        publicOrigin(request),
      ),
  );

  app.delete(
    "/api/institution/drive/files/:id",
    {
      config: { access: write },
      schema: {
        tags,
        summary: "Take a file out of the drive",
        description: "The file itself stays (`DELETE /media/:id` deletes it).",
        params: IdParams,
        response: { 204: Type.Null() },
      },
    },
    async (request, reply) => {
      await files.removeFile(deps, tenantOf(request).id, requireUuid(request.params.id));
      reply.code(204).send(null);
    },
  );

  app.get(
    "/api/institution/drive/quota",
    {
      config: { access: readQuota },
      schema: {
        tags,
        summary: "Storage used and allowed",
        description: "Bytes of ready files and of pending uploads' reservations, against the plan's storage.",
        response: { 200: Quota },
      },
    },
    (request) => storageUsage(deps, tenantOf(request).id),
  );
}
