/**
 * `security.sessionTimeoutMinutes` is an idle timeout: every rotation of the session's cookies is activity, the
 * new refresh token lives for the timeout (the access token never longer), and a refresh token left unused for
 * the timeout is refused and ends its session, including sessions signed in before the setting changed.
 */
import { and, eq } from "drizzle-orm";
import type { LightMyRequestResponse } from "fastify";
import { decodeJwt } from "jose";
import { describe, expect, it } from "vitest";
import { refreshTokens } from "../../db/schema/index.js";
import { useApi } from "../../test-support/api.js";
import { json, makeTenant, type TestTenant } from "../../test-support/harness.js";
import { updateSettings } from "./service.js";

const { h } = useApi();

const setTimeoutMinutes = (t: TestTenant, minutes: number | null) =>
  updateSettings(h.database.db, t.id, { kind: "system" }, { security: { sessionTimeoutMinutes: minutes } });

function cookie(res: LightMyRequestResponse, name: string) {
  const found = res.cookies.find((c) => c.name === name);
  if (found === undefined) throw new Error(`no ${name} cookie`);
  return found;
}

async function signIn(t: TestTenant) {
  const res = await h.inject({
    method: "POST",
    url: "/api/auth/login",
    headers: { host: t.host, ...json },
    payload: { email: t.adminEmail, password: t.password },
  });
  expect(res.statusCode).toBe(200);
  return res;
}

const refresh = (t: TestTenant, token: string) =>
  h.inject({
    method: "POST",
    url: "/api/auth/refresh",
    headers: { host: t.host, cookie: `sb-refresh-token=${token}` },
  });

const listCourses = (t: TestTenant, access: string) =>
  h.inject({
    method: "GET",
    url: "/api/institution/courses",
    headers: { host: t.host, cookie: `sb-access-token=${access}` },
  });

/** Moves the session's last rotation back in time, as if its client had been idle for so many minutes. */
async function idle(t: TestTenant, minutes: number) {
  await h.database.db
    .update(refreshTokens)
    .set({ createdAt: new Date(Date.now() - minutes * 60_000).toISOString() })
    .where(and(eq(refreshTokens.tenantId, t.id)));
}

describe("security.sessionTimeoutMinutes", () => {
  it("unset, sessions last as configured and an idle hour changes nothing", async () => {
    const t = await makeTenant(h);
    const res = await signIn(t);
    expect(cookie(res, "sb-refresh-token").maxAge).toBe(h.config.auth.refreshTokenTtlSeconds);
    expect(cookie(res, "sb-access-token").maxAge).toBe(h.config.auth.accessTokenTtlSeconds);
    await idle(t, 60);
    expect((await refresh(t, cookie(res, "sb-refresh-token").value)).statusCode).toBe(200);
  });

  it("shortens what a sign-in and a refresh issue: the refresh token to the timeout, the access token never longer", async () => {
    const t = await makeTenant(h);
    await setTimeoutMinutes(t, 30);
    const res = await signIn(t);
    expect(cookie(res, "sb-refresh-token").maxAge).toBe(1800);
    expect(cookie(res, "sb-access-token").maxAge).toBe(Math.min(1800, h.config.auth.accessTokenTtlSeconds));
    const [row] = await h.database.db.select().from(refreshTokens).where(eq(refreshTokens.tenantId, t.id));
    const lifetime = Date.parse(row?.expiresAt as string) - Date.parse(row?.createdAt as string);
    expect(Math.abs(lifetime - 1800_000)).toBeLessThan(2000);

    await setTimeoutMinutes(t, 15);
    const next = await refresh(t, cookie(res, "sb-refresh-token").value);
    expect(next.statusCode).toBe(200);
    expect(cookie(next, "sb-refresh-token").maxAge).toBe(900);
    const claims = decodeJwt(cookie(next, "sb-access-token").value);
    expect((claims.exp as number) - (claims.iat as number)).toBeLessThanOrEqual(900);
  });

  it("a refresh after the timeout of inactivity is 401 and ends the session, signed in before the setting or not", async () => {
    const t = await makeTenant(h);
    const res = await signIn(t);
    const access = cookie(res, "sb-access-token").value;
    expect((await listCourses(t, access)).statusCode).toBe(200);
    // Signed in without a timeout (a 30-day refresh token); the administrator then sets 30 minutes.
    await setTimeoutMinutes(t, 30);
    await idle(t, 31);
    const refused = await refresh(t, cookie(res, "sb-refresh-token").value);
    expect(refused.statusCode).toBe(401);
    expect(refused.json().error).toBe("unauthorized");
    // The whole session ended: its still-unexpired access token no longer works.
    expect((await listCourses(t, access)).statusCode).toBe(401);
    const rows = await h.database.db.select().from(refreshTokens).where(eq(refreshTokens.tenantId, t.id));
    expect(rows.every((r) => r.revokedAt !== null)).toBe(true);
  });

  it("activity within the timeout keeps the session going", async () => {
    const t = await makeTenant(h);
    await setTimeoutMinutes(t, 30);
    const res = await signIn(t);
    await idle(t, 29);
    const next = await refresh(t, cookie(res, "sb-refresh-token").value);
    expect(next.statusCode).toBe(200);
    expect((await listCourses(t, cookie(next, "sb-access-token").value)).statusCode).toBe(200);
  });
});
