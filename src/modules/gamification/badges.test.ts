import { createHash, randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { fieldsOf, MANY_STUDENTS, useApi } from "../../test-support/api.js";
import { enrollDirectly, makeCourse } from "../../test-support/catalogue.js";
import { readyImage } from "../../test-support/gamification.js";
import { makeKey, roleCookie, type TestTenant } from "../../test-support/harness.js";
import { ob3Verifier } from "../../test-support/ob3-verifier.js";
import { createUser } from "../users/service.js";

const { h, tenants, call } = useApi({ tenants: 2, env: MANY_STUDENTS });
const [a, b] = tenants;
let keyA: string;
let keyB: string;

beforeAll(async () => {
  const scopes = ["gamification:read", "gamification:write", "courses:write", "enrollments:write"];
  keyA = await makeKey(h, a, scopes);
  keyB = await makeKey(h, b, scopes);
});

async function student(t: TestTenant, name = "Aluna") {
  const email = `${randomUUID()}@${t.slug}.test`;
  return createUser(
    h.database.db,
    h.config.plans,
    t.id,
    { kind: "system" },
    { name, email, role: "student" },
  );
}

async function badge(t: TestTenant, key: string, extra: Record<string, unknown> = {}) {
  const res = await call(t, key, "POST", "/gamification/badges", {
    name: "Primeiros passos",
    description: "Completed the first lesson.",
    imageMediaId: await readyImage(h.database.db, t.id),
    criteriaNarrative: "Complete any lesson.",
    tags: ["start"],
    alignment: [{ name: "BNCC EF01", url: "https://example.org/bncc/ef01" }],
    ...extra,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

/** A public URL of the app, read on the tenant's host without credentials. */
const publicJson = (t: TestTenant) => async (url: string) => {
  const res = await h.inject({ method: "GET", url: new URL(url).pathname, headers: { host: t.host } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Record<string, unknown>;
};

describe("badges", () => {
  it("are created, listed, read and changed; the image must be a ready image of the institution", async () => {
    const made = await badge(a, keyA, { expiresAfterDays: 365 });
    expect(made).toMatchObject({ status: "active", awardedCount: 0, awardRule: { type: "manual" } });
    const noImage = await call(a, keyA, "POST", "/gamification/badges", {
      name: "x",
      description: "x",
      imageMediaId: await readyImage(h.database.db, b.id),
      criteriaNarrative: "x",
    });
    expect(fieldsOf(noImage)).toEqual(["imageMediaId"]);
    const badRule = await call(a, keyA, "POST", "/gamification/badges", {
      name: "x",
      description: "x",
      imageMediaId: await readyImage(h.database.db, a.id),
      criteriaNarrative: "x",
      awardRule: { type: "course_completion", courseId: randomUUID() },
    });
    expect(fieldsOf(badRule)).toEqual(["awardRule.courseId"]);
    const list = await call(a, keyA, "GET", "/gamification/badges?perPage=100");
    expect(list.json().data.map((x: { id: string }) => x.id)).toContain(made.id);
    const patched = await call(a, keyA, "PATCH", `/gamification/badges/${made.id}`, {
      name: "Renamed",
      tags: ['a"b', "c,d"],
    });
    expect(patched.json()).toMatchObject({ name: "Renamed", tags: ['a"b', "c,d"] });
    expect((await call(a, keyA, "GET", `/gamification/badges/${made.id}`)).json().name).toBe("Renamed");
    // Another institution's key sees none of it.
    expect((await call(b, keyB, "GET", `/gamification/badges/${made.id}`)).statusCode).toBe(404);
    expect((await call(b, keyB, "PATCH", `/gamification/badges/${made.id}`, { name: "x" })).statusCode).toBe(
      404,
    );
    expect((await call(b, keyB, "GET", "/gamification/badges")).json().data).toEqual([]);
    // A student's session may read badges, not write them.
    const learner = await roleCookie(h, a, "student");
    expect((await call(a, learner, "GET", "/gamification/badges")).statusCode).toBe(200);
    expect(
      (await call(a, learner, "PATCH", `/gamification/badges/${made.id}`, { name: "x" })).statusCode,
    ).toBe(403);
    // The totals are counters kept by triggers (migration 0064): a status change moves the badge between buckets.
    const totals = async () =>
      Promise.all(
        ["", "?status=active", "?status=archived"].map(
          async (q) => (await call(a, keyA, "GET", `/gamification/badges${q}`)).json().pagination.total,
        ),
      );
    const [all, active, archived] = await totals();
    expect(all).toBe(active + archived);
    await call(a, keyA, "PATCH", `/gamification/badges/${made.id}`, { status: "archived" });
    expect(await totals()).toEqual([all, active - 1, archived + 1]);
  });

  it("are awarded by hand once per holder, revoked with a reason, and re-awardable after", async () => {
    const made = await badge(a, keyA);
    const [s1, s2] = [await student(a), await student(a)];
    const first = await call(a, keyA, "POST", `/gamification/badges/${made.id}/awards`, {
      userIds: [s1.id, s2.id],
      evidence: [{ narrative: "Helped a classmate." }],
    });
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json().awarded).toHaveLength(2);
    expect(first.json().awarded[0]).toMatchObject({ awardedBy: "api", revoked: false });
    const again = await call(a, keyA, "POST", `/gamification/badges/${made.id}/awards`, { userIds: [s1.id] });
    expect(again.json()).toEqual({ awarded: [], alreadyHeld: [s1.id] });
    const other = await student(b);
    const cross = await call(a, keyA, "POST", `/gamification/badges/${made.id}/awards`, {
      userIds: [other.id],
    });
    expect(fieldsOf(cross)).toEqual(["userIds.0"]);
    expect(
      (await call(b, keyB, "POST", `/gamification/badges/${made.id}/awards`, { userIds: [other.id] }))
        .statusCode,
    ).toBe(404);
    const awardId = first.json().awarded[0].id;
    expect(
      (await call(b, keyB, "DELETE", `/gamification/awards/${awardId}`, { reason: "x" })).statusCode,
    ).toBe(404);
    expect(
      (await call(a, keyA, "DELETE", `/gamification/awards/${awardId}`, { reason: "Mistake" })).statusCode,
    ).toBe(204);
    expect(
      (await call(a, keyA, "DELETE", `/gamification/awards/${awardId}`, { reason: "Mistake" })).statusCode,
    ).toBe(409);
    expect((await call(a, keyA, "GET", `/gamification/badges/${made.id}`)).json().awardedCount).toBe(1);
    const revoked = await h.database.db.execute(sql`SELECT type, data FROM platform_events
      WHERE tenant_id = ${a.id} AND type = 'badge_revoked' AND data->>'awardId' = ${awardId}`);
    expect((revoked as unknown as { rows: unknown[] }).rows).toHaveLength(1);
    const summary = (
      await call(a, keyA, "GET", `/gamification/users/${first.json().awarded[0].userId}`)
    ).json();
    expect(summary.badges).toEqual([]);
    const reawarded = await call(a, keyA, "POST", `/gamification/badges/${made.id}/awards`, {
      userIds: [summary.userId],
    });
    expect(reawarded.json().awarded).toHaveLength(1);
    await call(a, keyA, "PATCH", `/gamification/badges/${made.id}`, { status: "archived" });
    expect(
      (await call(a, keyA, "POST", `/gamification/badges/${made.id}/awards`, { userIds: [s1.id] }))
        .statusCode,
    ).toBe(409);
  });

  it("are awarded by their rules in the transaction of the event: course completion and points threshold", async () => {
    await call(a, keyA, "PATCH", "/gamification/settings", {
      enabled: true,
      pointRules: [{ event: "lesson_completed", points: 25 }],
    });
    const { courseId, lessonIds } = await makeCourse(h.database.db, a.id, [{ lessons: [{}, {}] }]);
    const finisher = await badge(a, keyA, { awardRule: { type: "course_completion", courseId } });
    const fifty = await badge(a, keyA, { awardRule: { type: "points_threshold", threshold: 50 } });
    const s = await student(a);
    await enrollDirectly(h.database.db, a.id, s.id, courseId);
    await call(a, keyA, "PUT", `/lessons/${lessonIds[0]}/completions/${s.id}`, {});
    expect((await call(a, keyA, "GET", `/gamification/users/${s.id}`)).json().badges).toEqual([]);
    await call(a, keyA, "PUT", `/lessons/${lessonIds[1]}/completions/${s.id}`, {});
    const held = (await call(a, keyA, "GET", `/gamification/users/${s.id}`)).json();
    expect(held.points).toBe(50);
    expect(held.badges.map((x: { badgeId: string }) => x.badgeId).sort()).toEqual(
      [finisher.id, fifty.id].sort(),
    );
    expect(held.badges.every((x: { awardedBy: string }) => x.awardedBy === "rule")).toBe(true);
  });
});

describe("Open Badges 3.0 credentials", () => {
  it("verify with an independent verifier, fail when tampered with, and show revocation in their status", async () => {
    const made = await badge(a, keyA, { criteriaUrl: "https://example.org/criteria" });
    const s = await student(a, "Bea");
    const res = await call(a, keyA, "POST", `/gamification/badges/${made.id}/awards`, { userIds: [s.id] });
    const award = res.json().awarded[0];
    expect(award.credentialUrl).toBe(`http://${a.host}/api/gamification/credentials/${award.id}`);
    const fetchJson = publicJson(a);
    const credential = await fetchJson(award.credentialUrl);
    expect(credential.type).toEqual(["VerifiableCredential", "OpenBadgeCredential"]);
    expect(credential).toMatchObject({
      issuer: { type: ["Profile"], name: expect.any(String), id: expect.stringMatching(/^did:key:z6Mk/) },
      credentialSubject: {
        achievement: { name: "Primeiros passos", criteria: { id: "https://example.org/criteria" } },
      },
    });
    // The recipient is a salted hash of the e-mail, never the address.
    const identity = (
      credential.credentialSubject as { identifier: { identityHash: string; salt: string }[] }
    ).identifier[0] as { identityHash: string; salt: string };
    const hash = createHash("sha256").update(`${s.email.toLowerCase()}${identity.salt}`).digest("hex");
    expect(identity.identityHash).toBe(`sha256$${hash}`);
    expect(JSON.stringify(credential)).not.toContain(s.email);
    const verify = ob3Verifier(fetchJson);
    const ok = await verify(credential);
    expect(ok.verified, JSON.stringify(ok.error)).toBe(true);
    // The same document each time (deterministic signature over the award as awarded), even after a rename.
    await call(a, keyA, "PATCH", `/gamification/badges/${made.id}`, { name: "Renamed" });
    expect(await fetchJson(award.credentialUrl)).toEqual(credential);
    const tampered = structuredClone(credential) as { credentialSubject: { achievement: { name: string } } };
    tampered.credentialSubject.achievement.name = "Mestre";
    expect((await verify(tampered)).verified).toBe(false);
    await call(a, keyA, "DELETE", `/gamification/awards/${award.id}`, { reason: "Wrong student" });
    const after = await verify(await fetchJson(award.credentialUrl));
    expect(after.verified).toBe(false);
    // The signature still holds; the status list says revoked.
    expect(after.results?.[0]?.verified).toBe(true);
    expect(after.statusResult).toMatchObject({ verified: false });
    expect(String((after.statusResult as { error: Error }).error.message)).toBe("revoked");
    // OB 2.0 hosted assertion: revoked with its reason.
    const assertion = await fetchJson(award.assertionUrl);
    expect(assertion).toMatchObject({ type: "Assertion", revoked: true, revocationReason: "Wrong student" });
  });

  it("are public on their own institution's host only; the issuer key is sealed at rest", async () => {
    const made = await badge(a, keyA);
    const s = await student(a);
    const award = (
      await call(a, keyA, "POST", `/gamification/badges/${made.id}/awards`, { userIds: [s.id] })
    ).json().awarded[0];
    const path = `/api/gamification/credentials/${award.id}`;
    expect((await h.inject({ method: "GET", url: path, headers: { host: b.host } })).statusCode).toBe(404);
    expect(
      (
        await h.inject({
          method: "GET",
          url: `/api/gamification/credentials/${randomUUID()}`,
          headers: { host: a.host },
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (
        await h.inject({
          method: "GET",
          url: `/api/gamification/assertions/${award.id}`,
          headers: { host: b.host },
        })
      ).statusCode,
    ).toBe(404);
    const ok = await h.inject({
      method: "GET",
      url: `/api/gamification/assertions/${award.id}`,
      headers: { host: a.host },
    });
    expect(ok.json()).toMatchObject({ type: "Assertion", verification: { type: "hosted" } });
    const keys = (await h.database.db.execute(sql`SELECT issuer_key FROM gamification_settings
      WHERE tenant_id = ${a.id}`)) as unknown as { rows: { issuer_key: string }[] };
    expect(keys.rows[0]?.issuer_key).toMatch(/^v1:/);
  });
});
