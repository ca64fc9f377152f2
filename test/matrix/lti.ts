import { and, eq } from "drizzle-orm";
import { exportJWK, generateKeyPair } from "jose";
import { ltiTools } from "../../src/db/schema/index.js";
import { insertTool } from "../../src/modules/lti/tool-repo.js";
import { newClientId } from "../../src/modules/lti/tools.js";
import type { Harness, TestTenant } from "../../src/test-support/harness.js";
import type { Fixtures } from "./fixture.js";

const { publicKey } = await generateKeyPair("RS256");
const publicJwk = { ...(await exportJWK(publicKey)), alg: "RS256" };

const registration = {
  name: "Matrix",
  targetLinkUri: "https://tool.example.com/launch",
  oidcInitiationUrl: "https://tool.example.com/login",
  redirectUris: ["https://tool.example.com/launch"],
  publicJwk,
};

const tool = async (h: Harness, t: TestTenant) => {
  const row = await insertTool(h.database.db, {
    ...registration,
    tenantId: t.id,
    clientId: newClientId(),
    deploymentId: crypto.randomUUID(),
  });
  return { toolId: row.id };
};

const toolRow = async (h: Harness, t: TestTenant, id: string | Record<string, string>) => {
  const toolId = typeof id === "string" ? id : (id.toolId ?? "");
  const [row] = await h.database.db
    .select()
    .from(ltiTools)
    .where(and(eq(ltiTools.tenantId, t.id), eq(ltiTools.id, toolId)));
  return row;
};

const toolObject = { makeObject: tool, snapshot: toolRow };
const BASE = "/api/institution/lti-tools";

export const fixtures: Fixtures = {
  [`GET ${BASE}`]: {},
  [`POST ${BASE}`]: { body: registration },
  // One record (the platform's URLs on the request's host), no tenant data: its own tests cover it.
  [`GET ${BASE}/platform-config`]: { single: true },
  [`POST ${BASE}/platform-keys/rotations`]: {},
  [`POST ${BASE}/dynamic-registrations`]: { body: { registrationUrl: "https://tool.example.com/register" } },
  [`GET ${BASE}/:toolId`]: toolObject,
  [`PATCH ${BASE}/:toolId`]: { ...toolObject, body: { name: "Renamed" } },
  [`DELETE ${BASE}/:toolId`]: toolObject,
  [`POST ${BASE}/:toolId/launches`]: {
    ...toolObject,
    body: { courseId: "6f1c0e62-3c1b-4d2e-9a55-0f1e2d3c4b5a" },
  },
  // The OIDC authorization request needs a launch of the signed-in user: launch.test.ts covers who may use it.
  "GET /api/institution/lti/authorize": { single: true },
};
