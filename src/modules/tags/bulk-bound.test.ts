/**
 * Issue 19, point 3: tagging 1,000 users at once (the limit) must not hold the event loop for the whole call:
 * the assignments, the users' read and the events go a chunk of ids at a time, the loop turning between them.
 */
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { useApi } from "../../test-support/api.js";
import { bearer, json, makeKey, makeTenant } from "../../test-support/harness.js";
import { measureLoopBlock } from "../../test-support/loop-block.js";

/** The longest silence allowed, as a share of the call (see users/bulk-bound.test.ts): the call itself before. */
const MAX_SHARE = 0.4;

const { h } = useApi();

describe("POST /tags/:id/resources at its limit", () => {
  it("tags 1,000 users without blocking the event loop for the whole batch", async () => {
    const t = await makeTenant(h);
    const headers = { host: t.host, ...json, ...bearer(await makeKey(h, t, ["tags:read", "tags:write"])) };
    const created = (await h.database.db.execute(sql`
      INSERT INTO users (tenant_id, name, email, role, status)
      SELECT ${t.id}, 'User ' || g, 'user' || g || '@x.test', 'teacher', 'active'
      FROM generate_series(1, 1000) g RETURNING id`)) as unknown as { rows: { id: string }[] };
    const tag = async (name: string) =>
      JSON.parse(
        (
          await h.inject({
            method: "POST",
            url: "/api/institution/tags",
            headers,
            payload: { name, appliesTo: ["user"] },
          })
        ).body,
      ).id as string;
    const [warm, main] = [await tag("warm"), await tag("main")];
    const attach = (tagId: string, ids: string[]) =>
      h.inject({
        method: "POST",
        url: `/api/institution/tags/${tagId}/resources`,
        headers,
        payload: { resourceType: "user", ids },
      });
    await attach(warm, [created.rows[0]?.id as string]);

    const ids = created.rows.map((r) => r.id);
    const { result: res, maxBlockMs, elapsedMs } = await measureLoopBlock(() => attach(main, ids));
    console.info(
      `tags 1,000 users: loop max ${maxBlockMs.toFixed(1)} ms, request ${elapsedMs.toFixed(0)} ms`,
    );

    expect(res.statusCode).toBe(200);
    expect(JSON.parse(res.body)).toMatchObject({ attached: 1000, alreadyAttached: 0, notFound: [] });
    const rows = (await h.database.db.execute(
      sql`SELECT count(*)::int AS n FROM platform_events WHERE tenant_id = ${t.id} AND type = 'user_tag_added'`,
    )) as unknown as { rows: { n: number }[] };
    expect(rows.rows[0]?.n).toBe(1001);
    expect(maxBlockMs).toBeLessThan(elapsedMs * MAX_SHARE);
  });
});
