/**
 * The mail worker: claims due messages through the project's one queue mechanism (db/lease.ts: `FOR UPDATE SKIP
 * LOCKED`, so any number of workers share the outbox and never take the same message), sends each through the transport, and records the outcome. A claim is a lease:
 * it moves the message's `next_attempt_at` past the lease and counts the attempt, so a worker that dies leaves
 * the message to the next claim once the lease ends, and a late worker's record (fenced by the attempt number)
 * never overwrites its successor's. Failures retry on MAIL_RETRY_SCHEDULE; an SMTP 5xx, or the last retry,
 * fails the message for good and emits `email_failed` in the same transaction.
 */

import { type SQL, sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { Db, Executor } from "../../db/client.js";
import { claimLeased, fencedUpdate } from "../../db/lease.js";
import type { AppContext } from "../../platform/context.js";
import { createKeyring, type Keyring } from "../../platform/crypto/secret-box.js";
import { emitEvent } from "../events/emit.js";
import { type Composed, type ComposeInput, composeMessage } from "./compose.js";
import { maskEmail } from "./outbox.js";
import { type Sender, senderOf } from "./sender.js";
import { createMailTransport, type MailTransport, SendError } from "./transport.js";

interface Claimed extends ComposeInput {
  message_id: string;
  subject: string;
  attempts: number;
}

export interface DrainOptions {
  batchSize?: number;
  leaseSeconds?: number;
  /** Only these tenants' messages (tests sharing one database). */
  tenantIds?: readonly string[];
}

export interface DrainResult {
  sent: number;
  retried: number;
  failed: number;
  /** Not sent because what the message carried was withdrawn (a certificate revoked since it was queued). */
  suppressed: number;
  /** Outcomes not recorded: the lease had ended and another worker had taken the message. */
  stale: number;
}

/** The mail outbox's claim, through the project's one queue mechanism (db/lease.ts). */
async function claim(
  db: Db,
  batchSize: number,
  leaseSeconds: number,
  messageIdDomain: string,
  tenantIds?: readonly string[],
) {
  const only =
    tenantIds === undefined
      ? sql``
      : sql`AND tenant_id IN (${sql.join(
          tenantIds.map((t) => sql`${t}::uuid`),
          sql`, `,
        )})`;
  return claimLeased<Claimed>(db, {
    table: MESSAGES,
    due: sql`status = 'queued' AND next_attempt_at <= now() ${only}`,
    order: sql`next_attempt_at`,
    limit: batchSize,
    // The due time moves past the lease too: the due condition is `next_attempt_at <= now()` alone.
    lease: sql`next_attempt_at = now() + make_interval(secs => ${leaseSeconds}),
               lease_until = now() + make_interval(secs => ${leaseSeconds})`,
    set: sql`message_id = coalesce(q.message_id, '<' || q.id || '@' || ${messageIdDomain} || '>'),
             updated_at = now()`,
    returning: sql`q.tenant_id, q.id, q.message_id, q.to_email, q.to_user_id, q.subject, q.body_sealed,
                   q.attempts, q.template_key, q.locale, q.attachments`,
  });
}

const MESSAGES = sql`email_messages`;

/** A record of this claim's outcome, only while the message is still queued under this attempt (the fence). */
async function recordFenced(db: Executor, m: Claimed, set: SQL): Promise<boolean> {
  const row = await fencedUpdate(db, {
    table: MESSAGES,
    tenantId: m.tenant_id,
    id: m.id,
    attempt: m.attempts,
    held: sql`status = 'queued'`,
    set,
  });
  return row !== undefined;
}

async function recordSent(db: Db, m: Claimed, subject: string): Promise<"sent" | "stale"> {
  const done = await recordFenced(
    db,
    m,
    sql`status = 'sent', sent_at = now(), lease_until = NULL, last_error = NULL, updated_at = now(),
        subject = ${subject}`,
  );
  return done ? "sent" : "stale";
}

/** A failed attempt: a retry at the schedule's next step, or the end (`failed`, `email_failed`). */
async function recordFailure(
  db: Db,
  schedule: readonly number[],
  m: Claimed,
  error: SendError,
): Promise<"retried" | "failed" | "stale"> {
  const final = error.permanent || m.attempts > schedule.length;
  return db.transaction(async (tx) => {
    if (!final) {
      const retried = await recordFenced(
        tx,
        m,
        sql`next_attempt_at = now() + make_interval(secs => ${schedule[m.attempts - 1] ?? 0}),
            lease_until = NULL, last_error = ${error.message}, updated_at = now()`,
      );
      return retried ? "retried" : "stale";
    }
    const failed = await recordFenced(
      tx,
      m,
      sql`status = 'failed', lease_until = NULL, last_error = ${error.message}, updated_at = now()`,
    );
    if (!failed) return "stale";
    await emitEvent(tx, {
      tenantId: m.tenant_id,
      type: "email_failed",
      data: {
        messageId: m.id,
        email: maskEmail(m.to_email),
        templateKey: m.template_key,
        attempts: m.attempts,
        error: error.message,
      },
      actor: { type: "system" },
    });
    return "failed";
  });
}

/** A message whose attachment was withdrawn before it went: not sent, and not a failure (no `email_failed`). */
async function recordSuppressed(db: Db, m: Claimed): Promise<"suppressed" | "stale"> {
  const done = await recordFenced(
    db,
    m,
    sql`status = 'suppressed', lease_until = NULL, updated_at = now(),
        last_error = 'not sent: what it carried was withdrawn (revoked or expired)'`,
  );
  return done ? "suppressed" : "stale";
}

async function sendOne(
  deps: { db: Db; config: AppContext["config"]; keyring: Keyring },
  transport: MailTransport,
  schedule: readonly number[],
  m: Claimed,
  sender: Sender | undefined,
): Promise<keyof DrainResult> {
  const { db } = deps;
  let composed: Composed | undefined;
  try {
    composed = await composeMessage(deps, m);
  } catch (err) {
    const error =
      err instanceof SendError ? err : new SendError(String((err as Error)?.message ?? err), false);
    return recordFailure(db, schedule, m, error);
  }
  if (composed === undefined) return recordSuppressed(db, m);
  const subject = composed.subject ?? m.subject;
  try {
    await transport.send({
      tenantId: m.tenant_id,
      id: m.id,
      messageId: m.message_id,
      to: m.to_email,
      subject,
      html: composed.html,
      text: composed.text,
      attachments: composed.attachments,
      ...sender,
    });
  } catch (err) {
    const error =
      err instanceof SendError ? err : new SendError(String((err as Error)?.message ?? err), false);
    return recordFailure(db, schedule, m, error);
  }
  return recordSent(db, m, subject);
}

export function mailKeyring(ctx: AppContext): Keyring {
  const { current, previous } = ctx.config.secrets.encryptionKeys;
  return createKeyring(current, previous);
}

/** Claims and sends until nothing is due. Tests call it directly; the loop calls it on every tick. */
export async function drainMail(
  ctx: AppContext,
  transport: MailTransport,
  options: DrainOptions = {},
): Promise<DrainResult> {
  const db = ctx.database.db;
  const keyring = mailKeyring(ctx);
  const deps = { db, config: ctx.config, keyring };
  const schedule = ctx.config.mail.retryScheduleSeconds;
  const result: DrainResult = { sent: 0, retried: 0, failed: 0, suppressed: 0, stale: 0 };
  const senders = new Map<string, Promise<Sender | undefined>>();
  for (;;) {
    const batch = await claim(
      db,
      options.batchSize ?? ctx.config.mail.batchSize,
      options.leaseSeconds ?? ctx.config.mail.leaseSeconds,
      ctx.config.mail.messageIdDomain,
      options.tenantIds,
    );
    if (batch.length === 0) return result;
    // Each institution's sender is read once per drain, not once per message.
    for (const m of batch) {
      if (!senders.has(m.tenant_id)) senders.set(m.tenant_id, senderOf(db, m.tenant_id));
    }
    const outcomes = await Promise.all(
      batch.map(async (m) => sendOne(deps, transport, schedule, m, await senders.get(m.tenant_id))),
    );
    for (const o of outcomes) result[o]++;
  }
}

export interface MailLoopOptions extends DrainOptions {
  pollMs?: number;
  /** Default: from configuration (SMTP_URL, else .eml files). */
  transport?: MailTransport;
}

export interface MailLoop {
  stop(): Promise<void>;
}

/**
 * Polls the outbox every MAIL_POLL_MS. Mail is not latency-critical the way webhooks are, so a poll (one indexed
 * query over queued messages) is enough. Without SMTP and without a mail folder (an in-memory database) there is
 * nowhere to send: the loop does not start, and messages wait queued.
 */
export function startMailLoop(
  ctx: AppContext,
  log: FastifyBaseLogger,
  options: MailLoopOptions = {},
): MailLoop | undefined {
  const transport = options.transport ?? createMailTransport(ctx.config.mail);
  if (transport === undefined) {
    log.info("mail: no SMTP_URL and no mail folder; messages stay queued");
    return undefined;
  }
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const tick = () => {
    if (stopped) return;
    running = drainMail(ctx, transport, options)
      .then((r) => {
        if (r.sent + r.retried + r.failed + r.suppressed + r.stale > 0)
          log.debug({ mail: r }, "mail drained");
      })
      .catch((err: unknown) => log.error({ err }, "mail drain failed"))
      .finally(() => {
        if (!stopped) timer = setTimeout(tick, options.pollMs ?? ctx.config.mail.pollMs);
      });
  };
  tick();
  log.info({ transport: transport.kind }, "mail loop started");
  return {
    async stop() {
      stopped = true;
      if (timer !== undefined) clearTimeout(timer);
      await running;
      if (options.transport === undefined) transport.close();
    },
  };
}
