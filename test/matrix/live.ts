import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { videoProviders } from "../../src/db/schema/index.js";
import type { Harness, TestTenant } from "../../src/test-support/harness.js";
import type { Fixtures } from "./fixture.js";

/** Video providers, calendar and live classes. */
const provider = async (h: Harness, t: TestTenant) => {
  const id = randomUUID();
  await h.database.db.insert(videoProviders).values({
    tenantId: t.id,
    id,
    provider: "jitsi",
    purpose: "live",
    name: "Fixture Jitsi",
  });
  return id;
};

const providerRow = async (h: Harness, t: TestTenant, id: string | Record<string, string>) =>
  (
    await h.database.db
      .select()
      .from(videoProviders)
      .where(and(eq(videoProviders.tenantId, t.id), eq(videoProviders.id, id as string)))
  )[0];

const providerObject = { makeObject: provider, snapshot: providerRow };

export const fixtures: Fixtures = {
  "GET /api/institution/video-providers": {},
  // No credentials: a key with `settings:write` may create a Jitsi connection (credentials need a session).
  "POST /api/institution/video-providers": { body: { provider: "jitsi", purpose: "live", name: "Matrix" } },
  "GET /api/institution/video-providers/:id": providerObject,
  "PATCH /api/institution/video-providers/:id": { body: { name: "Renamed" }, ...providerObject },
  "DELETE /api/institution/video-providers/:id": providerObject,
  "POST /api/institution/video-providers/:id/test": providerObject,
};
