import { createHash } from "node:crypto";
import { and, eq, gt, lte, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { idempotencyKeys } from "../../db/schema/index.js";
import type { AppContext } from "../context.js";
import { AppError } from "../errors/app-error.js";

const WINDOW = sql`now() - interval '24 hours'`;
const MAX_KEY_LENGTH = 255;

/** JSON with keys sorted at every level, so `{a, b}` and `{b, a}` are the same request. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/**
 * `Idempotency-Key` on every authenticated POST, per tenant, for 24 hours (Stripe's model): the first request
 * with a key runs and its response is kept; the same key with the same request replays that response
 * (`Idempotent-Replayed: true`); with another request, or while the first is still running, it is 409 `conflict`.
 * Runs after authentication and validation, so a refused or malformed request claims nothing. A 5xx releases the
 * key, so the client's retry runs again.
 */
export function registerIdempotency(app: FastifyInstance, ctx: AppContext): void {
  const db = ctx.database.db;
  app.decorateRequest("idempotencyKey", null);

  app.addHook("preHandler", async (request, reply) => {
    if (request.method !== "POST" || request.routeOptions.config.access?.kind !== "authenticated") return;
    const key = request.headers["idempotency-key"];
    if (key === undefined || request.tenant === null) return;
    if (typeof key !== "string" || key === "" || key.length > MAX_KEY_LENGTH) {
      throw new AppError("validation_failed", {
        details: [{ field: "Idempotency-Key", key: "field.max_length", params: { limit: MAX_KEY_LENGTH } }],
      });
    }
    const tenantId = request.tenant.id;
    const requestHash = createHash("sha256")
      .update(`${request.method} ${request.url}\n${canonical(request.body ?? null)}`)
      .digest("hex");
    const where = and(eq(idempotencyKeys.tenantId, tenantId), eq(idempotencyKeys.key, key));
    // A key older than the window is free again.
    await db.delete(idempotencyKeys).where(and(where, lte(idempotencyKeys.createdAt, WINDOW)));
    const claimed = await db
      .insert(idempotencyKeys)
      .values({ tenantId, key, requestHash })
      .onConflictDoNothing()
      .returning({ key: idempotencyKeys.key });
    if (claimed.length > 0) {
      request.idempotencyKey = { tenantId, key };
      return;
    }
    const [first] = await db
      .select()
      .from(idempotencyKeys)
      .where(and(where, gt(idempotencyKeys.createdAt, WINDOW)));
    if (first === undefined || first.requestHash !== requestHash) {
      throw new AppError("conflict", { messageKey: "conflict.idempotency_mismatch" });
    }
    if (first.statusCode === null || first.responseBody === null) {
      throw new AppError("conflict", { messageKey: "conflict.idempotency_in_progress" });
    }
    reply.header("idempotent-replayed", "true");
    if (first.contentType !== null) reply.header("content-type", first.contentType);
    return reply.code(first.statusCode).send(first.responseBody);
  });

  app.addHook("onSend", async (request, reply, payload) => {
    const held = request.idempotencyKey;
    if (held === null) return payload;
    request.idempotencyKey = null;
    const where = and(eq(idempotencyKeys.tenantId, held.tenantId), eq(idempotencyKeys.key, held.key));
    if (reply.statusCode >= 500 || typeof payload !== "string") {
      await db.delete(idempotencyKeys).where(where);
      return payload;
    }
    const contentType = reply.getHeader("content-type");
    await db
      .update(idempotencyKeys)
      .set({
        statusCode: reply.statusCode,
        responseBody: payload,
        contentType: typeof contentType === "string" ? contentType : null,
      })
      .where(where);
    return payload;
  });
}

/** Deletes keys past their 24 hours (a key is also freed on its next use); the worker runs it hourly. */
export async function purgeIdempotencyKeys(db: AppContext["database"]["db"]): Promise<number> {
  const rows = await db
    .delete(idempotencyKeys)
    .where(lte(idempotencyKeys.createdAt, WINDOW))
    .returning({ key: idempotencyKeys.key });
  return rows.length;
}
