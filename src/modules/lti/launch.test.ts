import { and, eq, sql } from "drizzle-orm";
import { decodeProtectedHeader } from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import { enrollments, ltiLaunches, users } from "../../db/schema/index.js";
import { callerFor, useApi, WHOLE_PATHS } from "../../test-support/api.js";
import { enrollDirectly, makeCourse } from "../../test-support/catalogue.js";
import { adminCookie, type SignedInUser, signedInUser } from "../../test-support/harness.js";
import {
  authorizeUrl,
  formFields,
  initiation,
  makeTestTool,
  type TestTool,
  toolRegistration,
  verifyIdToken,
} from "../../test-support/lti-tool.js";

const { h, tenants } = useApi({ tenants: 2 });
const [a, b] = tenants;
let adminA: string;
let student: SignedInUser;
let outsider: SignedInUser;
let teacher: SignedInUser;
let courseId: string;
let lessonId: string;
let tool: TestTool;

const call = callerFor(h, () => ({ tenant: a, credential: adminA }), WHOLE_PATHS);
const LTI = "https://purl.imsglobal.org/spec/lti/claim";

async function register(extra: Record<string, unknown> = {}) {
  const res = await call("POST", "/api/institution/lti-tools", toolRegistration(tool, extra));
  expect(res.statusCode).toBe(201);
  return res.json() as { id: string; clientId: string; deploymentIds: string[] };
}

async function start(toolId: string, who: SignedInUser, body: Record<string, unknown> = { courseId }) {
  return call("POST", `/api/institution/lti-tools/${toolId}/launches`, body, who.cookie);
}

async function launch(toolId: string, who: SignedInUser, body?: Record<string, unknown>) {
  const started = await start(toolId, who, body);
  expect(started.statusCode).toBe(201);
  const init = initiation(started.json().url);
  const res = await call("GET", authorizeUrl(init), undefined, who.cookie);
  return { init, res };
}

beforeAll(async () => {
  adminA = await adminCookie(h, a);
  tool = await makeTestTool();
  student = await signedInUser(h, a, "student");
  outsider = await signedInUser(h, a, "student");
  teacher = await signedInUser(h, a, "teacher");
  await h.database.db.update(users).set({ name: "Ana Maria Souza" }).where(eq(users.id, student.id));
  const course = await makeCourse(h.database.db, a.id, [{ lessons: [{ title: "Aula 1" }] }], "Física I");
  courseId = course.courseId;
  lessonId = course.lessonIds[0] ?? "";
  await enrollDirectly(h.database.db, a.id, student.id, courseId);
  await enrollDirectly(h.database.db, a.id, teacher.id, courseId);
  await h.database.db.update(enrollments).set({ role: "teacher" }).where(eq(enrollments.userId, teacher.id));
});

