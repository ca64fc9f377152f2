/**
 * (v) An LTI 1.3 launch (issue 24), on PostgreSQL, through the real app listening on a loopback port in this
 * process: an administrator's session starts a launch of a registered tool (POST /lti-tools/:id/launches, the
 * OIDC login initiation URL back) and follows it as the tool's redirect would (GET /lti/authorize with a state
 * and nonce), to the form-posted RS256 id_token. LTI_LAUNCHES sequential launches after LTI_WARMUP unmeasured:
 * p50 and p99 ms of the pair. Checks: every answer 201 then 200 with an id_token in the page.
 */
import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import { exportJWK, generateKeyPair } from "jose";
import { request } from "undici";
import type { Config } from "../src/config/index.js";
import type { Database } from "../src/db/client.js";
import { insertedId } from "../src/test-support/list-fixtures/types.js";
import { listenApp } from "./http.js";
import { summarise } from "./protocol.js";
import { makeTenant } from "./seed.js";

const LTI_LAUNCHES = 200;
const LTI_WARMUP = 10;

export interface LtiResult {
  launches: number;
  p50Ms: number;
  p99Ms: number;
  problems: string[];
}

export async function measureLtiLaunch(
  database: Database,
  config: Config,
  log: (line: string) => void,
): Promise<LtiResult> {
  const db = database.db;
  const { app, base } = await listenApp(database, config);
  const problems: string[] = [];
  try {
    const password = randomBytes(12).toString("hex");
    const t = await makeTenant(db, config.plans, "lti", password);
    const host = `${t.slug}.${config.baseDomain}`;
    const login = await app.inject({
      method: "POST",
      url: "/api/auth/login",
      headers: { host, "content-type": "application/json" },
      payload: { email: `admin@${t.slug}.test`, password },
    });
    const cookie = login.cookies.map((c) => `${c.name}=${c.value}`).join("; ");
    const send = async (method: "GET" | "POST", path: string, body?: unknown) => {
      const res = await request(`${base}${path}`, {
        method,
        headers: { host, cookie, ...(body === undefined ? {} : { "content-type": "application/json" }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: res.statusCode, text: await res.body.text() };
    };
    const { publicKey } = await generateKeyPair("RS256");
    const tool = await send("POST", "/api/institution/lti-tools", {
      name: "Bench tool",
      targetLinkUri: "https://tool.example.com/launch",
      oidcInitiationUrl: "https://tool.example.com/login",
      redirectUris: ["https://tool.example.com/launch"],
      publicJwk: { ...(await exportJWK(publicKey)), alg: "RS256" },
      privacyLevel: "public",
    });
    const toolId = (JSON.parse(tool.text) as { id: string }).id;
    const courseId = await insertedId(
      db,
      sql`INSERT INTO courses (tenant_id, title, status) VALUES (${t.id}::uuid, 'Bench course', 'published')
          RETURNING id`,
    );
    const moduleId = await insertedId(
      db,
      sql`INSERT INTO course_modules (tenant_id, course_id, title, position, status)
          VALUES (${t.id}::uuid, ${courseId}::uuid, 'Module', 1, 'published') RETURNING id`,
    );
    const lessonId = await insertedId(
      db,
      sql`INSERT INTO lessons (tenant_id, course_id, module_id, title, type, position, status)
          VALUES (${t.id}::uuid, ${courseId}::uuid, ${moduleId}::uuid, 'Lesson', 'text', 1, 'published') RETURNING id`,
    );
    const samples: number[] = [];
    for (let i = 0; i < LTI_WARMUP + LTI_LAUNCHES; i++) {
      const started = performance.now();
      const start = await send("POST", `/api/institution/lti-tools/${toolId}/launches`, {
        courseId,
        lessonId,
      });
      if (start.status !== 201) problems.push(`launch start ${start.status}`);
      const init = new URL((JSON.parse(start.text) as { url: string }).url).searchParams;
      const q = new URLSearchParams({
        scope: "openid",
        response_type: "id_token",
        client_id: init.get("client_id") ?? "",
        redirect_uri: init.get("target_link_uri") ?? "",
        login_hint: init.get("login_hint") ?? "",
        state: randomBytes(8).toString("hex"),
        response_mode: "form_post",
        nonce: randomBytes(8).toString("hex"),
        prompt: "none",
        lti_message_hint: init.get("lti_message_hint") ?? "",
      });
      const page = await send("GET", `/api/institution/lti/authorize?${q}`);
      if (page.status !== 200 || !page.text.includes('name="id_token"'))
        problems.push(`authorize ${page.status}`);
      if (i >= LTI_WARMUP) samples.push(performance.now() - started);
    }
    const s = summarise(samples);
    log(`(s) LTI launch: p50 ${s.p50} ms, p99 ${s.p99} ms over ${LTI_LAUNCHES}`);
    return { launches: LTI_LAUNCHES, p50Ms: s.p50, p99Ms: s.p99, problems: [...new Set(problems)] };
  } finally {
    await app.close();
  }
}
