import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import {
  enrollments,
  gradeItems,
  grades,
  lessons,
  ltiLinks,
  platformEvents,
  users,
} from "../../db/schema/index.js";
import { callerFor, useApi, WHOLE_PATHS } from "../../test-support/api.js";
import { enrollDirectly, makeCourse } from "../../test-support/catalogue.js";
import { adminCookie, type SignedInUser, signedInUser } from "../../test-support/harness.js";
import {
  authorizeUrl,
  formFields,
  initiation,
  makeTestTool,
  signAsTool,
  type TestTool,
  toolRegistration,
  verifyIdToken,
} from "../../test-support/lti-tool.js";
import { LTI_SCOPES } from "./schemas.js";

const { h, tenants } = useApi({ tenants: 2 });
const [a, b] = tenants;
let adminA: string;
let student: SignedInUser;
let teacher: SignedInUser;
let courseId: string;
let tool: TestTool;
let registered: { id: string; clientId: string; deploymentIds: string[] };

const call = callerFor(h, () => ({ tenant: a, credential: adminA }), WHOLE_PATHS);
const LTI = "https://purl.imsglobal.org/spec/lti/claim";
const DL = "https://purl.imsglobal.org/spec/lti-dl/claim";
const origin = () => `http://${a.host}`;
const SVC = "/api/institution/lti";

const form = (
  host: string,
  url: string,
  fields: Record<string, string>,
  headers: Record<string, string> = {},
) =>
  h.inject({
    method: "POST",
    url,
    headers: { host, "content-type": "application/x-www-form-urlencoded", ...headers },
    payload: new URLSearchParams(fields).toString(),
  });

const assertion = (claims: Record<string, unknown> = {}, lifetime = "5m") =>
  signAsTool(
    tool,
    {
      iss: registered.clientId,
      sub: registered.clientId,
      aud: `${origin()}${SVC}/token`,
      jti: randomUUID(),
      ...claims,
    },
    lifetime,
  );

async function token(scope = LTI_SCOPES.join(" "), jwt?: string) {
  return form(a.host, `${SVC}/token`, {
    grant_type: "client_credentials",
    client_assertion_type: "urn:ietf:params:oauth:client-assertion-type:jwt-bearer",
    client_assertion: jwt ?? (await assertion()),
    scope,
  });
}

const service = (
  method: "GET" | "POST" | "PUT" | "DELETE",
  url: string,
  accessToken: string,
  payload?: unknown,
  type?: string,
) =>
  h.inject({
    method,
    url,
    headers: {
      host: a.host,
      authorization: `Bearer ${accessToken}`,
      ...(payload === undefined ? {} : { "content-type": type ?? "application/json" }),
    },
    ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
  });

async function launchAs(who: SignedInUser, body: Record<string, unknown>) {
  const started = await call(
    "POST",
    `/api/institution/lti-tools/${registered.id}/launches`,
    body,
    who.cookie,
  );
  const init = initiation(started.json().url);
  const res = await call("GET", authorizeUrl(init), undefined, who.cookie);
  return verifyIdToken(h, a, formFields(res.body).fields.id_token ?? "", registered.clientId);
}

beforeAll(async () => {
  adminA = await adminCookie(h, a);
  tool = await makeTestTool();
  student = await signedInUser(h, a, "student");
  teacher = await signedInUser(h, a, "teacher");
  await h.database.db.update(users).set({ name: "Bia Lima" }).where(eq(users.id, student.id));
  courseId = (await makeCourse(h.database.db, a.id, [{ lessons: [{}] }], "Química")).courseId;
  await enrollDirectly(h.database.db, a.id, student.id, courseId);
  await enrollDirectly(h.database.db, a.id, teacher.id, courseId);
  await h.database.db.update(enrollments).set({ role: "teacher" }).where(eq(enrollments.userId, teacher.id));
  const res = await call(
    "POST",
    "/api/institution/lti-tools",
    toolRegistration(tool, { scopes: [...LTI_SCOPES], privacyLevel: "public" }),
  );
  registered = res.json();
});

