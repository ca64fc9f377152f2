import { and, eq } from "drizzle-orm";
import { themes } from "../../src/db/schema/index.js";
import { createTheme } from "../../src/modules/themes/service.js";
import type { Harness, TestTenant } from "../../src/test-support/harness.js";
import type { Fixtures } from "./fixture.js";

const theme = async (h: Harness, t: TestTenant) =>
  (await createTheme(h.database.db, t.id, { name: "Matrix" })).id;

const themeRow = async (h: Harness, t: TestTenant, id: string | Record<string, string>) => {
  const [row] = await h.database.db
    .select()
    .from(themes)
    .where(and(eq(themes.tenantId, t.id), eq(themes.id, id as string)));
  return row;
};

export const fixtures: Fixtures = {
  "GET /api/institution/themes": {},
  "POST /api/institution/themes": { body: { name: "Matrix" } },
  "GET /api/institution/themes/:id": { makeObject: theme, snapshot: themeRow },
  "PATCH /api/institution/themes/:id": { makeObject: theme, snapshot: themeRow, body: { name: "Renamed" } },
  "DELETE /api/institution/themes/:id": { makeObject: theme, snapshot: themeRow },
  "POST /api/institution/themes/:id/activate": { makeObject: theme, snapshot: themeRow },
};