describe("LTI launch", () => {
  it("sends an enrolled student through OIDC initiation to a signed LtiResourceLinkRequest", async () => {
    const t = await register({
      privacyLevel: "name_only",
      customParameters: { uid: "$User.id", full: "$Person.name.full", mail: "$Person.email.primary", x: "y" },
      scopes: ["https://purl.imsglobal.org/spec/lti-ags/scope/score"],
    });
    const started = await start(t.id, student, { courseId, lessonId });
    const init = initiation(started.json().url);
    expect(started.json().url.startsWith("https://tool.example.com/login?")).toBe(true);
    expect(init).toMatchObject({
      iss: `http://${a.host}`,
      login_hint: student.id,
      client_id: t.clientId,
      lti_deployment_id: t.deploymentIds[0],
      target_link_uri: "https://tool.example.com/launch",
    });
    const res = await call(
      "GET",
      authorizeUrl(init, { nonce: "n-1", state: "s-1" }),
      undefined,
      student.cookie,
    );
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toContain("text/html");
    expect(res.headers["content-security-policy"]).toContain("form-action https://tool.example.com;");
    expect(res.headers["content-security-policy"]).toMatch(/script-src 'sha256-[A-Za-z0-9+/=]+'/);
    const { action, fields } = formFields(res.body);
    expect(action).toBe("https://tool.example.com/launch");
    expect(fields.state).toBe("s-1");
    const claims = await verifyIdToken(h, a, fields.id_token ?? "", t.clientId);
    expect(decodeProtectedHeader(fields.id_token ?? "").alg).toBe("RS256");
    expect(claims).toMatchObject({
      sub: student.id,
      nonce: "n-1",
      name: "Ana Maria Souza",
      given_name: "Ana Maria",
      family_name: "Souza",
      [`${LTI}/message_type`]: "LtiResourceLinkRequest",
      [`${LTI}/version`]: "1.3.0",
      [`${LTI}/deployment_id`]: t.deploymentIds[0],
      [`${LTI}/target_link_uri`]: "https://tool.example.com/launch",
      [`${LTI}/roles`]: expect.arrayContaining(["http://purl.imsglobal.org/vocab/lis/v2/membership#Learner"]),
      [`${LTI}/context`]: { id: courseId, title: "Física I" },
      [`${LTI}/resource_link`]: { id: lessonId, title: "Aula 1" },
      // Name claims go out at name_only; the e-mail variable stays unsubstituted.
      [`${LTI}/custom`]: { uid: student.id, full: "Ana Maria Souza", mail: "$Person.email.primary", x: "y" },
      "https://purl.imsglobal.org/spec/lti-ags/claim/endpoint": {
        scope: ["https://purl.imsglobal.org/spec/lti-ags/scope/score"],
        lineitems: `http://${a.host}/api/institution/lti/courses/${courseId}/line-items`,
      },
    });
    expect(claims.email).toBeUndefined();
    expect((claims.exp ?? 0) - (claims.iat ?? 0)).toBe(300);
  });

  it("sends only what the privacy level allows", async () => {
    const anonymous = await register({
      privacyLevel: "anonymous",
      customParameters: { n: "$Person.name.full" },
    });
    const anon = formFields((await launch(anonymous.id, student)).res.body).fields;
    const c1 = await verifyIdToken(h, a, anon.id_token ?? "", anonymous.clientId);
    expect([c1.name, c1.email, c1.given_name]).toEqual([undefined, undefined, undefined]);
    expect(c1[`${LTI}/custom`]).toEqual({ n: "$Person.name.full" });
    const email = await register({ privacyLevel: "email_only" });
    const c2 = await verifyIdToken(
      h,
      a,
      formFields((await launch(email.id, student)).res.body).fields.id_token ?? "",
      email.clientId,
    );
    expect([c2.name, c2.email]).toEqual([undefined, student.email]);
    const open = await register({ privacyLevel: "public" });
    const c3 = await verifyIdToken(
      h,
      a,
      formFields((await launch(open.id, student)).res.body).fields.id_token ?? "",
      open.clientId,
    );
    expect([c3.name, c3.email]).toEqual(["Ana Maria Souza", student.email]);
  });

  it("answers each launch once: a replayed request, a reused nonce and an expired launch are refused", async () => {
    const t = await register();
    const started = await start(t.id, student);
    const init = initiation(started.json().url);
    const url = authorizeUrl(init, { nonce: "once" });
    expect((await call("GET", url, undefined, student.cookie)).statusCode).toBe(200);
    const replay = await call("GET", url, undefined, student.cookie);
    expect(replay.statusCode).toBe(400);
    // A new launch with the same nonce from the same tool: refused too.
    const again = initiation((await start(t.id, student)).json().url);
    const reused = await call("GET", authorizeUrl(again, { nonce: "once" }), undefined, student.cookie);
    expect(reused.statusCode).toBe(400);
    expect(reused.json().details[0].field).toBe("nonce");
    const late = initiation((await start(t.id, student)).json().url);
    await h.database.db
      .update(ltiLaunches)
      .set({ expiresAt: sql`now() - interval '1 second'` as unknown as string })
      .where(and(eq(ltiLaunches.tenantId, a.id), eq(ltiLaunches.id, late.lti_message_hint ?? "")));
    expect((await call("GET", authorizeUrl(late), undefined, student.cookie)).statusCode).toBe(400);
  });

  it("refuses a wrong client, redirect URI, response type, user or tenant", async () => {
    const t = await register();
    const init = initiation((await start(t.id, student)).json().url);
    const cases: [Record<string, string>, string][] = [
      [{ client_id: "nope" }, "client_id"],
      [{ redirect_uri: "https://evil.example/launch" }, "redirect_uri"],
      [{ response_type: "code" }, "response_type"],
      [{ response_mode: "query" }, "response_mode"],
      [{ scope: "profile" }, "scope"],
      [{ login_hint: outsider.id }, "login_hint"],
    ];
    for (const [override, field] of cases) {
      const res = await call("GET", authorizeUrl(init, override), undefined, student.cookie);
      expect(res.statusCode, field).toBe(400);
      expect(res.json().details[0].field).toBe(field);
    }
    // Another user's browser session cannot take this user's launch.
    const stolen = await call(
      "GET",
      authorizeUrl(init, { login_hint: outsider.id }),
      undefined,
      outsider.cookie,
    );
    expect(stolen.statusCode).toBe(400);
    // Nor can the same request on another institution's host.
    const otherHost = await call("GET", authorizeUrl(init), undefined, await adminCookie(h, b), b);
    expect(otherHost.statusCode).toBe(400);
    // The launch is still unused: the right request succeeds.
    expect((await call("GET", authorizeUrl(init), undefined, student.cookie)).statusCode).toBe(200);
  });

  it("lets only course members launch, and only teachers deep link", async () => {
    const t = await register();
    expect((await start(t.id, outsider)).statusCode).toBe(403);
    expect((await start(t.id, student, { courseId, messageType: "LtiDeepLinkingRequest" })).statusCode).toBe(
      403,
    );
    const dl = await launch(t.id, teacher, { courseId, messageType: "LtiDeepLinkingRequest" });
    const claims = await verifyIdToken(h, a, formFields(dl.res.body).fields.id_token ?? "", t.clientId);
    expect(claims[`${LTI}/message_type`]).toBe("LtiDeepLinkingRequest");
    expect(claims[`${LTI}/roles`]).toContain("http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor");
    expect(claims["https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings"]).toMatchObject({
      deep_link_return_url: `http://${a.host}/api/institution/lti/deep-links`,
      data: dl.init.lti_message_hint,
    });
    expect((await start(t.id, student, { courseId: crypto.randomUUID() })).statusCode).toBe(400);
    await call("PATCH", `/api/institution/lti-tools/${t.id}`, { status: "disabled" });
    expect((await start(t.id, student)).statusCode).toBe(409);
    const other = await call(
      "POST",
      `/api/institution/lti-tools/${t.id}/launches`,
      { courseId },
      await adminCookie(h, b),
      b,
    );
    expect(other.statusCode).toBe(404);
  });

  it("publishes the previous key after a rotation until what it signed has expired", async () => {
    const t = await register();
    const before = formFields((await launch(t.id, student)).res.body).fields.id_token ?? "";
    const rotated = await call("POST", "/api/institution/lti-tools/platform-keys/rotations");
    expect(rotated.statusCode).toBe(201);
    const { kid, previousKid, previousPublishedUntil } = rotated.json();
    expect(previousKid).toBe(decodeProtectedHeader(before).kid);
    expect(Date.parse(previousPublishedUntil) - Date.now()).toBeGreaterThan(3_500_000);
    // Signed before the rotation, still verifiable; a new launch uses the new key.
    await verifyIdToken(h, a, before, t.clientId);
    const after = formFields((await launch(t.id, student)).res.body).fields.id_token ?? "";
    expect(decodeProtectedHeader(after).kid).toBe(kid);
    const jwks = await call("GET", "/api/institution/lti/jwks", undefined, {});
    expect(jwks.json().keys.map((k: { kid: string }) => k.kid)).toEqual([previousKid, kid]);
    for (const k of jwks.json().keys)
      expect(Object.keys(k).sort()).toEqual(["alg", "e", "kid", "kty", "n", "use"]);
    // Past its window the old key leaves the set (and the next rotation deletes it).
    await h.database.db.execute(
      sql`UPDATE lti_platform_keys SET published_until = now() - interval '1 second' WHERE kid = ${previousKid}`,
    );
    const later = await call("GET", "/api/institution/lti/jwks", undefined, {});
    expect(later.json().keys.map((k: { kid: string }) => k.kid)).toEqual([kid]);
    // Another institution's JWKS never lists these keys.
    const otherJwks = await call("GET", "/api/institution/lti/jwks", undefined, {}, b);
    expect(otherJwks.json().keys.map((k: { kid: string }) => k.kid)).not.toContain(kid);
  });
});
