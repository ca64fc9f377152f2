import type { IncomingHttpHeaders } from "node:http";
import { Ajv, type ValidateFunction } from "ajv";
import addFormatsModule from "ajv-formats";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOutboundClient } from "../../platform/outbound/client.js";
import { callerFor, type Method, useApi } from "../../test-support/api.js";
import { makeCourse } from "../../test-support/catalogue.js";
import { json, makeKey } from "../../test-support/harness.js";
import { mediaDir, uploadLocal } from "../../test-support/media-client.js";
import { png } from "../../test-support/media-files.js";
import { type Receiver, startReceiver } from "../../test-support/receiver.js";
import { makeAssignment } from "../assignments/test-fixtures.js";
import { expireEnrollments } from "../enrollments/expiry.js";
import { EVENT_SAMPLES, EVENT_TYPES } from "../events/catalogue.js";
import { expireInvites } from "../invites/expiry.js";
import { drainOnce } from "../outbox/drain.js";
import { makeQuizLesson } from "../quizzes/test-fixtures.js";

// ajv-formats is published as CommonJS with a default export property.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

/**
 * Every event's payload is published in the OpenAPI document's `webhooks` (issue 21, point 2). These tests read
 * that document as a receiver would and check against it what the delivery worker really sends to a receiver
 * listening on this machine, after a tour of the API that causes most kinds of event. The schemas are applied
 * strictly here (no field beyond those documented), so a field added to an event but not to its schema fails.
 */

type Json = Record<string, unknown>;

/** The schema with `additionalProperties: false` wherever it leaves them open: we send only what we document. */
function strict(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(strict);
  if (schema === null || typeof schema !== "object") return schema;
  const copy: Json = {};
  for (const [key, value] of Object.entries(schema)) copy[key] = strict(value);
  if (copy.type === "object" && copy.properties !== undefined && copy.additionalProperties === undefined) {
    copy.additionalProperties = false;
  }
  return copy;
}

const { h, tenants } = useApi({
  env: { OUTBOUND_ALLOW_CIDRS: "127.0.0.1/32", MEDIA_DIR: mediaDir() },
  tenants: 1,
});
const [t] = tenants;
let key: string;
let webhooks: Record<string, { post: { requestBody: { content: { "application/json": Json } } } }>;
const validators = new Map<string, ValidateFunction>();
const ajv = new Ajv({ strict: false, allErrors: true });
addFormats(ajv);

function validatorFor(type: string): ValidateFunction {
  let validate = validators.get(type);
  if (validate === undefined) {
    const entry = webhooks[type]?.post.requestBody.content["application/json"];
    expect(entry, `webhooks.${type}`).toBeDefined();
    validate = ajv.compile(strict((entry as Json).schema) as object);
    validators.set(type, validate);
  }
  return validate;
}

function expectValid(type: string, body: unknown): void {
  const validate = validatorFor(type);
  expect(validate(body), `${type}: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(body)}`).toBe(true);
}

const call = callerFor(h, () => ({ tenant: t, credential: key }), { language: null });

async function ok(method: Method, url: string, payload?: unknown) {
  const res = await call(method, url, payload);
  expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
  return res.body === "" ? {} : res.json();
}

beforeAll(async () => {
  key = await makeKey(h, t, []);
  const doc = await h.inject({ method: "GET", url: "/openapi.json" });
  webhooks = doc.json().webhooks;
});

describe("the OpenAPI document's webhooks", () => {
  it("has one entry per event type, each a signed POST whose sample body fits its schema", async () => {
    expect(Object.keys(webhooks).sort()).toEqual([...EVENT_TYPES].sort());
    for (const type of EVENT_TYPES) {
      const post = webhooks[type]?.post as unknown as Json;
      expect(post.operationId).toBe(`webhook_${type}`);
      const names = (post.parameters as { name: string }[]).map((p) => p.name);
      expect(names).toEqual(["webhook-id", "webhook-timestamp", "webhook-signature"]);
      const content = (post.requestBody as { content: { "application/json": Json } }).content[
        "application/json"
      ];
      expectValid(type, content.example);
      expect((content.example as Json).data).toEqual(EVENT_SAMPLES[type]);
    }
  });

  it("refuse a sample that lacks what the payload promises (the check can fail)", () => {
    const { userId: _dropped, ...withoutUser } = EVENT_SAMPLES.enrollment_created;
    const validate = validatorFor("enrollment_created");
    expect(
      validate({
        id: crypto.randomUUID(),
        type: "enrollment_created",
        timestamp: new Date().toISOString(),
        data: withoutUser,
      }),
    ).toBe(false);
    expect(
      validate({
        id: crypto.randomUUID(),
        type: "enrollment_created",
        timestamp: new Date().toISOString(),
        data: { ...EVENT_SAMPLES.enrollment_created, undocumented: 1 },
      }),
    ).toBe(false);
  });
});

