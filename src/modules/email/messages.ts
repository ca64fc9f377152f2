/** POST /email/messages, the message log, and bounce reports. */
import { createHash, timingSafeEqual } from "node:crypto";
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Db, Executor } from "../../db/client.js";
import { classGroupMembers, classGroups, emailMessages, users } from "../../db/schema/index.js";
import { DEFAULT_LOCALE } from "../../locales/index.js";
import { AppError, notFound, validationError } from "../../platform/errors/app-error.js";
import { cappedPageEnvelope, totalFromPage } from "../../platform/pagination/capped.js";
import { pageWindow } from "../../platform/pagination/pagination.js";
import { emitEvent } from "../events/emit.js";
import { countMessages, listMessagePage } from "./message-list.js";
import type {
  BounceInput,
  ListMessagesQueryType,
  MessageRecord,
  SendMessagesInput,
} from "./message-schemas.js";
import {
  asLocale,
  type MailDeps,
  maskEmail,
  type OutgoingMail,
  resolveTemplate,
  writeMessages,
} from "./outbox.js";
import { render, sanitizeEmailHtml } from "./render.js";
import * as repo from "./repo.js";

function shape(row: repo.MessageRow, masked: boolean): MessageRecord {
  return {
    ...row,
    toEmail: masked ? maskEmail(row.toEmail) : row.toEmail,
    nextAttemptAt: row.status === "queued" ? row.nextAttemptAt : null,
  } as MessageRecord;
}

export async function listMessages(db: Executor, tenantId: string, query: ListMessagesQueryType) {
  const window = pageWindow(query);
  const filter = {
    status: query.status,
    userId: query.userId?.toLowerCase(),
    templateKey: query.templateKey,
    since: query.since,
  };
  const rows = await listMessagePage(db, tenantId, filter, query.sort ?? "-createdAt", window);
  // A page that is not full is the last: its total needs no count (a recent `since`, a rare filter).
  const total = totalFromPage(window, rows) ?? (await countMessages(db, tenantId, filter));
  return cappedPageEnvelope(
    rows.map((r) => shape(r, true)),
    total,
    window,
  );
}

export async function getMessage(db: Executor, tenantId: string, id: string): Promise<MessageRecord> {
  const row = await repo.findMessage(db, tenantId, id);
  if (row === undefined) throw notFound();
  return shape(row, false);
}

async function recipients(tx: Executor, tenantId: string, input: SendMessagesInput) {
  const columns = { id: users.id, name: users.name, email: users.email };
  if (input.userIds !== undefined) {
    const ids = [...new Set(input.userIds.map((id) => id.toLowerCase()))];
    return tx
      .select(columns)
      .from(users)
      .where(and(eq(users.tenantId, tenantId), inArray(users.id, ids)));
  }
  const groupId = (input.classGroupId as string).toLowerCase();
  const group = await tx
    .select({ id: classGroups.id })
    .from(classGroups)
    .where(and(eq(classGroups.tenantId, tenantId), eq(classGroups.id, groupId)));
  if (group.length === 0) throw validationError("classGroupId", "field.unknown_class_group", { id: groupId });
  return tx
    .select(columns)
    .from(classGroupMembers)
    .innerJoin(
      users,
      and(eq(users.tenantId, classGroupMembers.tenantId), eq(users.id, classGroupMembers.userId)),
    )
    .where(and(eq(classGroupMembers.tenantId, tenantId), eq(classGroupMembers.classGroupId, groupId)));
}

/**
 * The most text one request may queue: every recipient gets a rendered copy of the template, rendered and
 * written on the event loop in one transaction. 1,000 recipients of a 200,000-character HTML and text part
 * were 400 MB and minutes of a blocked server; 4 million characters are 1,000 recipients of a 4,000-character
 * message, or 20 of the largest. Larger mailings go in several requests.
 */
export const MAX_QUEUED_CHARACTERS = 4_000_000;

function assertWithinVolume(
  template: { subject: string; bodyHtml: string; bodyText: string },
  count: number,
) {
  const size = template.subject.length + template.bodyHtml.length + template.bodyText.length;
  if (size * count <= MAX_QUEUED_CHARACTERS) return;
  throw validationError("bodyHtml", "field.max_length", { limit: Math.floor(MAX_QUEUED_CHARACTERS / count) });
}

/**
 * The message given in the request, sanitised (`assertOneOf` checked it is whole). Sanitising runs once per
 * request on a worker thread, bounded by the field's 200,000 characters and the pool's timeout, so it comes
 * before the transaction (no transaction waits on it); the volume check bounds the per-recipient rendering.
 */
