import { randomUUID } from "node:crypto";
import { and, eq, like } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import {
  classGroups,
  platformEvents,
  questionBanks,
  questions,
  tagAssignments,
  tenantCounters,
  webhookDeliveries,
} from "../../db/schema/index.js";
import { callerFor, useApi, WHOLE_PATHS } from "../../test-support/api.js";
import {
  adminCookie,
  bearer,
  json,
  makeKey,
  makeTenant,
  makeUser,
  roleCookie,
  type TestTenant,
} from "../../test-support/harness.js";
import { createAutomation } from "../automations/service.js";
import { createCourse } from "../courses/service.js";

const { h, tenants } = useApi({ env: { PLAN_STUDENT_LIMITS: '{"free":1000}' }, tenants: 2 });
const [a, b] = tenants;
let keyA: string;
let keyB: string;

beforeAll(async () => {
  keyA = await makeKey(h, a, ["tags:read", "tags:write", "users:write"]);
  keyB = await makeKey(h, b, ["tags:read", "tags:write"]);
});
const call = callerFor(h, () => ({ tenant: a, credential: keyA }), WHOLE_PATHS);

async function makeTag(
  appliesTo: string[],
  key = keyA,
  tenant = a,
  name = `Tag ${randomUUID().slice(0, 8)}`,
) {
  const res = await call("POST", "/api/institution/tags", { name, appliesTo }, key, tenant);
  expect(res.statusCode).toBe(201);
  return res.json() as { id: string; name: string };
}

const attach = (tagId: string, resourceType: string, ids: string[], key = keyA, tenant = a) =>
  call("POST", `/api/institution/tags/${tagId}/resources`, { resourceType, ids }, key, tenant);
const remove = (tagId: string, resourceType: string, ids: string[], key = keyA, tenant = a) =>
  call("POST", `/api/institution/tags/${tagId}/resources/remove`, { resourceType, ids }, key, tenant);

const assignmentsOf = (tenantId: string, tagId: string) =>
  h.database.db
    .select()
    .from(tagAssignments)
    .where(and(eq(tagAssignments.tenantId, tenantId), eq(tagAssignments.tagId, tagId)));

const tagEvents = (tenantId: string, tagId: string) =>
  h.database.db
    .select()
    .from(platformEvents)
    .where(and(eq(platformEvents.tenantId, tenantId), like(platformEvents.type, "user_tag_%")))
    .then((rows) => rows.filter((r) => (r.data as { tagId: string }).tagId === tagId));

const usage = async (tagId: string) =>
  (await call("GET", `/api/institution/tags/${tagId}`)).json().usageCount as number;

async function makeClass(tenant: TestTenant) {
  const [row] = await h.database.db
    .insert(classGroups)
    .values({ tenantId: tenant.id, name: "Turma" })
    .returning({ id: classGroups.id });
  return (row as { id: string }).id;
}

async function makeQuestion(tenant: TestTenant) {
  const [bank] = await h.database.db
    .insert(questionBanks)
    .values({ tenantId: tenant.id, title: "Banco" })
    .returning({ id: questionBanks.id });
  const [row] = await h.database.db
    .insert(questions)
    .values({ tenantId: tenant.id, bankId: (bank as { id: string }).id, type: "true_false", stem: "2+2=4?" })
    .returning({ id: questions.id });
  return (row as { id: string }).id;
}

