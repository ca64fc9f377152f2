import { createHash } from "node:crypto";
import { and, eq, gt, lte, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { idempotencyKeys } from "../../db/schema/index.js";
import type { Principal } from "../auth/types.js";
import type { AppContext } from "../context.js";
import { createKeyring, openSecret, SecretBoxError, sealSecret } from "../crypto/secret-box.js";
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
 * Who a key belongs to: the API key, or the user of a session. A response is replayed only to the principal
 * whose request produced it, since it was produced under that principal's rights (an administrator's invite
 * token or signing secret must not reach a narrower key that guesses or reuses its `Idempotency-Key`).
 */
export function principalId(principal: Principal): string {
  return principal.kind === "key" ? `key:${principal.keyId}` : `user:${principal.userId}`;
}

/** Binds a sealed response to its row, so a sealed body copied into another principal's row does not open. */
const sealContext = (held: HeldKey) =>
  `idempotency:${JSON.stringify([held.tenantId, held.principal, held.key])}`;

type HeldKey = { tenantId: string; principal: string; key: string };

/**
 * `Idempotency-Key` on every authenticated POST, per tenant and principal, for 24 hours (Stripe's model): the
 * first request with a key runs and its response is kept; the same key with the same request replays that
 * response (`Idempotent-Replayed: true`); with another request, or while the first is still running, it is 409
 * `conflict`. Another principal's use of the same key is a claim of its own: it neither replays nor learns of the
 * first. Runs after authentication and validation, so a refused or malformed request claims nothing. A 5xx
 * releases the key, so the client's retry runs again. Responses carry secrets shown once (API keys, signing
 * secrets, inbound and invitation tokens), so they are stored sealed with the secrets key (`secret-box`).
 */
export function registerIdempotency(app: FastifyInstance, ctx: AppContext): void {
  const db = ctx.database.db;
  const { current, previous } = ctx.config.secrets.encryptionKeys;
  const keyring = createKeyring(current, previous);
  app.decorateRequest("idempotencyKey", null);
  /** Null when the body cannot be sealed (text that is not well-formed Unicode): the key is then freed. */
  const sealOrNull = (payload: string, held: HeldKey) => {
    try {
      return sealSecret(payload, keyring, sealContext(held));
    } catch {
      return null;
    }
  };

  const openOrUndefined = (sealed: string, held: HeldKey) => {
    try {
      return openSecret(sealed, keyring, sealContext(held));
    } catch (err) {
      if (err instanceof SecretBoxError) return undefined;
      throw err;
    }
  };

  app.addHook("preHandler", async (request, reply) => {
    if (request.method !== "POST" || request.routeOptions.config.access?.kind !== "authenticated") return;
    const key = request.headers["idempotency-key"];
    if (key === undefined || request.tenant === null || request.principal === null) return;
    if (typeof key !== "string" || key === "" || key.length > MAX_KEY_LENGTH) {
      throw new AppError("validation_failed", {
        details: [{ field: "Idempotency-Key", key: "field.max_length", params: { limit: MAX_KEY_LENGTH } }],
      });
    }
    const held: HeldKey = { tenantId: request.tenant.id, principal: principalId(request.principal), key };
    const requestHash = createHash("sha256")
      .update(`${request.method} ${request.url}\n${canonical(request.body ?? null)}`)
      .digest("hex");
    const where = heldBy(held);
    const claim = async () => {
      const claimed = await db
        .insert(idempotencyKeys)
        .values({ ...held, requestHash })
        .onConflictDoNothing()
        .returning({ key: idempotencyKeys.key });
      if (claimed.length > 0) request.idempotencyKey = held;
      return claimed.length > 0;
    };
    // A key older than the window is free again.
    await db.delete(idempotencyKeys).where(and(where, lte(idempotencyKeys.createdAt, WINDOW)));
    if (await claim()) return;
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
    const replay = openOrUndefined(first.responseBody, held);
    if (replay === undefined) {
      // Sealed under a key since retired from the keyring: the response is as lost as one past its window, so
      // the request runs again (once: a concurrent copy finds the new claim and gets 409, as usual).
      await db
        .delete(idempotencyKeys)
        .where(and(where, eq(idempotencyKeys.responseBody, first.responseBody)));
      if (await claim()) return;
      throw new AppError("conflict", { messageKey: "conflict.idempotency_in_progress" });
    }
    reply.header("idempotent-replayed", "true");
    if (first.contentType !== null) reply.header("content-type", first.contentType);
    return reply.code(first.statusCode).send(replay);
  });

  app.addHook("onSend", async (request, reply, payload) => {
    const held = request.idempotencyKey;
    if (held === null) return payload;
    request.idempotencyKey = null;
    const where = heldBy(held);
    const sealed = reply.statusCode < 500 && typeof payload === "string" ? sealOrNull(payload, held) : null;
    if (sealed === null) {
      await db.delete(idempotencyKeys).where(where);
      return payload;
    }
    const contentType = reply.getHeader("content-type");
    await db
      .update(idempotencyKeys)
      .set({
        statusCode: reply.statusCode,
        responseBody: sealed,
        contentType: typeof contentType === "string" ? contentType : null,
      })
      .where(where);
    return payload;
  });
}

function heldBy(held: HeldKey) {
  return and(
    eq(idempotencyKeys.tenantId, held.tenantId),
    eq(idempotencyKeys.principal, held.principal),
    eq(idempotencyKeys.key, held.key),
  );
}

/** Deletes keys past their 24 hours (a key is also freed on its next use); the worker runs it hourly. */
export async function purgeIdempotencyKeys(db: AppContext["database"]["db"]): Promise<number> {
  const rows = await db
    .delete(idempotencyKeys)
    .where(lte(idempotencyKeys.createdAt, WINDOW))
    .returning({ key: idempotencyKeys.key });
  return rows.length;
}