async function adHocTemplate(input: SendMessagesInput) {
  if (input.templateKey !== undefined) return undefined;
  return {
    subject: input.subject ?? "",
    bodyHtml: await sanitizeEmailHtml(input.bodyHtml ?? ""),
    bodyText: input.bodyText ?? "",
  };
}

function assertOneOf(input: SendMessagesInput): void {
  const adHoc = [input.subject, input.bodyHtml, input.bodyText].filter((v) => v !== undefined).length;
  if ((input.templateKey === undefined) === (adHoc === 0) || (adHoc !== 0 && adHoc !== 3)) {
    throw validationError("templateKey", "field.required");
  }
  if ((input.userIds === undefined) === (input.classGroupId === undefined)) {
    throw validationError("userIds", "field.required");
  }
}

/**
 * Queues one message per recipient in one transaction (202): rendered now, sent by the worker. Suspended and
 * invited users are included (an invited user may need the mail most); unknown ids are skipped, and a request
 * that reaches nobody is 400.
 */
export async function sendMessages(
  db: Db,
  deps: MailDeps,
  tenantId: string,
  input: SendMessagesInput,
): Promise<{ queued: number; messageIds: string[] }> {
  assertOneOf(input);
  const adHoc = await adHocTemplate(input);
  return db.transaction(async (tx) => {
    const institution = await repo.institutionInfo(tx, tenantId);
    const locale = asLocale(input.locale) ?? asLocale(institution.defaultLocale) ?? DEFAULT_LOCALE;
    const people = await recipients(tx, tenantId, input);
    if (people.length === 0)
      throw validationError(input.userIds ? "userIds" : "classGroupId", "field.no_recipients");
    const template = adHoc ?? (await resolveTemplate(tx, tenantId, input.templateKey as string, locale));
    if (template === undefined) {
      throw validationError("templateKey", "field.unknown_template", { key: input.templateKey as string });
    }
    assertWithinVolume(template, people.length);
    const mails: OutgoingMail[] = people.map((p) => ({
      tenantId,
      templateKey: input.templateKey ?? null,
      locale,
      to: { userId: p.id, email: p.email, name: p.name },
      content: render(template, {
        ...(input.variables ?? {}),
        name: p.name,
        email: p.email,
        institutionName: institution.name,
      }),
      triggeredBy: "api",
    }));
    const messageIds = await writeMessages(tx, deps, mails);
    return { queued: messageIds.length, messageIds };
  });
}

/** Constant-time check of the bounce route's bearer token against the configured secret's hash. */
export function bounceAuthorized(secretHash: string | undefined, authorization: string | undefined): boolean {
  if (secretHash === undefined || authorization === undefined) return false;
  const m = /^Bearer (\S+)$/.exec(authorization);
  if (m === null) return false;
  const given = createHash("sha256")
    .update(m[1] as string)
    .digest();
  return timingSafeEqual(given, Buffer.from(secretHash, "hex"));
}

/**
 * A provider reports a bounce or complaint by Message-ID. A sent message becomes `bounced`/`complained` and emits
 * `email_bounced` in the same transaction; a repeated report changes nothing. A message never sent is 409.
 */
type Status = MessageRecord["status"];

export async function recordBounce(db: Db, input: BounceInput): Promise<{ id: string; status: Status }> {
  const messageId = input.messageId.startsWith("<") ? input.messageId : `<${input.messageId}>`;
  return db.transaction(async (tx) => {
    const rows = await tx
      .select({
        tenantId: emailMessages.tenantId,
        id: emailMessages.id,
        status: emailMessages.status,
        toEmail: emailMessages.toEmail,
        templateKey: emailMessages.templateKey,
      })
      .from(emailMessages)
      .where(eq(emailMessages.messageId, messageId))
      .for("update");
    const row = rows[0];
    if (row === undefined) throw notFound();
    const status: Status = input.kind === "bounce" ? "bounced" : "complained";
    if (row.status === "bounced" || row.status === "complained") return { id: row.id, status: row.status };
    if (row.status !== "sent") throw new AppError("conflict");
    await tx
      .update(emailMessages)
      .set({ status, bouncedAt: sql`now()`, updatedAt: sql`now()` })
      .where(and(eq(emailMessages.tenantId, row.tenantId), eq(emailMessages.id, row.id)));
    await emitEvent(tx, {
      tenantId: row.tenantId,
      type: "email_bounced",
      data: {
        messageId: row.id,
        email: maskEmail(row.toEmail),
        templateKey: row.templateKey,
        kind: input.kind,
        reason: input.reason ?? null,
      },
      actor: { type: "system" },
    });
    return { id: row.id, status };
  });
}