describe("LTI deep linking", () => {
  it("turns the tool's returned content items into lessons, once, and launches them with the item's URL", async () => {
    const claims = await launchAs(teacher, { courseId, messageType: "LtiDeepLinkingRequest" });
    const settings = claims[`${DL}/deep_linking_settings`] as { deep_link_return_url: string; data: string };
    const response = (items: unknown[], extra: Record<string, unknown> = {}) =>
      signAsTool(tool, {
        iss: registered.clientId,
        aud: origin(),
        nonce: randomUUID(),
        [`${LTI}/message_type`]: "LtiDeepLinkingResponse",
        [`${LTI}/version`]: "1.3.0",
        [`${LTI}/deployment_id`]: registered.deploymentIds[0],
        [`${DL}/data`]: settings.data,
        [`${DL}/content_items`]: items,
        ...extra,
      });
    const items = [
      {
        type: "ltiResourceLink",
        title: "Simulação 1",
        url: "https://tool.example.com/sim/1",
        custom: { sim: "1" },
      },
      { type: "link", title: "Leitura", url: "https://tool.example.com/read" },
    ];
    const jwt = await response(items);
    // A tampered signature, another tool's key, or another audience: refused, nothing added.
    const tampered = `${jwt.slice(0, -4)}AAAA`;
    expect((await form(a.host, `${SVC}/deep-links`, { JWT: tampered })).statusCode).toBe(401);
    const stranger = await makeTestTool();
    const forged = await signAsTool(stranger, { iss: registered.clientId, aud: origin() });
    expect((await form(a.host, `${SVC}/deep-links`, { JWT: forged })).statusCode).toBe(401);

    const res = await form(a.host, new URL(settings.deep_link_return_url).pathname, { JWT: jwt });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('data-lessons="2"');
    const made = await h.database.db
      .select()
      .from(lessons)
      .where(and(eq(lessons.tenantId, a.id), eq(lessons.courseId, courseId)));
    const sim = made.find((l) => l.title === "Simulação 1");
    expect(sim).toMatchObject({ type: "text", status: "draft" });
    expect(made.find((l) => l.title === "Leitura")).toMatchObject({
      type: "embed",
      content: { url: "https://tool.example.com/read" },
    });
    const [link] = await h.database.db
      .select()
      .from(ltiLinks)
      .where(eq(ltiLinks.lessonId, sim?.id ?? ""));
    expect(link).toMatchObject({
      toolId: registered.id,
      url: "https://tool.example.com/sim/1",
      custom: { sim: "1" },
    });
    // The same response again (or another for the same launch): refused.
    expect((await form(a.host, `${SVC}/deep-links`, { JWT: jwt })).statusCode).toBe(400);
    expect((await form(a.host, `${SVC}/deep-links`, { JWT: await response([]) })).statusCode).toBe(400);
    // On another institution's host the tool is unknown.
    expect((await form(b.host, `${SVC}/deep-links`, { JWT: await response([]) })).statusCode).toBe(401);

    const launched = await launchAs(student, { courseId, lessonId: sim?.id });
    expect(launched[`${LTI}/target_link_uri`]).toBe("https://tool.example.com/sim/1");
    expect(launched[`${LTI}/custom`]).toEqual({ sim: "1" });
    expect(launched[`${LTI}/resource_link`]).toMatchObject({ id: sim?.id, title: "Simulação 1" });
  });
});

describe("LTI token endpoint", () => {
  it("issues an access token for a client assertion once, and refuses tampered, expired, replayed or misaddressed ones", async () => {
    const jwt = await assertion();
    const ok = await token("https://purl.imsglobal.org/spec/lti-ags/scope/score openid", jwt);
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({
      token_type: "Bearer",
      expires_in: 3600,
      scope: "https://purl.imsglobal.org/spec/lti-ags/scope/score",
    });
    expect(ok.headers["cache-control"]).toBe("no-store");
    expect((await token(undefined, jwt)).statusCode).toBe(401);
    expect((await token(undefined, `${(await assertion()).slice(0, -4)}AAAA`)).statusCode).toBe(401);
    expect((await token(undefined, await assertion({}, "-10s"))).statusCode).toBe(401);
    expect((await token(undefined, await assertion({ aud: `${origin()}/elsewhere` }))).statusCode).toBe(401);
    expect((await token(undefined, await assertion({ sub: "someone" }))).statusCode).toBe(401);
    expect((await token("https://example.com/other-scope")).statusCode).toBe(400);
    const otherHost = await form(b.host, `${SVC}/token`, {
      grant_type: "client_credentials",
      client_assertion_type: "urn:ietf:params:oauth:client-assertion-type:jwt-bearer",
      client_assertion: await assertion(),
      scope: LTI_SCOPES[3],
    });
    expect(otherHost.statusCode).toBe(401);
  });
});