describe("attaching a tag to users", () => {
  it("attaches existing users, reports unknown and foreign ids alike, emits one event per user tagged", async () => {
    const tag = await makeTag(["user"]);
    const u1 = await makeUser(h, a, "student");
    const u2 = await makeUser(h, a, "teacher");
    const foreign = await makeUser(h, b, "student");
    const unknown = randomUUID();

    const res = await attach(tag.id, "user", [u1.id, unknown, u2.id, foreign.id, u1.id.toUpperCase()]);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ attached: 2, alreadyAttached: 0, notFound: [unknown, foreign.id] });

    const rows = await assignmentsOf(a.id, tag.id);
    expect(rows.map((r) => r.resourceId).sort()).toEqual([u1.id, u2.id].sort());
    expect(rows.every((r) => r.resourceType === "user")).toBe(true);
    expect(await usage(tag.id)).toBe(2);

    const events = await tagEvents(a.id, tag.id);
    expect(events).toHaveLength(2);
    const byUser = new Map(events.map((e) => [(e.data as { userId: string }).userId, e]));
    for (const user of [u1, u2]) {
      const event = byUser.get(user.id);
      expect(event?.type).toBe("user_tag_added");
      expect(event?.data).toEqual({ userId: user.id, tagId: tag.id, tagName: tag.name });
      expect(event?.subject).toEqual({ id: user.id, name: user.name, email: user.email, role: user.role });
      expect(event?.actor).toMatchObject({ type: "api_key" });
    }
    expect(await tagEvents(b.id, tag.id)).toEqual([]);

    // Idempotent: nothing new, no new events.
    const again = await attach(tag.id, "user", [u2.id, u1.id]);
    expect(again.json()).toEqual({ attached: 0, alreadyAttached: 2, notFound: [] });
    expect(await assignmentsOf(a.id, tag.id)).toHaveLength(2);
    expect(await tagEvents(a.id, tag.id)).toHaveLength(2);
    expect(await usage(tag.id)).toBe(2);
  });

  it("hands each event to the automations listening for it, in the same transaction", async () => {
    const t = await makeTenant(h);
    const key = await makeKey(h, t, ["tags:write"]);
    const automation = await createAutomation(
      { db: h.database.db, config: h.config, resolve: h.ctx.resolve },
      t.id,
      {
        name: "Welcome the tagged",
        trigger: { event: "user_tag_added" },
        condition: { all: [{ field: "user.role", op: "eq", value: "student" }] },
        action: { type: "send_webhook", url: "https://93.184.215.14/hook" },
      },
      `http://${t.host}`,
    );
    const tag = await makeTag(["user"], key, t);
    const students = [await makeUser(h, t, "student"), await makeUser(h, t, "student")];
    const teacher = await makeUser(h, t, "teacher");
    const res = await attach(tag.id, "user", [...students.map((u) => u.id), teacher.id], key, t);
    expect(res.json().attached).toBe(3);
    expect(await tagEvents(t.id, tag.id)).toHaveLength(3);
    const deliveries = await h.database.db
      .select()
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.tenantId, t.id), eq(webhookDeliveries.automationId, automation.id)));
    expect(deliveries.map((d) => d.eventType)).toEqual(["user_tag_added", "user_tag_added"]);
  });

  it("records the session user as the actor", async () => {
    const tag = await makeTag(["user"]);
    const u = await makeUser(h, a, "student");
    const res = await h.inject({
      method: "POST",
      url: `/api/institution/tags/${tag.id}/resources`,
      headers: { host: a.host, ...json, cookie: await adminCookie(h, a) },
      payload: { resourceType: "user", ids: [u.id] },
    });
    expect(res.statusCode).toBe(200);
    const [event] = await tagEvents(a.id, tag.id);
    expect(event?.actor).toEqual({ type: "user", id: a.adminUserId });
  });

  it("refuses a resource type outside the tag's appliesTo with 400, writing nothing", async () => {
    const tag = await makeTag(["course"]);
    const u = await makeUser(h, a, "student");
    const res = await attach(tag.id, "user", [u.id]);
    expect(res.statusCode).toBe(400);
    expect(res.json().details).toEqual([
      { field: "resourceType", message: "This tag does not apply to user." },
    ]);
    expect(await assignmentsOf(a.id, tag.id)).toEqual([]);
    expect(await tagEvents(a.id, tag.id)).toEqual([]);
  });

  it.each([
    ["ids", { resourceType: "user", ids: [] }],
    ["ids[0]", { resourceType: "user", ids: ["not-a-uuid"] }],
    ["resourceType", { resourceType: "media", ids: [randomUUID()] }],
    ["resourceType", { ids: [randomUUID()] }],
    ["ids", { resourceType: "user" }],
    ["force", { resourceType: "user", ids: [randomUUID()], force: true }],
    ["ids", { resourceType: "user", ids: Array.from({ length: 1001 }, () => randomUUID()) }],
  ])("refuses a body with a bad %s (400)", async (field, payload) => {
    const tag = await makeTag(["user"]);
    for (const url of [
      `/api/institution/tags/${tag.id}/resources`,
      `/api/institution/tags/${tag.id}/resources/remove`,
    ]) {
      const res = await call("POST", url, payload);
      expect(res.statusCode).toBe(400);
      expect(res.json().details.map((d: { field: string }) => d.field)).toContain(field);
    }
  });

  it("takes 1000 ids in one request", async () => {
    const tag = await makeTag(["user"]);
    const u = await makeUser(h, a, "student");
    const ids = [u.id, ...Array.from({ length: 999 }, () => randomUUID())];
    const res = await attach(tag.id, "user", ids);
    expect(res.statusCode).toBe(200);
    expect(res.json().attached).toBe(1);
    expect(res.json().notFound).toHaveLength(999);
  });
});

