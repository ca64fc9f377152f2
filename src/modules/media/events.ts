import { Type } from "typebox";
import { IsoDateTime, Uuid } from "../../platform/http/schemas.js";
import { defineEvent, exampleOf } from "../events/define.js";
import { Media } from "./schemas.js";

const SAMPLE_MEDIA = { ...exampleOf(Media), url: null, urlExpiresAt: null };

const MediaLifecycle = {
  mediaId: Uuid,
  kind: Type.String(),
  filename: Type.String(),
  contentType: Type.String(),
  folderId: Type.Union([Uuid, Type.Null()]),
  media: Type.Object(Media.properties, {
    description:
      "The file as `GET /media/:id` answers it, without a download link (`url` and `urlExpiresAt` are null: a " +
      "signed link is a credential, and it would expire before a retried delivery).",
  }),
};

const about = (media: typeof SAMPLE_MEDIA) => ({
  mediaId: media.id,
  kind: media.kind,
  filename: media.filename,
  contentType: media.contentType,
  folderId: media.folderId,
  media,
});

export const mediaEvents = {
  media_ready: defineEvent({
    schemaVersion: 1,
    description: "An uploaded file was verified and is ready.",
    payload: Type.Object({
      ...MediaLifecycle,
      sizeBytes: Type.Integer({ minimum: 1 }),
      readyAt: IsoDateTime,
    }),
    sample: {
      ...about(SAMPLE_MEDIA),
      sizeBytes: SAMPLE_MEDIA.sizeBytes,
      readyAt: SAMPLE_MEDIA.readyAt as string,
    },
  }),
  media_failed: defineEvent({
    schemaVersion: 1,
    description: "An upload failed its size, checksum or content check, or expired unfinished.",
    payload: Type.Object({
      ...MediaLifecycle,
      error: Type.String({ description: "Why: the media's `error` code." }),
    }),
    sample: {
      ...about({ ...SAMPLE_MEDIA, status: "failed", error: "content_type_mismatch", readyAt: null }),
      error: "content_type_mismatch",
    },
  }),
};