describe("what the worker really sends", () => {
  interface Received {
    headers: IncomingHttpHeaders;
    body: Json;
  }
  let receiver: Receiver;
  /** Each delivery, its body parsed (once `deliverAll` has sent them). */
  let received: Received[] = [];

  beforeAll(async () => {
    receiver = await startReceiver({ host: "127.0.0.1" });
  });
  afterAll(() => receiver.close());

  /** Sends every due delivery of this tenant, as the worker does, until none is left. */
  async function deliverAll(): Promise<void> {
    const client = createOutboundClient(h.config.outbound);
    for (let round = 0; round < 50; round++) {
      const summary = await drainOnce(h.ctx, client, { tenantIds: [t.id], batchSize: 100 });
      if (summary.claimed === 0) return;
    }
    throw new Error("deliveries kept coming");
  }

  it("fits each event's published schema, carries the event's id, the learner and the objects", async () => {
    await ok("POST", "/webhooks", { url: receiver.url("/hook"), eventTypes: EVENT_TYPES });

    // Courses: created, published, archived, deleted.
    const course = await ok("POST", "/courses", { title: "Álgebra Linear" });
    await ok("PATCH", `/courses/${course.id}`, { status: "published" });
    await ok("PATCH", `/courses/${course.id}`, { status: "archived" });
    await ok("DELETE", `/courses/${course.id}`);

    // People: a class group, a student in it, then updated; a tag on and off; an invitation sent and revoked.
    const group = await ok("POST", "/classes", { name: "Turma A", code: "TA" });
    const student = await ok("POST", "/users", {
      name: "Ana Souza",
      email: "ana.payloads@x.test",
      role: "student",
      classGroupIds: [group.id],
    });
    await ok("PATCH", `/users/${student.id}`, { name: "Ana S. Souza" });
    const tag = await ok("POST", "/tags", { name: "Bolsista", appliesTo: ["user"] });
    await ok("POST", `/tags/${tag.id}/resources`, { resourceType: "user", ids: [student.id] });
    await ok("POST", `/tags/${tag.id}/resources/remove`, { resourceType: "user", ids: [student.id] });
    const invite = await ok("POST", "/invites", { email: "carla.payloads@x.test", role: "student" });
    await ok("DELETE", `/invites/${invite.id}`);
    const welcome = await ok("POST", "/invites", { email: "bia.payloads@x.test", role: "teacher" });
    const accepted = await h.inject({
      method: "POST",
      url: "/api/invites/accept",
      headers: { host: t.host, ...json },
      payload: { token: welcome.token, name: "Bia", password: "uma senha longa e boa" },
    });
    expect(accepted.statusCode, accepted.body).toBeLessThan(300);

    // Learning: an enrollment whose two lessons complete the course; one completion reset; a drop.
    const content = await makeCourse(h.database.db, t.id, [{ lessons: [{}, {}] }]);
    const enrollment = await ok("POST", "/enrollments", { userId: student.id, courseId: content.courseId });
    // A learning path of that course: enrolled in it now, the course's completion below completes it.
    const path = await ok("POST", "/learning-paths", {
      title: "Trilha",
      courses: [{ courseId: content.courseId }],
    });
    await ok("POST", `/learning-paths/${path.id}/enrollments`, { userIds: [student.id] });
    for (const lessonId of content.lessonIds) {
      await ok("PUT", `/lessons/${lessonId}/completions/${student.id}`, {});
    }
    await ok("DELETE", `/lessons/${content.lessonIds[0]}/completions/${student.id}`);
    await ok("DELETE", `/enrollments/${enrollment.id}`);

    // A quiz submitted at once; an enrollment that expires by the scheduler; settings changed; a suspension.
    const quizLesson = await makeQuizLesson(h.database.db, t.id);
    const bank = await ok("POST", "/question-banks", { title: "Bank" });
    const questions = await ok("POST", `/question-banks/${bank.id}/questions`, {
      items: [
        {
          type: "true_false",
          stem: "T",
          options: [
            { id: "t", text: "V", isCorrect: true },
            { id: "f", text: "F", isCorrect: false },
          ],
        },
      ],
    });
    const quiz = await ok("POST", "/quizzes", {
      lessonId: quizLesson.lessonId,
      sections: [{ source: { type: "fixed", questionIds: [questions.data[0].id] } }],
    });
    await ok("POST", "/enrollments", { userId: student.id, courseId: quizLesson.courseId });
    // The quiz feeds a grade item: its graded attempt posts a grade and moves the course grade.
    const gradeItem = await ok("POST", `/courses/${quizLesson.courseId}/grade-items`, {
      title: "Quiz",
      maxPoints: 10,
      sourceType: "quiz",
      sourceId: quiz.id,
    });
    await ok("POST", `/quizzes/${quiz.id}/attempts`, {
      userId: student.id,
      answers: [{ questionId: questions.data[0].id, response: "t" }],
    });
    await ok("PUT", `/grade-items/${gradeItem.id}/grades/${student.id}`, { overrideScore: 9 });
    // An assignment handed in late on the student's behalf, then graded with the late deduction.
    const assignment = await makeAssignment(h.database.db, t.id, {
      dueAt: new Date(Date.now() - 60_000).toISOString(),
    });
    await ok("POST", "/enrollments", { userId: student.id, courseId: assignment.courseId });
    const submission = await ok("POST", `/lessons/${assignment.lessonId}/submissions`, {
      userId: student.id,
      bodyText: "Relatório",
    });
    await ok("PATCH", `/submissions/${submission.id}`, { score: 8 });
    const expiring = await makeCourse(h.database.db, t.id, [{ lessons: [{}] }]);
    const toExpire = await ok("POST", "/enrollments", { userId: student.id, courseId: expiring.courseId });
    await h.database.db.execute(
      sql`UPDATE enrollments SET expires_at = now() - interval '1 minute' WHERE id = ${toExpire.id}::uuid`,
    );
    expect(await expireEnrollments(h.database.db)).toBeGreaterThanOrEqual(1);
    await ok("PATCH", "/settings", { inactivity: { userInactiveDays: 45 } });
    const theme = await ok("POST", "/themes", { name: "Institucional" });
    await ok("POST", `/themes/${theme.id}/activate`);
    const lapsing = await ok("POST", "/invites", { email: "lapsing.payloads@x.test", role: "student" });
    await h.database.db.execute(
      sql`UPDATE invites SET expires_at = now() - interval '1 minute' WHERE id = ${lapsing.id}::uuid`,
    );
    expect(await expireInvites(h.database.db)).toBeGreaterThanOrEqual(1);
    await ok("PATCH", `/users/${student.id}`, { classGroupIds: [] });
    // Files: one verified, one refused at completion (its bytes are not what it declared).
    const ready = await uploadLocal(h, t, key, { contentType: "image/png", bytes: png() });
    expect(ready.completed?.statusCode).toBe(200);
    const refused = await uploadLocal(h, t, key, { contentType: "application/pdf", bytes: png() });
    expect(refused.completed?.json()).toMatchObject({ status: "failed", error: "content_type_mismatch" });
    await ok("PATCH", `/users/${student.id}`, { status: "suspended" });

    await deliverAll();
    received = receiver.received.map((r) => ({ headers: r.headers, body: JSON.parse(r.body) as Json }));

    const byType = new Map<string, Received[]>();
    for (const r of received)
      byType.set(r.body.type as string, [...(byType.get(r.body.type as string) ?? []), r]);
    // Each kind the tour caused arrived, and fits its schema.
    const caused = [
      "course_created",
      "course_published",
      "course_archived",
      "course_deleted",
      "user_created",
      "user_updated",
      "user_deactivated",
      "class_member_added",
      "user_tag_added",
      "user_tag_removed",
      "invite_sent",
      "invite_revoked",
      "invite_accepted",
      "enrollment_created",
      "lesson_completed",
      "module_completed",
      "enrollment_progressed",
      "enrollment_completed",
      "learning_path_enrolled",
      "learning_path_completed",
      "lesson_completion_reset",
      "enrollment_dropped",
      "quiz_submitted",
      "assignment_submitted",
      "assignment_graded",
      "grade_posted",
      "grade_updated",
      "course_grade_changed",
      "enrollment_expired",
      "settings_updated",
      "theme_activated",
      "invite_expired",
      "class_member_removed",
      "media_ready",
      "media_failed",
    ];
    expect([...byType.keys()].sort()).toEqual(expect.arrayContaining(caused));
    for (const r of received) expectValid(r.body.type as string, r.body);

    // The body names the event (not the delivery): GET /events/:id reads the same payload back.
    /** The delivery of `type` whose data matches (deliveries arrive in any order). */
    const find = (type: string, match: Json) =>
      (byType.get(type) ?? []).find((r) =>
        Object.entries(match).every(([k, v]) => (r.body.data as Json)[k] === v),
      ) as Received;
    const created = find("enrollment_created", { enrollmentId: enrollment.id });
    expect(created.body.id).not.toBe(created.headers["webhook-id"]);
    const event = await ok("GET", `/events/${created.body.id}`);
    expect(event).toMatchObject({ id: created.body.id, type: "enrollment_created", data: created.body.data });

    // The learner, and the objects as the API answered them then.
    const data = created.body.data as Json;
    expect(data.userId).toBe(student.id);
    expect(data.enrollment).toEqual(enrollment);
    const user = find("user_created", { userId: student.id }).body.data as Json;
    const { signIn: _onlyInTheCreateAnswer, ...asRead } = student;
    expect(user.user).toEqual(asRead);
    expect((user.user as Json).classGroupIds).toEqual([group.id]);
    const completed = find("enrollment_completed", { enrollmentId: enrollment.id }).body.data as Json;
    expect(completed).toMatchObject({
      userId: student.id,
      enrollment: { status: "completed", progressPercent: 100 },
    });
    const lesson = find("lesson_completed", { lessonId: content.lessonIds[0] }).body.data as Json;
    expect(lesson).toMatchObject({
      userId: student.id,
      completion: { userId: student.id, lessonId: content.lessonIds[0] },
    });
    const quizData = find("quiz_submitted", { quizId: quiz.id }).body.data as Json;
    expect(quizData).toMatchObject({ userId: student.id, attempt: { quizId: quiz.id, status: "graded" } });
    const archived = find("course_archived", { courseId: course.id }).body.data as Json;
    expect(archived.course).toMatchObject({ id: course.id, status: "archived" });
    const revoked = find("invite_revoked", { inviteId: invite.id }).body.data as Json;
    expect(revoked.invite).toMatchObject({ id: invite.id, status: "revoked" });
    const welcomed = find("invite_accepted", { inviteId: welcome.id }).body.data as Json;
    expect(welcomed.invite).toMatchObject({
      id: welcome.id,
      status: "accepted",
      acceptedUserId: welcomed.userId,
    });
    const lapsed = find("invite_expired", { inviteId: lapsing.id }).body.data as Json;
    expect(lapsed.invite).toMatchObject({ id: lapsing.id, status: "expired" });
    const file = find("media_ready", { mediaId: ready.media.id }).body.data as Json;
    expect(file.media).toMatchObject({ id: ready.media.id, status: "ready", url: null, urlExpiresAt: null });
    const failedFile = find("media_failed", { mediaId: refused.media.id }).body.data as Json;
    expect(failedFile.media).toMatchObject({ status: "failed", error: failedFile.error });
    const dropped = find("enrollment_dropped", { enrollmentId: enrollment.id }).body.data as Json;
    expect(dropped).toMatchObject({
      mode: "drop",
      userId: student.id,
      enrollment: { id: enrollment.id, status: "dropped" },
    });
  });
});