describe("attaching to other resource types", () => {
  it("tags courses, classes and questions of the institution only", async () => {
    const tag = await makeTag(["course", "class", "question"]);
    const course = (await createCourse(h.database.db, a.id, { title: "Física" })).id;
    const theirCourse = (await createCourse(h.database.db, b.id, { title: "Física" })).id;
    const klass = await makeClass(a);
    const theirClass = await makeClass(b);
    const question = await makeQuestion(a);
    const theirQuestion = await makeQuestion(b);

    expect((await attach(tag.id, "course", [course, theirCourse])).json()).toEqual({
      attached: 1,
      alreadyAttached: 0,
      notFound: [theirCourse],
    });
    expect((await attach(tag.id, "class", [klass, theirClass])).json().notFound).toEqual([theirClass]);
    expect((await attach(tag.id, "question", [question, theirQuestion])).json().notFound).toEqual([
      theirQuestion,
    ]);
    // An id of one type is not found as another.
    expect((await attach(tag.id, "course", [klass])).json().notFound).toEqual([klass]);
    expect(await usage(tag.id)).toBe(3);
    // No user events for other types.
    expect(await tagEvents(a.id, tag.id)).toEqual([]);

    const list = await call("GET", `/api/institution/tags/${tag.id}/resources?sort=createdAt`);
    expect(list.statusCode).toBe(200);
    expect(list.json().pagination).toEqual({
      page: 1,
      perPage: 20,
      total: 3,
      totalPages: 1,
      totalRelation: "eq",
    });
    expect(
      list
        .json()
        .data.map((r: { resourceType: string; resourceId: string }) => [r.resourceType, r.resourceId]),
    ).toEqual([
      ["course", course],
      ["class", klass],
      ["question", question],
    ]);
    expect(Object.keys(list.json().data[0]).sort()).toEqual(["createdAt", "resourceId", "resourceType"]);

    const onlyClasses = await call("GET", `/api/institution/tags/${tag.id}/resources?resourceType=class`);
    expect(onlyClasses.json().data).toEqual([
      { resourceType: "class", resourceId: klass, createdAt: expect.any(String) },
    ]);
    expect(onlyClasses.json().pagination.total).toBe(1);
    const newest = await call("GET", `/api/institution/tags/${tag.id}/resources?perPage=1`);
    expect(newest.json().data[0].resourceId).toBe(question);
    expect(newest.json().pagination).toEqual({
      page: 1,
      perPage: 1,
      total: 3,
      totalPages: 3,
      totalRelation: "eq",
    });
    expect(
      (await call("GET", `/api/institution/tags/${tag.id}/resources?resourceType=media`)).statusCode,
    ).toBe(400);
  });

  it("is staff material: a student's session reads tags but not what they are attached to", async () => {
    const tag = await makeTag(["course"]);
    const draft = await createCourse(h.database.db, a.id, { title: "Draft", status: "draft" });
    expect((await attach(tag.id, "course", [draft.id])).statusCode).toBe(200);
    const student = await roleCookie(h, a, "student");
    const read = (url: string) =>
      h.inject({ method: "GET", url, headers: { host: a.host, cookie: student } });
    expect((await read("/api/institution/tags")).statusCode).toBe(200);
    const resources = await read(`/api/institution/tags/${tag.id}/resources`);
    expect(resources.statusCode).toBe(403);
    expect(resources.body).not.toContain(draft.id);
    const teacher = await roleCookie(h, a, "teacher");
    const staff = await h.inject({
      method: "GET",
      url: `/api/institution/tags/${tag.id}/resources`,
      headers: { host: a.host, cookie: teacher },
    });
    expect(staff.json().data).toEqual([
      { resourceType: "course", resourceId: draft.id, createdAt: expect.any(String) },
    ]);
  });
});

describe("removing a tag from resources", () => {
  it("detaches what is there, ignores the rest, and emits one event per user untagged", async () => {
    const tag = await makeTag(["user"]);
    const u1 = await makeUser(h, a, "student");
    const u2 = await makeUser(h, a, "student");
    const u3 = await makeUser(h, a, "student");
    await attach(tag.id, "user", [u1.id, u2.id, u3.id]);

    const res = await remove(tag.id, "user", [u1.id, u3.id, randomUUID(), u1.id]);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ removed: 2 });
    expect((await assignmentsOf(a.id, tag.id)).map((r) => r.resourceId)).toEqual([u2.id]);
    expect(await usage(tag.id)).toBe(1);

    const removed = (await tagEvents(a.id, tag.id)).filter((e) => e.type === "user_tag_removed");
    expect(removed.map((e) => (e.data as { userId: string }).userId).sort()).toEqual([u1.id, u3.id].sort());
    expect(removed[0]?.data).toMatchObject({ tagId: tag.id, tagName: tag.name });

    const again = await remove(tag.id, "user", [u1.id]);
    expect(again.json()).toEqual({ removed: 0 });
    expect((await tagEvents(a.id, tag.id)).filter((e) => e.type === "user_tag_removed")).toHaveLength(2);
  });
});

