import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { platformEvents } from "../../db/schema/index.js";
import { useApi } from "../../test-support/api.js";
import { makeTenant } from "../../test-support/harness.js";
import { EVENT_SAMPLES } from "./catalogue.js";
import { emitEvent } from "./emit.js";
import { purgeExpired } from "./retention.js";

const { h } = useApi();

describe("the retention purge", () => {
  it("deletes events older than 30 days and keeps the rest", async () => {
    const t = await makeTenant(h);
    const data = { ...EVENT_SAMPLES.user_created, userId: t.adminUserId, role: "teacher" as const };
    const old = await emitEvent(h.database.db, {
      tenantId: t.id,
      type: "user_created",
      data,
      actor: { type: "system" },
    });
    const fresh = await emitEvent(h.database.db, {
      tenantId: t.id,
      type: "user_created",
      data,
      actor: { type: "system" },
    });
    await h.database.db
      .update(platformEvents)
      .set({ occurredAt: new Date(Date.now() - 31 * 86_400_000).toISOString() })
      .where(and(eq(platformEvents.tenantId, t.id), eq(platformEvents.id, old.id)));
    const purged = await purgeExpired(h.database.db);
    expect(purged.events).toBeGreaterThanOrEqual(1);
    const left = await h.database.db.select().from(platformEvents).where(eq(platformEvents.tenantId, t.id));
    expect(left.map((e) => e.id)).toContain(fresh.id);
    expect(left.map((e) => e.id)).not.toContain(old.id);
  });
});
