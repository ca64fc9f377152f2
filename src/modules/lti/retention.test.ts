import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { queryRows } from "../../db/rows.js";
import { callerFor, useApi, WHOLE_PATHS } from "../../test-support/api.js";
import { adminCookie, signedInUser } from "../../test-support/harness.js";
import { makeTestTool, toolRegistration } from "../../test-support/lti-tool.js";
import { purgeSpentLti } from "./retention.js";

const { h, tenants } = useApi({ tenants: 1 });
const [a] = tenants;

it("deletes launches a day past expiry, spent assertion ids and registration tokens, and keeps the rest", async () => {
  const call = callerFor(h, () => ({ tenant: a, credential: "" }), WHOLE_PATHS);
  const admin = await adminCookie(h, a);
  const tool = (
    await call("POST", "/api/institution/lti-tools", toolRegistration(await makeTestTool()), admin)
  ).json() as { id: string };
  const user = await signedInUser(h, a, "student");
  const db = h.database.db;
  const t = a.id;
  const launch = (expires: string) =>
    db.execute(sql`INSERT INTO lti_launches (tenant_id, tool_id, user_id, message_type, expires_at)
      VALUES (${t}, ${tool.id}, ${user.id}, 'LtiResourceLinkRequest', now() + ${expires}::interval)`);
  // Two days past expiry goes; an hour past stays (a deep-link answer may still name it), as does a live one.
  await launch("-2 days");
  await launch("-1 hour");
  await launch("5 minutes");
  const jti = (expires: string) =>
    db.execute(sql`INSERT INTO lti_assertion_jtis (tenant_id, tool_id, jti, expires_at)
      VALUES (${t}, ${tool.id}, ${randomUUID()}, now() + ${expires}::interval)`);
  await jti("-1 minute");
  await jti("5 minutes");
  const token = (expires: string) =>
    db.execute(sql`INSERT INTO lti_registration_tokens (tenant_id, id, expires_at)
      VALUES (${t}, ${randomUUID()}, now() + ${expires}::interval)`);
  await token("-1 minute");
  await token("1 hour");

  const purged = await purgeSpentLti(db);
  expect(purged.launches).toBeGreaterThanOrEqual(1);
  expect(purged.assertions).toBeGreaterThanOrEqual(1);
  expect(purged.registrations).toBeGreaterThanOrEqual(1);
  const left = async (table: string) =>
    (
      await queryRows<{ n: number }>(
        db,
        sql`SELECT count(*)::int AS n FROM ${sql.raw(table)} WHERE tenant_id = ${t}`,
      )
    )[0]?.n;
  expect(await left("lti_launches")).toBe(2);
  expect(await left("lti_assertion_jtis")).toBe(1);
  expect(await left("lti_registration_tokens")).toBe(1);
});