describe("a tag's life and its resources' lives", () => {
  it("deleting a tag detaches it everywhere and leaves no counter behind", async () => {
    const tag = await makeTag(["user", "course"]);
    const u = await makeUser(h, a, "student");
    const course = (await createCourse(h.database.db, a.id, { title: "Química" })).id;
    await attach(tag.id, "user", [u.id]);
    await attach(tag.id, "course", [course]);
    expect(await usage(tag.id)).toBe(2);

    expect((await call("DELETE", `/api/institution/tags/${tag.id}`)).statusCode).toBe(204);
    expect(await assignmentsOf(a.id, tag.id)).toEqual([]);
    const counters = await h.database.db
      .select()
      .from(tenantCounters)
      .where(
        and(
          eq(tenantCounters.tenantId, a.id),
          eq(tenantCounters.counter, `tag_assignments:tag_id:${tag.id}`),
        ),
      );
    expect(counters).toEqual([]);
  });

  it("deleting a user deletes the user's assignments and brings the usage count down", async () => {
    const tag = await makeTag(["user"]);
    const keep = await makeUser(h, a, "student");
    const gone = await makeUser(h, a, "student");
    await attach(tag.id, "user", [keep.id, gone.id]);
    expect(await usage(tag.id)).toBe(2);

    const res = await h.inject({
      method: "DELETE",
      url: `/api/institution/users/${gone.id}`,
      headers: { host: a.host, ...bearer(keyA) },
    });
    expect(res.statusCode).toBe(204);
    expect((await assignmentsOf(a.id, tag.id)).map((r) => r.resourceId)).toEqual([keep.id]);
    expect(await usage(tag.id)).toBe(1);
    const list = await call("GET", `/api/institution/tags/${tag.id}/resources`);
    expect(list.json().data.map((r: { resourceId: string }) => r.resourceId)).toEqual([keep.id]);
    expect(list.json().pagination.total).toBe(1);
  });

  it("refuses to take a type out of appliesTo while the tag is on resources of it", async () => {
    const tag = await makeTag(["user", "course"]);
    const u = await makeUser(h, a, "student");
    await attach(tag.id, "user", [u.id]);
    const refused = await h.inject({
      method: "PATCH",
      url: `/api/institution/tags/${tag.id}`,
      headers: { host: a.host, ...json, ...bearer(keyA), "accept-language": "en-US" },
      payload: { appliesTo: ["course"] },
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toBe("conflict");
    expect(refused.json().message).toContain("user");
    // Dropping an unused type is fine; after detaching, so is the other.
    const narrowed = await h.inject({
      method: "PATCH",
      url: `/api/institution/tags/${tag.id}`,
      headers: { host: a.host, ...json, ...bearer(keyA) },
      payload: { appliesTo: ["user"] },
    });
    expect(narrowed.json().appliesTo).toEqual(["user"]);
    await remove(tag.id, "user", [u.id]);
    const emptied = await h.inject({
      method: "PATCH",
      url: `/api/institution/tags/${tag.id}`,
      headers: { host: a.host, ...json, ...bearer(keyA) },
      payload: { appliesTo: ["course"] },
    });
    expect(emptied.statusCode).toBe(200);
  });
});

describe("another institution", () => {
  it("cannot list, attach to or detach from a tag it does not own, nor tag another institution's objects", async () => {
    const tagA = await makeTag(["user"]);
    const userA = await makeUser(h, a, "student");
    await attach(tagA.id, "user", [userA.id]);
    const eventsBefore = await tagEvents(a.id, tagA.id);

    const list = await call("GET", `/api/institution/tags/${tagA.id}/resources`, undefined, keyB, b);
    const unknownList = await call(
      "GET",
      `/api/institution/tags/${randomUUID()}/resources`,
      undefined,
      keyB,
      b,
    );
    expect(list.statusCode).toBe(404);
    expect(list.body).toBe(unknownList.body);
    expect((await attach(tagA.id, "user", [userA.id], keyB, b)).statusCode).toBe(404);
    expect((await remove(tagA.id, "user", [userA.id], keyB, b)).statusCode).toBe(404);
    expect((await assignmentsOf(a.id, tagA.id)).map((r) => r.resourceId)).toEqual([userA.id]);

    const tagB = await makeTag(["user"], keyB, b);
    const res = await attach(tagB.id, "user", [userA.id], keyB, b);
    expect(res.json()).toEqual({ attached: 0, alreadyAttached: 0, notFound: [userA.id] });
    expect(await assignmentsOf(b.id, tagB.id)).toEqual([]);
    expect((await remove(tagB.id, "user", [userA.id], keyB, b)).json()).toEqual({ removed: 0 });
    expect(await tagEvents(a.id, tagA.id)).toEqual(eventsBefore);
  });
});