describe("LTI Assignment and Grade Services and Names and Roles", () => {
  it("maps line items to grade items and writes a tool's score as a posted grade", async () => {
    const access = (await token()).json().access_token as string;
    const base = `${SVC}/courses/${courseId}/line-items`;
    const created = await service(
      "POST",
      base,
      access,
      { scoreMaximum: 50, label: "Simulação", resourceId: "sim-1", tag: "final" },
      "application/vnd.ims.lis.v2.lineitem+json",
    );
    expect(created.statusCode).toBe(201);
    const item = created.json();
    expect(item).toMatchObject({ scoreMaximum: 50, label: "Simulação", resourceId: "sim-1", tag: "final" });
    expect(item.id.startsWith(`${origin()}${base}/`)).toBe(true);
    const itemPath = new URL(item.id).pathname;
    expect((await service("GET", itemPath, access)).json()).toEqual(item);
    expect((await service("GET", `${base}?tag=final`, access)).json()).toEqual([item]);
    expect((await service("GET", `${base}?tag=none`, access)).json()).toEqual([]);

    const score = {
      userId: student.id,
      scoreGiven: 40,
      scoreMaximum: 50,
      activityProgress: "Completed",
      gradingProgress: "FullyGraded",
      timestamp: new Date().toISOString(),
      comment: "Muito bem",
    };
    const posted = await service(
      "POST",
      `${itemPath}/scores`,
      access,
      score,
      "application/vnd.ims.lis.v1.score+json",
    );
    expect(posted.statusCode).toBe(204);
    const [grade] = await h.database.db
      .select()
      .from(grades)
      .where(and(eq(grades.tenantId, a.id), eq(grades.userId, student.id), eq(grades.courseId, courseId)));
    expect(grade).toMatchObject({ score: 40, status: "graded", feedback: "Muito bem" });
    const events = await h.database.db
      .select()
      .from(platformEvents)
      .where(and(eq(platformEvents.tenantId, a.id), eq(platformEvents.type, "grade_posted")));
    expect(events.length).toBe(1);
    // The gradebook route shows it to the teacher.
    const book = await call(
      "GET",
      `/api/institution/courses/${courseId}/gradebook`,
      undefined,
      teacher.cookie,
    );
    expect(JSON.stringify(book.json())).toContain(grade?.gradeItemId ?? "missing");

    // Malformed or unknown: 4xx, nothing written.
    const bad = await service("POST", `${itemPath}/scores`, access, { ...score, userId: "x" });
    expect(bad.statusCode).toBe(400);
    expect((await service("POST", `${base}/${randomUUID()}/scores`, access, score)).statusCode).toBe(404);
    expect((await service("POST", base, access, { label: "x", scoreMaximum: -1 })).statusCode).toBe(400);
  });

  it("reads the roster a page at a time with what the privacy level allows", async () => {
    const access = (await token(LTI_SCOPES[4])).json().access_token as string;
    const first = await service("GET", `${SVC}/courses/${courseId}/memberships?limit=1`, access);
    expect(first.statusCode).toBe(200);
    expect(first.json().context).toMatchObject({ id: courseId, title: "Química" });
    expect(first.json().members).toHaveLength(1);
    const next = /<([^>]+)>; rel="next"/.exec(String(first.headers.link))?.[1] ?? "";
    const second = await service("GET", new URL(next).pathname + new URL(next).search, access);
    expect(second.headers.link).toBeUndefined();
    const members = [...first.json().members, ...second.json().members];
    expect(members).toContainEqual({
      status: "Active",
      user_id: student.id,
      roles: ["http://purl.imsglobal.org/vocab/lis/v2/membership#Learner"],
      name: "Bia Lima",
      email: student.email,
    });
    expect(members.map((m) => m.user_id).sort()).toEqual([student.id, teacher.id].sort());
  });

  it("refuses a missing, tampered, foreign or under-scoped access token", async () => {
    const rosterUrl = `${SVC}/courses/${courseId}/memberships`;
    const nrpsOnly = (await token(LTI_SCOPES[4])).json().access_token as string;
    expect((await service("GET", rosterUrl, `${nrpsOnly.slice(0, -4)}AAAA`)).statusCode).toBe(401);
    expect((await h.inject({ method: "GET", url: rosterUrl, headers: { host: a.host } })).statusCode).toBe(
      401,
    );
    const scoreUrl = `${SVC}/courses/${courseId}/line-items`;
    expect((await service("POST", scoreUrl, nrpsOnly, { label: "x", scoreMaximum: 1 })).statusCode).toBe(403);
    const foreign = await h.inject({
      method: "GET",
      url: rosterUrl,
      headers: { host: b.host, authorization: `Bearer ${nrpsOnly}` },
    });
    expect(foreign.statusCode).toBe(401);
    // A disabled tool's tokens stop working at once.
    await call("PATCH", `/api/institution/lti-tools/${registered.id}`, { status: "disabled" });
    expect((await service("GET", rosterUrl, nrpsOnly)).statusCode).toBe(401);
    await call("PATCH", `/api/institution/lti-tools/${registered.id}`, { status: "active" });
    expect((await service("GET", rosterUrl, nrpsOnly)).statusCode).toBe(200);
  });

  it("filters the roster by role, and reads results only with the scope, in the tool's own course", async () => {
    const access = (await token(LTI_SCOPES[4])).json().access_token as string;
    const rosterUrl = `${SVC}/courses/${courseId}/memberships`;
    const ids = async (role: string) =>
      (await service("GET", `${rosterUrl}?role=${encodeURIComponent(role)}`, access))
        .json()
        .members.map((m: { user_id: string }) => m.user_id);
    expect(await ids("Learner")).toEqual([student.id]);
    expect(await ids("http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor")).toEqual([teacher.id]);
    expect(await ids("ContentDeveloper")).toEqual([]);
    const all = (await token()).json().access_token as string;
    const base = `${SVC}/courses/${courseId}/line-items`;
    const item = await service("POST", base, all, { label: "Resultados", scoreMaximum: 20 });
    const results = `${new URL(item.json().id).pathname}/results`;
    expect((await service("GET", results, all)).json()).toEqual([]);
    expect((await service("GET", `${results}?user_id=x`, all)).statusCode).toBe(400);
    // Under-scoped, another institution's host, or another course: refused or not found.
    expect((await service("GET", results, access)).statusCode).toBe(403);
    const foreign = await h.inject({
      method: "GET",
      url: results,
      headers: { host: b.host, authorization: `Bearer ${all}` },
    });
    expect(foreign.statusCode).toBe(401);
    const elsewhere = results.replace(courseId, randomUUID());
    expect((await service("GET", elsewhere, all)).statusCode).toBe(404);
    // Replaced (PUT): its grade item follows; then deleted with it.
    const itemPath = new URL(item.json().id).pathname;
    const put = await service("PUT", itemPath, all, { label: "Resultados 2", scoreMaximum: 25, tag: "t" });
    expect(put.statusCode).toBe(200);
    expect(put.json()).toEqual({ id: item.json().id, label: "Resultados 2", scoreMaximum: 25, tag: "t" });
    expect((await service("PUT", itemPath, all, { label: "", scoreMaximum: 25 })).statusCode).toBe(400);
    const foreignPut = await h.inject({
      method: "PUT",
      url: itemPath,
      headers: { host: b.host, authorization: `Bearer ${all}`, "content-type": "application/json" },
      payload: { label: "x", scoreMaximum: 1 },
    });
    expect(foreignPut.statusCode).toBe(401);
    expect((await service("DELETE", itemPath, access)).statusCode).toBe(403);
    expect((await service("DELETE", itemPath, all)).statusCode).toBe(204);
    expect((await service("GET", itemPath, all)).statusCode).toBe(404);
    const gradeItem = await h.database.db
      .select()
      .from(gradeItems)
      .where(eq(gradeItems.title, "Resultados 2"));
    expect(gradeItem).toEqual([]);
  });
});
