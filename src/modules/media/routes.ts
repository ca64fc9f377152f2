import { Type } from "typebox";
import { principalOf, tenantOf } from "../../platform/auth/request.js";
import type { AppContext } from "../../platform/context.js";
import { publicOrigin } from "../../platform/http/host.js";
import { IdParams, requireUuid } from "../../platform/http/schemas.js";
import type { App } from "../../platform/http/types.js";
import { completeUpload } from "./complete.js";
import {
  CreatedUpload,
  CreateUploadBody,
  DeleteMediaQuery,
  ListMediaQuery,
  Media,
  MediaPage,
  UpdateMediaBody,
} from "./schemas.js";
import * as service from "./service.js";
import { transferRoutes } from "./transfer-routes.js";

const tags = ["media"];
/** Files are staff material: a student reaches the ones shared with it through the drive. */
const read = {
  kind: "authenticated",
  auth: ["key", "session"],
  scope: "media:read",
  roles: ["teacher", "institution_admin"],
} as const;
const write = { ...read, scope: "media:write" } as const;

export async function mediaRoutes(app: App, ctx: AppContext): Promise<void> {
  const deps: service.MediaDeps = {
    db: ctx.database.db,
    config: ctx.config,
    warn: (message, err) => app.log.warn({ err }, message),
  };

  app.post(
    "/api/institution/media/uploads",
    {
      config: { access: write, errors: [413] },
      schema: {
        tags,
        summary: "Start an upload",
        description:
          "Step 1 of 3. Reserves `sizeBytes` of the plan's storage (413 `payload_too_large` when the plan has no " +
          "room left, or the file is over `MEDIA_MAX_UPLOAD_BYTES`) and answers the file, `pending_upload`, with " +
          "`upload`: send the bytes as the whole body of a `PUT` to `upload.url` with `upload.headers`, before " +
          "`upload.expiresAt` (step 2), then call `POST /media/:id/complete` (step 3). On the local store the URL " +
          "is this API's own; on S3 it is a presigned URL of the bucket.",
        body: CreateUploadBody,
        response: { 201: CreatedUpload },
      },
    },
    async (request, reply) => {
      const created = await service.createUpload(
        deps,
        tenantOf(request).id,
        principalOf(request),
        request.body,
        publicOrigin(request),
      );
      reply.code(201);
      return created;
    },
  );

  app.post(
    "/api/institution/media/:id/complete",
    {
      config: { access: write, errors: [409] },
      schema: {
        tags,
        summary: "Complete an upload",
        description:
          "Step 3 of 3. Checks the stored bytes: the size must equal `sizeBytes`, the SHA-256 must equal " +
          "`checksumSha256` when one was given, and the content, by its magic bytes, must be the declared " +
          "`contentType` (text types: UTF-8 without NUL; `text/vtt` must start with `WEBVTT`). Answers the file " +
          "`ready` with a download `url` (emits `media_ready`), or `failed` with its `error` (emits `media_failed`; " +
          "the bytes are deleted and the storage freed). Nothing uploaded yet, or a failed file: 409. Completing a " +
          "ready file again answers it unchanged.",
        params: IdParams,
        response: { 200: Media },
      },
    },
    (request) =>
      completeUpload(
        deps,
        tenantOf(request).id,
        principalOf(request),
        requireUuid(request.params.id),
        publicOrigin(request),
      ),
  );

  app.get(
    "/api/institution/media",
    {
      config: { access: read },
      schema: {
        tags,
        summary: "List files",
        description:
          "Newest first unless `sort` says otherwise. Filters: `kind`, `status`, `folderId` (a drive folder), " +
          "`search` (the file name, ignoring case and accents). Items carry no download `url`: get one file for it.",
        querystring: ListMediaQuery,
        response: { 200: MediaPage },
      },
    },
    (request) => service.listMedia(deps, tenantOf(request).id, request.query),
  );

  app.get(
    "/api/institution/media/:id",
    {
      config: { access: read },
      schema: {
        tags,
        summary: "Get a file",
        description:
          "A ready file carries `url`, a signed download URL valid until `urlExpiresAt` " +
          "(`MEDIA_DOWNLOAD_URL_TTL_SECONDS`, 5 minutes by default).",
        params: IdParams,
        response: { 200: Media },
      },
    },
    (request) =>
      service.getMedia(deps, tenantOf(request).id, requireUuid(request.params.id), publicOrigin(request)),
  );

  app.patch(
    "/api/institution/media/:id",
    {
      config: { access: write },
      schema: {
        tags,
        summary: "Rename or move a file",
        description: "`folderId` places it in a drive folder (400 for an unknown one); null takes it out.",
        params: IdParams,
        body: UpdateMediaBody,
        response: { 200: Media },
      },
    },
    (request) =>
      service.updateMedia(
        deps,
        tenantOf(request).id,
        requireUuid(request.params.id),
        request.body,
        publicOrigin(request),
      ),
  );

  app.delete(
    "/api/institution/media/:id",
    {
      config: { access: write, errors: [409] },
      schema: {
        tags,
        summary: "Delete a file",
        description:
          "Deletes the record and its bytes and frees its storage. A file that lessons use (`content.mediaId`) is " +
          "409 `conflict` unless `force=true`.",
        params: IdParams,
        querystring: DeleteMediaQuery,
        response: { 204: Type.Null() },
      },
    },
    async (request, reply) => {
      await service.deleteMedia(
        deps,
        tenantOf(request).id,
        requireUuid(request.params.id),
        request.query.force === true,
      );
      reply.code(204).send(null);
    },
  );

  await transferRoutes(app, ctx, deps);
}
