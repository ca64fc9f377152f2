/** The invitations list's totals: counters for every status, corrected for the clock where it matters. */
import { and, asc, eq, lte, type SQL, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import { readCounter } from "../../db/counters.js";
import { invites } from "../../db/schema/index.js";
import {
  type CappedTotal,
  countCapped,
  counterAndCapped,
  exactTotal,
} from "../../platform/pagination/capped.js";
import { bindings, type InviteFilter, ORDER, where } from "./repo.js";

/**
 * The counters know stored statuses: they answer the unfiltered total and the final states (accepted, revoked)
 * exactly. Pending and expired depend on the clock, and the hourly expiry pass stores `expired`, so each is its
 * stored counter corrected by the pending invitations that have lapsed since the last pass (`lapsedTotal`). An
 * e-mail, or more lapsed invitations than the cap, count their own matches up to the cap (`countCapped`).
 */
export async function countInvites(
  db: Executor,
  tenantId: string,
  filter: InviteFilter,
): Promise<CappedTotal> {
  if (filter.email === undefined) {
    if (filter.status === undefined) return exactTotal(await readCounter(db, tenantId, "invites"));
    if (filter.status === "accepted" || filter.status === "revoked") {
      return exactTotal(await readCounter(db, tenantId, `invites:status:${filter.status}`));
    }
    const corrected = await lapsedTotal(db, tenantId, filter.status);
    if (corrected !== undefined) return exactTotal(corrected);
  }
  return countCapped(db, invites, where(tenantId, bindings(filter)), ORDER["-createdAt"]);
}

/**
 * The stored counter of `pending` or `expired`, moved by the stored-pending invitations past their expiry, read in
 * one statement (one snapshot). Those are what lapsed since the expiry pass, found in order on
 * invites_tenant_status_expires_idx; undefined when more than the cap have (a mass expiry not yet stored).
 */
async function lapsedTotal(
  db: Executor,
  tenantId: string,
  status: "pending" | "expired",
): Promise<number | undefined> {
  const lapsed = and(
    eq(invites.tenantId, tenantId),
    eq(invites.status, "pending"),
    lte(invites.expiresAt, sql`now()`),
  ) as SQL;
  const { stored, counted } = await counterAndCapped(
    db,
    tenantId,
    `invites:status:${status}`,
    invites,
    lapsed,
    [asc(invites.expiresAt)],
  );
  if (counted === undefined) return undefined;
  return status === "pending" ? stored - counted : stored + counted;
}
