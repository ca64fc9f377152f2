import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { platformEvents, profileFields, userProfileValues } from "../../db/schema/index.js";
import { fieldsOf, type Method, useApi } from "../../test-support/api.js";
import {
  adminCookie,
  bearer,
  json,
  makeKey,
  makeTenant,
  roleCookie,
  type TestTenant,
} from "../../test-support/harness.js";

const { h, tenants, call } = useApi({
  env: { PLAN_STUDENT_LIMITS: JSON.stringify({ free: 1000 }) },
  tenants: 2,
});
const [a, b] = tenants;
let cookieA: string;
let cookieB: string;

beforeAll(async () => {
  cookieA = await adminCookie(h, a);
  cookieB = await adminCookie(h, b);
});

const A = (method: Method, url: string, payload?: unknown) => call(a, cookieA, method, url, payload);

async function field(t: TestTenant, cookie: string, body: Record<string, unknown>) {
  const res = await call(t, cookie, "POST", "/profile-fields", body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

describe("profile field definitions", () => {
  it("creates, reads, lists in order, changes and deletes; key and type never change", async () => {
    const t = await makeTenant(h);
    const c = await adminCookie(h, t);
    const first = await field(t, c, {
      key: "student_number",
      label: "Matrícula",
      type: "text",
      required: true,
    });
    expect(first).toMatchObject({
      key: "student_number",
      type: "text",
      required: true,
      unique: false,
      options: null,
      validation: null,
      position: 1,
      status: "active",
    });
    const second = await field(t, c, {
      key: "shift",
      label: "Turno",
      type: "select",
      options: [
        { value: "morning", label: "Manhã" },
        { value: "evening", label: "Noite" },
      ],
    });
    expect(second.position).toBe(2);
    const list = await call(t, c, "GET", "/profile-fields");
    expect(list.json().data.map((f: { key: string }) => f.key)).toEqual(["student_number", "shift"]);
    expect(list.json().pagination).toMatchObject({ total: 2, totalRelation: "eq" });
    // One filter reads its counter; both count their matches (up to the cap).
    for (const [query, total] of [
      ["type=select", 1],
      ["status=active", 2],
      ["status=archived", 0],
      ["status=active&type=select", 1],
      ["status=archived&type=select", 0],
    ] as const) {
      const filtered = (await call(t, c, "GET", `/profile-fields?${query}`)).json();
      expect(filtered.pagination, query).toMatchObject({ total, totalRelation: "eq" });
      expect(filtered.data.length, query).toBe(total);
    }
    expect((await call(t, c, "GET", `/profile-fields/${first.id}`)).json()).toEqual(first);

    const patched = await call(t, c, "PATCH", `/profile-fields/${first.id}`, {
      label: "Número",
      required: false,
    });
    expect(patched.json()).toMatchObject({ label: "Número", required: false, key: "student_number" });
    for (const body of [{ key: "other" }, { type: "number" }]) {
      const res = await call(t, c, "PATCH", `/profile-fields/${first.id}`, body);
      expect(res.statusCode).toBe(400);
      expect(fieldsOf(res)).toEqual(Object.keys(body));
    }
    const reordered = await call(t, c, "PUT", "/profile-fields/order", { ids: [second.id, first.id] });
    expect(reordered.statusCode).toBe(200);
    expect(reordered.json().data.map((f: { key: string; position: number }) => [f.key, f.position])).toEqual([
      ["shift", 1],
      ["student_number", 2],
    ]);
    const partial = await call(t, c, "PUT", "/profile-fields/order", { ids: [second.id] });
    expect(partial.statusCode).toBe(400);
    expect(fieldsOf(partial)).toEqual(["ids"]);

    expect((await call(t, c, "DELETE", `/profile-fields/${first.id}`)).statusCode).toBe(204);
    expect((await call(t, c, "GET", `/profile-fields/${first.id}`)).statusCode).toBe(404);
  });

  it("refuses inconsistent definitions, naming the field, and a key in use with 409", async () => {
    await field(a, cookieA, { key: "taken_key", label: "X", type: "text" });
    const dup = await A("POST", "/profile-fields", { key: "taken_key", label: "Y", type: "number" });
    expect(dup.statusCode).toBe(409);
    const cases: [Record<string, unknown>, string[]][] = [
      [{ key: "s1", label: "S", type: "select" }, ["options"]],
      [{ key: "s2", label: "S", type: "text", options: [{ value: "a", label: "A" }] }, ["options"]],
      [
        {
          key: "s3",
          label: "S",
          type: "select",
          options: [
            { value: "a", label: "A" },
            { value: "a", label: "B" },
          ],
        },
        ["options[1].value"],
      ],
      [
        { key: "m1", label: "M", type: "multiselect", options: [{ value: "a", label: "A" }], unique: true },
        ["unique"],
      ],
      [{ key: "p1", label: "P", type: "text", validation: { pattern: "(a)\\1" } }, ["validation.pattern"]],
      [{ key: "p2", label: "P", type: "text", validation: { pattern: "([a-z" } }, ["validation.pattern"]],
      [{ key: "n1", label: "N", type: "number", validation: { min: 5, max: 1 } }, ["validation.min"]],
      [{ key: "n2", label: "N", type: "number", validation: { pattern: "^1$" } }, ["validation.pattern"]],
      [{ key: "Bad-Key", label: "B", type: "text" }, ["key"]],
      [{ key: "ok_key", label: "B", type: "colour" }, ["type"]],
    ];
    for (const [body, fields] of cases) {
      const res = await A("POST", "/profile-fields", body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(fieldsOf(res), JSON.stringify(body)).toEqual(fields);
    }
  });

  it("allows at most 100 definitions per institution (409 for the next)", async () => {
    const t = await makeTenant(h);
    await h.database.db.insert(profileFields).values(
      Array.from({ length: 100 }, (_, i) => ({
        tenantId: t.id,
        key: `f${i}x`,
        label: "F",
        type: "text",
        position: i + 1,
      })),
    );
    const res = await call(t, await adminCookie(h, t), "POST", "/profile-fields", {
      key: "one_more",
      label: "X",
      type: "text",
    });
    expect(res.statusCode).toBe(409);
  });

  it("is another institution's business: its ids are 404 and stay unchanged", async () => {
    const theirs = await field(b, cookieB, { key: "code", label: "Code", type: "text" });
    for (const [method, body] of [
      ["GET", undefined],
      ["PATCH", { label: "Hacked" }],
      ["DELETE", undefined],
    ] as const) {
      expect((await A(method, `/profile-fields/${theirs.id}`, body)).statusCode, method).toBe(404);
    }
    expect((await call(b, cookieB, "GET", `/profile-fields/${theirs.id}`)).json()).toEqual(theirs);
    const order = await A("PUT", "/profile-fields/order", { ids: [theirs.id] });
    expect(order.statusCode).toBe(400);
  });

  it("needs settings:write or an administrator to change, settings:read or staff to read", async () => {
    const reader = await makeKey(h, a, ["settings:read"]);
    const headers = { host: a.host, ...bearer(reader) };
    expect(
      (await h.inject({ method: "GET", url: "/api/institution/profile-fields", headers })).statusCode,
    ).toBe(200);
    const refused = await h.inject({
      method: "POST",
      url: "/api/institution/profile-fields",
      headers: { ...headers, ...json },
      payload: { key: "nope", label: "N", type: "text" },
    });
    expect(refused.statusCode).toBe(403);
    const teacher = await roleCookie(h, a, "teacher");
    expect((await call(a, teacher, "GET", "/profile-fields")).statusCode).toBe(200);
    expect(
      (await call(a, teacher, "POST", "/profile-fields", { key: "nope", label: "N", type: "text" }))
        .statusCode,
    ).toBe(403);
  });
});

describe("profile values on users", () => {
  let t: TestTenant;
  let c: string;
  let ids: Record<string, string>;
  const U = (method: Method, url: string, payload?: unknown) => call(t, c, method, url, payload);
  const create = (email: string, profile?: Record<string, unknown>) =>
    U("POST", "/users", {
      name: email,
      email,
      role: "student",
      ...(profile ? { profileFields: profile } : {}),
    });

  beforeAll(async () => {
    t = await makeTenant(h);
    c = await adminCookie(h, t);
    ids = {};
    const defs = [
      {
        key: "student_number",
        label: "Matrícula",
        type: "text",
        required: true,
        unique: true,
        validation: { pattern: "[0-9]{8}" },
      },
      { key: "age", label: "Idade", type: "number", validation: { min: 10, max: 120 } },
      {
        key: "shift",
        label: "Turno",
        type: "select",
        options: [
          { value: "morning", label: "M" },
          { value: "evening", label: "N" },
        ],
      },
      {
        key: "languages",
        label: "Línguas",
        type: "multiselect",
        options: [
          { value: "pt", label: "PT" },
          { value: "en", label: "EN" },
        ],
      },
      { key: "birthday", label: "Nascimento", type: "date" },
      { key: "newsletter", label: "Newsletter", type: "checkbox" },
    ];
    for (const d of defs) ids[d.key] = (await field(t, c, d)).id;
  });

  it("creation enforces required, type, options and validation, naming each field; a good user carries its values", async () => {
    const bad = await create("bad@x.test", {
      age: "twelve",
      shift: "night",
      languages: ["pt", "de"],
      birthday: "2026-02-30",
      nope: 1,
    });
    expect(bad.statusCode).toBe(400);
    expect(fieldsOf(bad)).toEqual([
      "profileFields.age",
      "profileFields.birthday",
      "profileFields.languages",
      "profileFields.nope",
      "profileFields.shift",
      "profileFields.student_number",
    ]);
    const pattern = await create("bad2@x.test", { student_number: "12ab5678", age: 5 });
    expect(fieldsOf(pattern)).toEqual(["profileFields.age", "profileFields.student_number"]);

    const ok = await create("ana@x.test", {
      student_number: " 20260001 ",
      age: 17,
      shift: "evening",
      languages: ["en", "pt"],
      birthday: "2009-05-01",
      newsletter: true,
    });
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json().profileFields).toEqual({
      student_number: "20260001",
      age: 17,
      shift: "evening",
      languages: ["en", "pt"],
      birthday: "2009-05-01",
      newsletter: true,
    });
    expect((await U("GET", `/users/${ok.json().id}`)).json().profileFields).toEqual(ok.json().profileFields);
  });

  it("unique values are the database's to enforce: a taken value is 409 naming the field, even in concurrent requests", async () => {
    await create("first@x.test", { student_number: "11112222" });
    const again = await create("second@x.test", { student_number: "11112222" });
    expect(again.statusCode).toBe(409);
    expect(fieldsOf(again)).toEqual(["profileFields.student_number"]);
    const [x, y] = await Promise.all([
      create("race1@x.test", { student_number: "33334444" }),
      create("race2@x.test", { student_number: "33334444" }),
    ]);
    expect([x.statusCode, y.statusCode].sort()).toEqual([201, 409]);
    const rows = await h.database.db
      .select()
      .from(userProfileValues)
      .where(and(eq(userProfileValues.tenantId, t.id), eq(userProfileValues.matchKey, "33334444")));
    expect(rows).toHaveLength(1);
  });

  it("updates change only the given values, refuse removing a required one, and name profileFields in user_updated", async () => {
    const user = (await create("upd@x.test", { student_number: "55556666", age: 30 })).json();
    const res = await U("PATCH", `/users/${user.id}`, { profileFields: { age: 31, shift: "morning" } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().profileFields).toEqual({ student_number: "55556666", age: 31, shift: "morning" });
    const removed = await U("PATCH", `/users/${user.id}`, { profileFields: { shift: null } });
    expect(removed.json().profileFields).toEqual({ student_number: "55556666", age: 31 });
    const required = await U("PATCH", `/users/${user.id}`, { profileFields: { student_number: null } });
    expect(required.statusCode).toBe(400);
    expect(fieldsOf(required)).toEqual(["profileFields.student_number"]);
    const clash = await U("PATCH", `/users/${user.id}`, { profileFields: { student_number: "11112222" } });
    expect(clash.statusCode).toBe(409);
    // Its own value again is no clash and no change.
    const same = await U("PATCH", `/users/${user.id}`, { profileFields: { student_number: "55556666" } });
    expect(same.statusCode).toBe(200);
    const updates = (
      await h.database.db
        .select()
        .from(platformEvents)
        .where(and(eq(platformEvents.tenantId, t.id), eq(platformEvents.type, "user_updated")))
    ).filter((e) => (e.data as { userId: string }).userId === user.id);
    // Two changes (values set, then one removed); the refused and the unchanged PATCH emitted nothing.
    expect(updates.map((e) => (e.data as { changedFields: string[] }).changedFields)).toEqual([
      ["profileFields"],
      ["profileFields"],
    ]);
  });

  it("bulk creation checks each item: missing required, bad values and duplicates within the batch fail alone", async () => {
    const res = await U("POST", "/users/bulk", {
      items: [
        {
          name: "B0",
          email: "b0@x.test",
          role: "student",
          profileFields: { student_number: "70000001", age: 20 },
        },
        { name: "B1", email: "b1@x.test", role: "student" },
        { name: "B2", email: "b2@x.test", role: "student", profileFields: { student_number: "70000001" } },
        { name: "B3", email: "b3@x.test", role: "student", profileFields: { student_number: "11112222" } },
        {
          name: "B4",
          email: "b4@x.test",
          role: "student",
          profileFields: { student_number: "70000004", age: 500 },
        },
        { name: "B5", email: "b5@x.test", role: "student", profileFields: { student_number: "70000005" } },
      ],
    });
    expect(res.statusCode).toBe(200);
    const results = res.json().results;
    expect(results.map((r: { status: string }) => r.status)).toEqual([
      "created",
      "failed",
      "failed",
      "failed",
      "failed",
      "created",
    ]);
    expect(results[0].user.profileFields).toEqual({ student_number: "70000001", age: 20 });
    expect(results[1].error.details.map((d: { field: string }) => d.field)).toEqual([
      "items[1].profileFields.student_number",
    ]);
    expect(results[2].error.error).toBe("conflict");
    expect(results[3].error.error).toBe("conflict");
    expect(results[4].error.details.map((d: { field: string }) => d.field)).toEqual([
      "items[4].profileFields.age",
    ]);
  });

  it("invitation acceptance creates the account without the required values, which the invitee cannot give", async () => {
    const invite = await U("POST", "/invites", { email: "invitee@x.test", name: "Invitee" });
    expect(invite.statusCode, invite.body).toBe(201);
    const accepted = await h.inject({
      method: "POST",
      url: "/api/invites/accept",
      headers: { host: t.host, ...json },
      payload: { token: invite.json().token, password: "uma senha longa e boa" },
    });
    expect(accepted.statusCode, accepted.body).toBe(201);
    expect(accepted.json().user.profileFields).toEqual({});
    // Staff completing the profile later are checked as ever.
    const bad = await U("PATCH", `/users/${accepted.json().user.id}`, {
      profileFields: { student_number: "x" },
    });
    expect(fieldsOf(bad)).toEqual(["profileFields.student_number"]);
  });

  it("the users list filters by profile.<key>, with exact totals; unknown keys are 400", async () => {
    await create("f1@x.test", { student_number: "80000001", shift: "evening", languages: ["pt"], age: 40 });
    await create("f2@x.test", { student_number: "80000002", shift: "evening", languages: ["en", "pt"] });
    await create("f3@x.test", { student_number: "80000003", shift: "morning", languages: ["en"], age: 40 });
    const emails = async (query: string) => {
      const res = await U("GET", `/users?perPage=100&${query}`);
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json();
      expect(body.pagination.total).toBe(body.data.length);
      return body.data
        .map((u: { email: string }) => u.email)
        .filter((e: string) => e.startsWith("f"))
        .sort();
    };
    expect(await emails("profile.shift=evening")).toEqual(["f1@x.test", "f2@x.test"]);
    expect(await emails("profile.languages=en")).toEqual(["f2@x.test", "f3@x.test"]);
    expect(await emails("profile.age=40&profile.shift=morning")).toEqual(["f3@x.test"]);
    expect(await emails("profile.student_number=%2080000002%20")).toEqual(["f2@x.test"]);
    const unknown = await U("GET", "/users?profile.nope=1");
    expect(unknown.statusCode).toBe(400);
    expect(fieldsOf(unknown)).toEqual(["profile.nope"]);
    expect((await U("GET", "/users?profile.age=old")).statusCode).toBe(400);
    expect((await U("GET", "/users?profilex=1")).statusCode).toBe(400);
  });

  it("archiving hides a field's values and its filter and stops requiring it; unique needs distinct values; delete drops values", async () => {
    const t2 = await makeTenant(h);
    const c2 = await adminCookie(h, t2);
    const code = await field(t2, c2, { key: "code", label: "Code", type: "text", required: true });
    const make = (email: string, profile?: object) =>
      call(t2, c2, "POST", "/users", {
        name: email,
        email,
        role: "teacher",
        ...(profile ? { profileFields: profile } : {}),
      });
    const one = (await make("one@x.test", { code: "A1" })).json();
    await make("two@x.test", { code: "a1 " });
    const unique = await call(t2, c2, "PATCH", `/profile-fields/${code.id}`, { unique: true });
    expect(unique.statusCode).toBe(409);
    expect((await call(t2, c2, "GET", `/profile-fields/${code.id}`)).json().unique).toBe(false);

    await call(t2, c2, "PATCH", `/profile-fields/${code.id}`, { status: "archived" });
    expect((await call(t2, c2, "GET", `/users/${one.id}`)).json().profileFields).toEqual({});
    expect((await make("three@x.test")).statusCode).toBe(201);
    expect((await call(t2, c2, "GET", "/users?profile.code=a1")).statusCode).toBe(400);
    await call(t2, c2, "PATCH", `/profile-fields/${code.id}`, { status: "active" });
    expect((await call(t2, c2, "GET", `/users/${one.id}`)).json().profileFields).toEqual({ code: "A1" });

    expect((await call(t2, c2, "DELETE", `/profile-fields/${code.id}`)).statusCode).toBe(204);
    const left = await h.database.db
      .select()
      .from(userProfileValues)
      .where(eq(userProfileValues.tenantId, t2.id));
    expect(left).toEqual([]);
  });
});
