-- Issue 23, part 4: mail that carries files, and certificates of learning paths.
-- An outbox message names its attachments (`[{"kind": "certificate", "id": "…"}]`) and never holds their bytes:
-- the worker renders each one when it sends, so a certificate revoked after the mail was queued is not mailed.
ALTER TABLE "email_messages" ADD COLUMN "attachments" jsonb DEFAULT '[]'::jsonb NOT NULL;
--> statement-breakpoint
-- A message written by a change that has no request behind it (a course or a path completed by a quiz, a
-- live-class attendance sync) is composed by the worker when it sends: its template is rendered then, on the
-- institution's own host, and only then does it get a Message-ID. Until then these two are NULL.
ALTER TABLE "email_messages" ALTER COLUMN "body_sealed" DROP NOT NULL;
--> statement-breakpoint
ALTER TABLE "email_messages" ALTER COLUMN "message_id" DROP NOT NULL;
