import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { courses, idempotencyKeys } from "../../db/schema/index.js";
import {
  bearer,
  type Harness,
  json,
  makeKey,
  makeTenant,
  startHarness,
  type TestTenant,
} from "../../test-support/harness.js";
import { purgeIdempotencyKeys } from "./idempotency.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

async function tenantWithKey() {
  const t = await makeTenant(h);
  return { t, key: await makeKey(h, t, []) };
}

function create(a: { t: TestTenant; key: string }, body: Record<string, unknown>, idempotencyKey?: string) {
  return h.inject({
    method: "POST",
    url: "/api/institution/courses",
    headers: {
      host: a.t.host,
      ...bearer(a.key),
      ...json,
      "accept-language": "en-US",
      ...(idempotencyKey === undefined ? {} : { "idempotency-key": idempotencyKey }),
    },
    payload: body,
  });
}

async function courseCount(t: TestTenant) {
  return (await h.database.db.select().from(courses).where(eq(courses.tenantId, t.id))).length;
}

describe("Idempotency-Key on POST", () => {
  it("replays the first response for the same request, and creates once", async () => {
    const a = await tenantWithKey();
    const first = await create(a, { title: "Algebra", description: "x" }, "k-1");
    const again = await create(a, { description: "x", title: "Algebra" }, "k-1");
    expect(first.statusCode).toBe(201);
    expect(again.statusCode).toBe(201);
    expect(again.body).toBe(first.body);
    expect(again.headers["idempotent-replayed"]).toBe("true");
    expect(first.headers["idempotent-replayed"]).toBeUndefined();
    expect(again.headers["content-type"]).toMatch(/application\/json/);
    expect(await courseCount(a.t)).toBe(1);
  });

  it("answers 409 conflict to the same key with a different request, changing nothing", async () => {
    const a = await tenantWithKey();
    await create(a, { title: "One" }, "k-2");
    const other = await create(a, { title: "Two" }, "k-2");
    expect(other.statusCode).toBe(409);
    expect(other.json()).toEqual({
      error: "conflict",
      message: expect.stringContaining("different request"),
    });
    expect(await courseCount(a.t)).toBe(1);
  });

  it("keeps keys per tenant, and runs requests without a key as usual", async () => {
    const a = await tenantWithKey();
    const b = await tenantWithKey();
    expect((await create(a, { title: "A" }, "shared")).statusCode).toBe(201);
    expect((await create(b, { title: "B" }, "shared")).statusCode).toBe(201);
    expect(await courseCount(b.t)).toBe(1);
    await create(a, { title: "A" });
    await create(a, { title: "A" });
    expect(await courseCount(a.t)).toBe(3);
  });

  it("lets concurrent copies create once: the others replay or are told it is in progress", async () => {
    const a = await tenantWithKey();
    const results = await Promise.all(
      Array.from({ length: 6 }, () => create(a, { title: "Race" }, "k-race")),
    );
    const statuses = results.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 201).length).toBeGreaterThanOrEqual(1);
    for (const s of statuses) expect([201, 409]).toContain(s);
    expect(await courseCount(a.t)).toBe(1);
    const created = results.filter((r) => r.statusCode === 201).map((r) => r.json().id);
    expect(new Set(created).size).toBe(1);
  });

  it("claims nothing for a refused or invalid request, and frees the key after 24 hours", async () => {
    const a = await tenantWithKey();
    const invalid = await create(a, { title: "" }, "k-3");
    expect(invalid.statusCode).toBe(400);
    expect((await create(a, { title: "Valid" }, "k-3")).statusCode).toBe(201);
    await h.database.db
      .update(idempotencyKeys)
      .set({ createdAt: new Date(Date.now() - 25 * 3_600_000).toISOString() })
      .where(and(eq(idempotencyKeys.tenantId, a.t.id), eq(idempotencyKeys.key, "k-3")));
    expect((await create(a, { title: "Other" }, "k-3")).statusCode).toBe(201);
    expect(await courseCount(a.t)).toBe(2);
    const tooLong = await create(a, { title: "x" }, "k".repeat(256));
    expect(tooLong.statusCode).toBe(400);
  });

  it("purges keys older than 24 hours", async () => {
    const a = await tenantWithKey();
    await create(a, { title: "Old" }, "k-old");
    await create(a, { title: "New" }, "k-new");
    await h.database.db
      .update(idempotencyKeys)
      .set({ createdAt: new Date(Date.now() - 25 * 3_600_000).toISOString() })
      .where(and(eq(idempotencyKeys.tenantId, a.t.id), eq(idempotencyKeys.key, "k-old")));
    expect(await purgeIdempotencyKeys(h.database.db)).toBeGreaterThanOrEqual(1);
    const left = await h.database.db
      .select()
      .from(idempotencyKeys)
      .where(eq(idempotencyKeys.tenantId, a.t.id));
    expect(left.map((k) => k.key)).toEqual(["k-new"]);
  });
});
