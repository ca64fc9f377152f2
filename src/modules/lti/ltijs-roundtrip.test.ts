/**
 * The LTI 1.3 round trip against a real tool library: ltijs (with its Sequelize plugin on a database of its own)
 * listens on 127.0.0.1, Aula on another loopback address that the institution holds as a verified custom domain,
 * and a test browser carries the user between them over HTTP, with each origin's cookies. ltijs checks our
 * id_tokens itself (signature by our published JWKS, issuer, audience, nonce, its state cookie), answers a deep
 * link with its own signed response, and calls our token, NRPS and AGS endpoints with its own client assertions:
 * nothing here signs on the tool's behalf.
 */
import { randomInt } from "node:crypto";
import { and, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  enrollments,
  grades,
  lessons,
  ltiLinks,
  platformEvents,
  tenantDomains,
} from "../../db/schema/index.js";
import { callerFor, useApi, WHOLE_PATHS } from "../../test-support/api.js";
import { enrollDirectly, makeCourse } from "../../test-support/catalogue.js";
import { adminCookie, makeUser, TEST_PASSWORD } from "../../test-support/harness.js";
import { type LtijsTool, startLtijsTool, TestBrowser } from "../../test-support/ltijs-tool.js";
import { LTI_SCOPES } from "./schemas.js";

// Every 127/8 address is this machine's: Aula gets one of its own, which the tenant holds as its custom domain.
const AULA_IP = `127.${randomInt(1, 255)}.${randomInt(256)}.${randomInt(2, 255)}`;
// Aula fetches the tool's JWKS from 127.0.0.1 (the tool's address): the outbound policy allows that range only.
const { h, tenants } = useApi({ tenants: 1, env: { OUTBOUND_ALLOW_CIDRS: "127.0.0.1/32" } });
const [a] = tenants;
const call = callerFor(h, () => ({ tenant: a, credential: adminA }), WHOLE_PATHS);
const LEARNER = "http://purl.imsglobal.org/vocab/lis/v2/membership#Learner";
const INSTRUCTOR = "http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor";

let adminA: string;
let aula: string;
let tool: LtijsTool;
let toolId: string;
let courseId: string;
let student: { id: string; browser: TestBrowser };
let teacher: { id: string; browser: TestBrowser };
let linkedLessonIds: string[] = [];

async function person(role: "student" | "teacher") {
  const user = await makeUser(h, a, role, TEST_PASSWORD);
  await enrollDirectly(h.database.db, a.id, user.id, courseId);
  const browser = new TestBrowser();
  const login = await browser.request(`${aula}/api/auth/login`, {
    json: { email: user.email, password: TEST_PASSWORD },
  });
  expect(login.status).toBe(200);
  return { id: user.id, browser };
}

/** The user opens the tool from Aula: launch start, the tool's login initiation, our authorization page. */
async function launch(who: { browser: TestBrowser }, body: Record<string, unknown>) {
  const started = await who.browser.request(`${aula}/api/institution/lti-tools/${toolId}/launches`, {
    json: body,
  });
  expect(started.status).toBe(201);
  const { url } = (await started.json()) as { url: string };
  const page = await who.browser.open(url);
  expect(page.url.startsWith(`${aula}/api/institution/lti/authorize?`)).toBe(true);
  expect(page.res.status).toBe(200);
  return page.res.text();
}

