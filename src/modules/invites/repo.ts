import { and, asc, desc, eq, inArray, type SQL, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import { type Bindable, runPageQuery } from "../../db/page-query.js";
import { classGroups, courses, invites, passwordCredentials, users } from "../../db/schema/index.js";
import type { PageWindow } from "../../platform/pagination/pagination.js";
import { INVITE_STATUSES, type InviteRecord, type InviteSort, type InviteStatus } from "./schemas.js";

/** A pending invitation past its expiry reads as expired; no job has to rewrite the row for that to be true. */
const statusOf = sql<InviteStatus>`CASE WHEN ${invites.status} = 'pending' AND ${invites.expiresAt} <= now()
  THEN 'expired' ELSE ${invites.status} END`;

const columns = {
  id: invites.id,
  email: invites.email,
  name: invites.name,
  role: invites.role,
  courseIds: invites.courseIds,
  classGroupIds: invites.classGroupIds,
  message: invites.message,
  status: statusOf,
  expiresAt: invites.expiresAt,
  sentAt: invites.sentAt,
  acceptedAt: invites.acceptedAt,
  acceptedUserId: invites.acceptedUserId,
  createdAt: invites.createdAt,
  updatedAt: invites.updatedAt,
};

export const ORDER: Record<InviteSort, SQL[]> = {
  "-createdAt": [desc(invites.createdAt), desc(invites.id)],
  createdAt: [asc(invites.createdAt), asc(invites.id)],
  "-expiresAt": [desc(invites.expiresAt), desc(invites.id)],
  expiresAt: [asc(invites.expiresAt), asc(invites.id)],
  "-email": [sql`lower(${invites.email}) DESC`, desc(invites.id)],
  email: [sql`lower(${invites.email}) ASC`, asc(invites.id)],
};

const sortTag = (sort: InviteSort) => (sort.startsWith("-") ? `${sort.slice(1)}_desc` : `${sort}_asc`);

export interface InviteFilter {
  status?: InviteStatus;
  email?: string;
}

/**
 * Each status as a predicate on the stored columns, so an index answers it: only a pending invitation's status
 * depends on the clock, and the hourly expiry pass stores `expired`, so few stored `pending` rows have lapsed.
 */
const STATUS_WHERE: Record<InviteStatus, SQL> = {
  pending: sql`${invites.status} = 'pending' AND ${invites.expiresAt} > now()`,
  expired: sql`(${invites.status} = 'expired' OR (${invites.status} = 'pending' AND ${invites.expiresAt} <= now()))`,
  accepted: sql`${invites.status} = 'accepted'`,
  revoked: sql`${invites.status} = 'revoked'`,
};

/** Each status is a filter of its own (its statement holds the status's predicate), bound by its own name. */
export function where(
  tenantId: Bindable,
  filter: { email?: Bindable; [status: string]: Bindable | undefined },
): SQL {
  const status = INVITE_STATUSES.find((s) => filter[s] !== undefined);
  return and(
    eq(invites.tenantId, tenantId),
    status === undefined ? undefined : STATUS_WHERE[status],
    filter.email === undefined ? undefined : sql`lower(${invites.email}) = lower(${filter.email})`,
  ) as SQL;
}

export function bindings(filter: InviteFilter): Record<string, string | undefined> {
  return { email: filter.email, ...(filter.status === undefined ? {} : { [filter.status]: filter.status }) };
}

export async function listInvites(
  db: Executor,
  tenantId: string,
  filter: InviteFilter,
  sort: InviteSort,
  window: PageWindow,
): Promise<InviteRecord[]> {
  const rows = await runPageQuery(
    db,
    `invites_${sortTag(sort)}`,
    tenantId,
    bindings(filter),
    window,
    (p, name) =>
      db
        .select(columns)
        .from(invites)
        .where(where(p.tenantId, p))
        .orderBy(...ORDER[sort])
        .limit(p.limit)
        .offset(p.offset)
        .prepare(name),
  );
  return rows as InviteRecord[];
}

export async function findInvite(
  db: Executor,
  tenantId: string,
  id: string,
  lock = false,
): Promise<InviteRecord | undefined> {
  const query = db
    .select(columns)
    .from(invites)
    .where(and(eq(invites.tenantId, tenantId), eq(invites.id, id)));
  const rows = lock ? await query.for("update") : await query;
  return rows[0] as InviteRecord | undefined;
}

/** Only this tenant's invitations: a token of another institution is unknown here. */
export async function findByTokenHash(
  db: Executor,
  tenantId: string,
  tokenHash: string,
  lock = false,
): Promise<InviteRecord | undefined> {
  const query = db
    .select(columns)
    .from(invites)
    .where(and(eq(invites.tenantId, tenantId), eq(invites.tokenHash, tokenHash)));
  const rows = lock ? await query.for("update") : await query;
  return rows[0] as InviteRecord | undefined;
}

/**
 * Serialises invitations to one address within the tenant until the transaction ends, so two concurrent requests
 * cannot both see "no pending invitation" and both create one. No table row exists to lock yet, hence the
 * transaction-scoped advisory lock.
 */
export async function lockAddress(db: Executor, tenantId: string, email: string): Promise<void> {
  await db.execute(
    sql`SELECT pg_advisory_xact_lock(hashtextextended(${`invite:${tenantId}:${email.toLowerCase()}`}, 0))`,
  );
}

export async function hasLivePendingInvite(
  db: Executor,
  tenantId: string,
  email: string,
  exceptId?: string,
): Promise<boolean> {
  const rows = await db
    .select({ id: invites.id })
    .from(invites)
    .where(
      and(
        eq(invites.tenantId, tenantId),
        sql`lower(${invites.email}) = lower(${email})`,
        eq(invites.status, "pending"),
        sql`${invites.expiresAt} > now()`,
        exceptId === undefined ? undefined : sql`${invites.id} <> ${exceptId}`,
      ),
    )
    .limit(1);
  return rows.length > 0;
}

/** The account that already uses an address, if any: an `invited` one is waiting for exactly this invitation. */
export async function accountOf(
  db: Executor,
  tenantId: string,
  email: string,
): Promise<{ id: string; status: string; role: string } | undefined> {
  const rows = await db
    .select({ id: users.id, status: users.status, role: users.role })
    .from(users)
    .where(and(eq(users.tenantId, tenantId), sql`lower(${users.email}) = lower(${email})`))
    .limit(1);
  return rows[0];
}

export interface NewInvite {
  email: string;
  name: string | null;
  /** The invitation mail's language; null: the institution's. */
  locale: string | null;
  role: string;
  courseIds: string[];
  classGroupIds: string[];
  message: string | null;
  tokenHash: string;
  expiresAt: string;
  invitedBy: { type: string; id: string } | null;
}

export async function insertInvite(db: Executor, tenantId: string, invite: NewInvite): Promise<string> {
  const rows = await db
    .insert(invites)
    .values({ tenantId, ...invite, status: "pending", sentAt: sql`now()` })
    .returning({ id: invites.id });
  return (rows[0] as { id: string }).id;
}

/** A new token and expiry, pending again; the old token stops working at once (only one hash is kept). */
export async function reissue(
  db: Executor,
  tenantId: string,
  id: string,
  tokenHash: string,
  expiresAt: string,
): Promise<void> {
  await db
    .update(invites)
    .set({ tokenHash, expiresAt, status: "pending", sentAt: sql`now()`, updatedAt: sql`now()` })
    .where(and(eq(invites.tenantId, tenantId), eq(invites.id, id)));
}

export async function setStatus(
  db: Executor,
  tenantId: string,
  id: string,
  next: "revoked" | "accepted",
  acceptedUserId?: string,
): Promise<void> {
  await db
    .update(invites)
    .set({
      status: next,
      updatedAt: sql`now()`,
      ...(next === "accepted" ? { acceptedAt: sql`now()`, acceptedUserId } : {}),
    })
    .where(and(eq(invites.tenantId, tenantId), eq(invites.id, id)));
}

/** The new user's password, hashed by the caller (outside the transaction: scrypt is slow on purpose). */
export async function insertPasswordHash(
  db: Executor,
  tenantId: string,
  userId: string,
  passwordHash: string,
): Promise<void> {
  await db.insert(passwordCredentials).values({ tenantId, userId, passwordHash });
}

async function missing(
  db: Executor,
  table: typeof courses | typeof classGroups,
  tenantId: string,
  ids: readonly string[],
): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select({ id: table.id })
    .from(table)
    .where(and(eq(table.tenantId, tenantId), inArray(table.id, [...ids])));
  const found = new Set(rows.map((r) => r.id));
  return ids.filter((id) => !found.has(id));
}

export const missingCourses = (db: Executor, tenantId: string, ids: readonly string[]) =>
  missing(db, courses, tenantId, ids);
export const missingClassGroups = (db: Executor, tenantId: string, ids: readonly string[]) =>
  missing(db, classGroups, tenantId, ids);

/** The language an invitation's mail is written in (null: the institution's default). */
export async function localeOf(db: Executor, tenantId: string, id: string): Promise<string | null> {
  const rows = await db
    .select({ locale: invites.locale })
    .from(invites)
    .where(and(eq(invites.tenantId, tenantId), eq(invites.id, id)));
  return rows[0]?.locale ?? null;
}
