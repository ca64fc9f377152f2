import { Type } from "typebox";
import { staff } from "../../platform/auth/access.js";
import { principalOf, tenantOf } from "../../platform/auth/request.js";
import type { AppContext } from "../../platform/context.js";
import { publicOrigin } from "../../platform/http/host.js";
import { IdParams, requireUuid } from "../../platform/http/schemas.js";
import type { App } from "../../platform/http/types.js";
import { TOTAL_CAP } from "../../platform/pagination/capped.js";
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
const read = staff("media:read");
const write = staff("media:write");

export async function mediaRoutes(app: App, ctx: AppContext): Promise<void> {
  const deps: service.MediaDeps = {
    db: ctx.database.db,
    config: ctx.config,
    warn: (message, err) => app.log.warn({ err }, message),
  };

  app.post(
    "/api/institution/media/uploads",
    {
      config: { access: write, errors: [403, 413] },
      schema: {
        tags,
        summary: "Start an upload",
        description:
          "Step 1 of 3. Reserves `sizeBytes` of the plan's storage (413 `payload_too_large` when the plan has no " +
          "room left, or the file is over `MEDIA_MAX_UPLOAD_BYTES`) and answers the file, `pending_upload`, with " +
          "`upload`: send the bytes as the whole body of a `PUT` to `upload.url` with `upload.headers`, before " +
          "`upload.expiresAt` (step 2), then call `POST /media/:id/complete` (step 3). On the local store the URL " +
          "is this API's own; on S3 it is a presigned URL of the bucket, which signs `Content-Type` (send exactly " +
          "`upload.headers`). `folderId` shares the file with the folder's audience, which needs the right to: an " +
          "administrator; a teacher for the folders of the courses and classes they teach (403 " +
          "`forbidden` otherwise, and for institution-wide folders); a key with `drive:write` (403 " +
          "`insufficient_scope`).",
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
      config: { access: write, errors: [409, 503] },
      schema: {
        tags,
        summary: "Complete an upload",
        description:
          "Step 3 of 3. Checks the stored bytes: the size must equal `sizeBytes`, the SHA-256 must equal " +
          "`checksumSha256` when one was given, and the content, by its magic bytes, must be the declared " +
          "`contentType` (text types: UTF-8 without NUL; `text/vtt` must start with `WEBVTT`). Answers the file " +
          "`ready` with a download `url` (emits `media_ready`), or `failed` with its `error` (emits `media_failed`; " +
          "the bytes are deleted and the storage freed). One completion verifies at a time: meanwhile the file is " +
          "`verifying` and other completions are 409 `conflict`; on S3 the bytes verified are a copy of the upload " +
          "that only this completion wrote, and they are what is served (a later PUT to the upload URL changes " +
          "nothing served). Nothing uploaded yet, or a failed file: 409. Completing a ready file again answers it " +
          "unchanged. 503 `storage_unavailable` when the file's store is not configured on this server.",
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
          "`search` (the file name, ignoring case and accents). Items carry no download `url`: get one file for it. " +
          "`pagination.total` is exact unfiltered and with `status` or `kind` alone; other filters count their matches " +
          `exactly up to ${TOTAL_CAP}, beyond which it is a lower bound (\`totalRelation: "gte"\`).`,
        querystring: ListMediaQuery,
        response: { 200: MediaPage },
      },
    },
    (request) => service.listMedia(deps, tenantOf(request).id, request.query),
  );

  app.get(
    "/api/institution/media/:id",
    {
      config: { access: read, errors: [503] },
      schema: {
        tags,
        summary: "Get a file",
        description:
          "A ready file carries `url`, a signed download URL valid until `urlExpiresAt` " +
          "(`MEDIA_DOWNLOAD_URL_TTL_SECONDS`, 5 minutes by default). 503 `storage_unavailable` when the file is " +
          "in a store (S3) this server is not configured for.",
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
      config: { access: write, errors: [403, 503] },
      schema: {
        tags,
        summary: "Rename or move a file",
        description:
          "`folderId` places it in a drive folder (400 for an unknown one), which shares it with the folder's " +
          "audience: that needs the right to (see `POST /media/uploads`; a key also needs `media:read` to bring " +
          "in a file that is in no folder), 403 otherwise. null takes it out. 503 `storage_unavailable` when the " +
          "file is in a store this server is not configured for (nothing changes).",
        params: IdParams,
        body: UpdateMediaBody,
        response: { 200: Media },
      },
    },
    (request) =>
      service.updateMedia(
        deps,
        tenantOf(request).id,
        principalOf(request),
        requireUuid(request.params.id),
        request.body,
        publicOrigin(request),
      ),
  );

  app.delete(
    "/api/institution/media/:id",
    {
      config: { access: write, errors: [409, 503] },
      schema: {
        tags,
        summary: "Delete a file",
        description:
          "Deletes the record and its bytes and frees its storage. A file that lessons use (`content.mediaId`) is " +
          "409 `conflict` unless `force=true`. A file in a store this server is not configured for is 503 " +
          "`storage_unavailable` and stays (its bytes could not be removed).",
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