beforeAll(async () => {
  adminA = await adminCookie(h, a);
  aula = await h.app.listen({ host: AULA_IP, port: 0 });
  await h.database.db.insert(tenantDomains).values({
    tenantId: a.id,
    host: AULA_IP,
    verificationToken: "round-trip",
    verifiedAt: new Date().toISOString(),
  });
  tool = await startLtijsTool((origin) => [
    { type: "ltiResourceLink", title: "Quiz de cinemática", url: `${origin}/`, custom: { quiz: "7" } },
    { type: "link", title: "Leitura", url: "https://example.org/leitura" },
  ]);
  const course = await makeCourse(h.database.db, a.id, [{ lessons: [{ title: "Aula 1" }] }], "Física I");
  courseId = course.courseId;
  student = await person("student");
  teacher = await person("teacher");
  await h.database.db.update(enrollments).set({ role: "teacher" }).where(eq(enrollments.userId, teacher.id));
  const registered = await call("POST", "/api/institution/lti-tools", {
    name: "ltijs",
    targetLinkUri: `${tool.origin}/`,
    oidcInitiationUrl: `${tool.origin}/login`,
    redirectUris: [`${tool.origin}/`],
    jwksUrl: `${tool.origin}/keys`,
    scopes: [...LTI_SCOPES],
    privacyLevel: "public",
  });
  expect(registered.statusCode).toBe(201);
  const { id, clientId } = registered.json() as { id: string; clientId: string };
  toolId = id;
  // What the tool's administrator types into ltijs from our platform configuration.
  await tool.lti.registerPlatform({
    url: aula,
    name: "Aula",
    clientId,
    authenticationEndpoint: `${aula}/api/institution/lti/authorize`,
    accesstokenEndpoint: `${aula}/api/institution/lti/token`,
    authConfig: { method: "JWK_SET", key: `${aula}/api/institution/lti/jwks` },
  });
}, 120_000);

afterAll(async () => {
  await tool?.close();
});

