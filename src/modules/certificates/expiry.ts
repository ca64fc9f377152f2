import { sql } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import { users } from "../../db/schema/index.js";
import { subjectOf } from "../events/actor.js";
import type { EventSubject } from "../events/catalogue.js";
import { type EventInput, emitEvents } from "../events/emit.js";
import { certificateAbout } from "./events.js";
import type { StoredCertificate } from "./repo.js";

/** Certificates handled per pass; the next hourly pass takes the rest. */
const BATCH = 1000;
export const EXPIRING_DAYS = 30;
const DAY_MS = 86_400_000;

const RETURNING = sql`RETURNING tenant_id AS "tenantId", id, template_id AS "templateId", user_id AS "userId",
  course_id AS "courseId", enrollment_id AS "enrollmentId", serial, status, source, student_name AS "studentName",
  course_title AS "courseTitle", to_char(issued_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "issuedAt",
  to_char(expires_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "expiresAt"`;

type Row = Omit<StoredCertificate, "revokedAt" | "revocationReason" | "createdAt" | "updatedAt"> & {
  tenantId: string;
};

async function subjects(tx: Executor, tenantId: string, ids: string[]): Promise<Map<string, EventSubject>> {
  const rows = (await tx.execute(
    sql`SELECT id, name, email, role FROM ${users} WHERE tenant_id = ${tenantId}
        AND id = ANY(${sql.param([...new Set(ids)])}::uuid[])`,
  )) as unknown as { rows: { id: string; name: string; email: string; role: string }[] };
  return new Map(rows.rows.map((u) => [u.id, subjectOf(u)]));
}

async function announce(tx: Executor, rows: Row[], event: (row: Row) => EventInput["data"], type: string) {
  const byTenant = new Map<string, Row[]>();
  for (const row of rows) byTenant.set(row.tenantId, [...(byTenant.get(row.tenantId) ?? []), row]);
  for (const [tenantId, list] of byTenant) {
    const people = await subjects(
      tx,
      tenantId,
      list.map((r) => r.userId),
    );
    await emitEvents(
      tx,
      tenantId,
      list.map(
        (row) =>
          ({
            type,
            data: event(row),
            actor: { type: "system" },
            subject: people.get(row.userId) ?? null,
          }) as unknown as EventInput,
      ),
    );
  }
}

const about = (row: Row) =>
  certificateAbout({
    ...row,
    revokedAt: null,
    revocationReason: null,
    createdAt: row.issuedAt,
    updatedAt: row.issuedAt,
  });

/**
 * The worker's hourly pass (src/worker/runner.ts): valid certificates whose expiry has passed become `expired`
 * with `certificate_expired`; those expiring within 30 days, not yet warned, get `certificate_expiring` once.
 * Each is one transaction taking its rows with SKIP LOCKED, so two workers share the work. Answers the counts.
 */
export async function expireCertificates(db: Executor): Promise<{ expired: number; expiring: number }> {
  const expired = await db.transaction(async (tx) => {
    const result = (await tx.execute(sql`
      UPDATE certificates SET status = 'expired', updated_at = now()
      WHERE (tenant_id, id) IN (
        SELECT tenant_id, id FROM certificates
        WHERE status = 'valid' AND expires_at IS NOT NULL AND expires_at <= now()
        ORDER BY expires_at LIMIT ${BATCH}
        FOR UPDATE SKIP LOCKED)
      ${RETURNING}`)) as unknown as { rows: Row[] };
    await announce(
      tx,
      result.rows,
      (row) => ({ ...about(row), expiresAt: row.expiresAt as string }),
      "certificate_expired",
    );
    return result.rows.length;
  });
  const expiring = await db.transaction(async (tx) => {
    const result = (await tx.execute(sql`
      UPDATE certificates SET expiring_notified_at = now()
      WHERE (tenant_id, id) IN (
        SELECT tenant_id, id FROM certificates
        WHERE status = 'valid' AND expires_at IS NOT NULL AND expiring_notified_at IS NULL
          AND expires_at <= now() + ${EXPIRING_DAYS}::int * interval '1 day'
        ORDER BY expires_at LIMIT ${BATCH}
        FOR UPDATE SKIP LOCKED)
      ${RETURNING}`)) as unknown as { rows: Row[] };
    const now = Date.now();
    await announce(
      tx,
      result.rows,
      (row) => ({
        ...about(row),
        expiresAt: row.expiresAt as string,
        daysLeft: Math.max(0, Math.floor((Date.parse(row.expiresAt as string) - now) / DAY_MS)),
      }),
      "certificate_expiring",
    );
    return result.rows.length;
  });
  return { expired, expiring };
}