describe("the LTI round trip with ltijs", () => {
  it("is launched: ltijs validates our id_token against our JWKS and opens the student's session", async () => {
    const authorizePage = await launch(student, { courseId });
    const opened = await student.browser.submit(authorizePage);
    expect(opened.url.startsWith(`${tool.origin}/?`)).toBe(true);
    expect(opened.res.status).toBe(200);
    expect(await opened.res.json()).toEqual({ user: student.id, context: courseId });
    const token = tool.launches.at(-1);
    expect(token?.iss).toBe(aula);
    expect(token?.platformContext.roles).toContain(LEARNER);
    expect(token?.platformContext.messageType).toBe("LtiResourceLinkRequest");
    expect(token?.userInfo.name).toMatch(/^student /);
  });

  it("refuses, in ltijs, a tampered or replayed id_token", async () => {
    const authorizePage = await launch(student, { courseId });
    const token = /name="id_token" value="([^"]*)"/.exec(authorizePage)?.[1] ?? "";
    const [header, payload, signature] = token.split(".");
    const claims = JSON.parse(Buffer.from(payload ?? "", "base64url").toString());
    const forged = Buffer.from(JSON.stringify({ ...claims, sub: teacher.id })).toString("base64url");
    const tampered = await student.browser.submit(
      authorizePage.replace(token, `${header}.${forged}.${signature}`),
    );
    expect(tampered.res.status).toBe(401);
    expect(JSON.stringify(await tampered.res.json())).toContain("invalid signature");
    // The same launch, once more from the start, is accepted once; its replay is not (nonce and state used).
    const fresh = await launch(student, { courseId });
    expect((await student.browser.submit(fresh)).res.status).toBe(200);
    const replay = await student.browser.submit(fresh);
    expect(replay.res.status).toBe(401);
  });

  it("completes a deep link: the tool's signed response becomes lessons, launched with their items", async () => {
    const authorizePage = await launch(teacher, { courseId, messageType: "LtiDeepLinkingRequest" });
    const toolPage = await teacher.browser.submit(authorizePage);
    expect(toolPage.res.status).toBe(200);
    expect(tool.launches.at(-1)?.platformContext.roles).toContain(INSTRUCTOR);
    const toolForm = await toolPage.res.text();
    const done = await teacher.browser.submit(toolForm);
    expect(done.url).toBe(`${aula}/api/institution/lti/deep-links`);
    expect(done.res.status).toBe(200);
    expect(await done.res.text()).toContain('data-lessons="2"');
    const made = await h.database.db
      .select({ id: lessons.id, title: lessons.title, type: lessons.type })
      .from(lessons)
      .where(and(eq(lessons.tenantId, a.id), inArray(lessons.title, ["Quiz de cinemática", "Leitura"])));
    expect(made.map((l) => [l.title, l.type]).sort()).toEqual([
      ["Leitura", "embed"],
      ["Quiz de cinemática", "text"],
    ]);
    const links = await h.database.db.select().from(ltiLinks).where(eq(ltiLinks.toolId, toolId));
    expect(links).toHaveLength(1);
    linkedLessonIds = links.map((l) => l.lessonId);
    // ltijs's response is single-use: posted again, refused.
    expect((await teacher.browser.submit(toolForm)).res.status).toBe(400);
    // The new lesson launches the tool with the item's custom parameters and its resource link.
    const lessonLaunch = await launch(student, { courseId, lessonId: linkedLessonIds[0] });
    expect((await student.browser.submit(lessonLaunch)).res.status).toBe(200);
    const token = tool.launches.at(-1);
    expect(token?.platformContext.resource?.id).toBe(linkedLessonIds[0]);
    expect(token?.platformContext.custom).toEqual({ quiz: "7" });
  });

  it("reads the roster through ltijs's NRPS service, page after page", async () => {
    const token = tool.launches.at(-1);
    if (token === undefined) throw new Error("no launch");
    const all = await tool.lti.NamesAndRoles.getMembers(token, { limit: 1, pages: false });
    const byUser = new Map(all.members.map((m) => [m.user_id, m.roles]));
    expect(byUser.get(student.id)).toContain(LEARNER);
    expect(byUser.get(teacher.id)).toContain(INSTRUCTOR);
    expect(all.members).toHaveLength(2);
    const first = await tool.lti.NamesAndRoles.getMembers(token, { limit: 1, pages: 1 });
    expect(first.members).toHaveLength(1);
    expect(first.next).toContain("/memberships?");
    // Filtered by role, as the tool asks for it.
    const learners = await tool.lti.NamesAndRoles.getMembers(token, { role: LEARNER, pages: false });
    expect(learners.members.map((m) => m.user_id)).toEqual([student.id]);
  });

  it("posts a score through ltijs's grade service: a grade in the gradebook, and grade_posted", async () => {
    const token = tool.launches.at(-1);
    if (token === undefined) throw new Error("no launch");
    const item = await tool.lti.Grade.createLineItem(token, {
      label: "Quiz de cinemática",
      scoreMaximum: 10,
      resourceLinkId: linkedLessonIds[0],
      tag: "quiz",
    });
    expect(item.id.startsWith(`${aula}/api/institution/lti/courses/${courseId}/line-items/`)).toBe(true);
    const listed = await tool.lti.Grade.getLineItems(token, { resourceLinkId: true });
    expect(listed.lineItems.map((i) => i.id)).toEqual([item.id]);
    await tool.lti.Grade.submitScore(token, item.id, {
      scoreGiven: 8,
      scoreMaximum: 10,
      activityProgress: "Completed",
      gradingProgress: "FullyGraded",
      comment: "Bom trabalho",
    });
    const [grade] = await h.database.db
      .select()
      .from(grades)
      .where(and(eq(grades.tenantId, a.id), eq(grades.userId, student.id), eq(grades.courseId, courseId)));
    expect(grade).toMatchObject({ score: 8, status: "graded", feedback: "Bom trabalho" });
    const events = await h.database.db
      .select()
      .from(platformEvents)
      .where(and(eq(platformEvents.tenantId, a.id), eq(platformEvents.type, "grade_posted")));
    expect(events).toHaveLength(1);
    expect(JSON.stringify(events[0]?.data)).toContain(student.id);
    // The result service gives the grade back to the tool.
    const results = (await tool.lti.Grade.getScores(token, item.id)) as { scores: Record<string, unknown>[] };
    expect(results.scores).toEqual([
      {
        id: `${item.id}/results/${student.id}`,
        scoreOf: item.id,
        userId: student.id,
        resultScore: 8,
        resultMaximum: 10,
        comment: "Bom trabalho",
      },
    ]);
    // A line item the tool deletes takes its grade item with it.
    const extra = await tool.lti.Grade.createLineItem(token, { label: "Rascunho", scoreMaximum: 5 });
    await tool.lti.Grade.deleteLineItemById(token, extra.id);
    const left = await tool.lti.Grade.getLineItems(token);
    expect(left.lineItems.map((i) => i.id)).toEqual([item.id]);
    const book = await call("GET", `/api/institution/courses/${courseId}/gradebook`);
    expect(book.statusCode).toBe(200);
    expect(JSON.stringify(book.json())).toContain(grade?.gradeItemId ?? "missing");
    // Disabled by the institution, the tool's access token (cached by ltijs, unexpired) opens nothing.
    expect(
      (await call("PATCH", `/api/institution/lti-tools/${toolId}`, { status: "disabled" })).statusCode,
    ).toBe(200);
    await expect(tool.lti.Grade.submitScore(token, item.id, { scoreGiven: 1 })).rejects.toThrow(/401/);
    expect(await h.database.db.select().from(grades).where(eq(grades.userId, student.id))).toHaveLength(1);
  });

  it("registers itself by 1EdTech Dynamic Registration, once, and is launched with what it registered", async () => {
    const admin = new TestBrowser();
    const login = await admin.request(`${aula}/api/auth/login`, {
      json: { email: a.adminEmail, password: a.password },
    });
    expect(login.status).toBe(200);
    const started = await admin.request(`${aula}/api/institution/lti-tools/dynamic-registrations`, {
      json: { registrationUrl: `${tool.origin}/register` },
    });
    expect(started.status).toBe(201);
    const { redirectUrl } = (await started.json()) as { redirectUrl: string };
    // The administrator's browser opens the tool's page: ltijs reads our configuration and registers.
    const page = await admin.open(redirectUrl);
    expect(page.res.status).toBe(200);
    expect(await page.res.text()).toContain("org.imsglobal.lti.close");
    const list = await call("GET", "/api/institution/lti-tools");
    const dynamic = (list.json().data as { id: string; registrationMethod: string }[]).filter(
      (t) => t.registrationMethod === "dynamic",
    );
    expect(dynamic).toHaveLength(1);
    const registered = await call("GET", `/api/institution/lti-tools/${dynamic[0]?.id}`);
    expect(registered.json()).toMatchObject({
      name: "ltijs tool",
      oidcInitiationUrl: `${tool.origin}/login`,
      jwksUrl: `${tool.origin}/keys`,
      redirectUris: [tool.origin],
      scopes: [...LTI_SCOPES],
      placements: ["deep_linking"],
      customParameters: { via: "dynamic" },
      privacyLevel: "anonymous",
      status: "active",
    });
    // The token is spent: the same registration again is refused, and no second tool appears.
    expect((await admin.open(redirectUrl)).res.status).toBe(500);
    const again = await call("GET", "/api/institution/lti-tools");
    expect(
      again.json().data.filter((t: { registrationMethod: string }) => t.registrationMethod === "dynamic"),
    ).toHaveLength(1);
    // ltijs registered us as a platform on its side: a student's launch through the new tool is accepted.
    toolId = dynamic[0]?.id ?? "";
    const authorizePage = await launch(student, { courseId });
    const opened = await student.browser.submit(authorizePage);
    expect(opened.res.status).toBe(200);
    expect(tool.launches.at(-1)?.clientId).toBe(registered.json().clientId);
    expect(tool.launches.at(-1)?.platformContext.custom).toEqual({ via: "dynamic" });
  });
});
