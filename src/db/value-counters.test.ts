import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { expireInvites } from "../modules/invites/expiry.js";
import { useApi } from "../test-support/api.js";
import { adminCookie, makeKey, makeUser, UNLIMITED_KEY } from "../test-support/harness.js";

/**
 * The value counters of migration 0057 and the invitations' clock-corrected totals: every total a list reports
 * for these filters must be what the rows say, after every kind of write, in both tenants, and a NULL bucket (a
 * message without a template, a multi-choice value) must neither fail the write nor name a counter.
 */

const { h, tenants, call } = useApi({
  env: { PLAN_STUDENT_LIMITS: JSON.stringify({ free: 1000 }) },
  tenants: 2,
});
const [a, b] = tenants;
let cookieA: string;
let keyA: string;
let cookieB: string;

beforeAll(async () => {
  cookieA = await adminCookie(h, a);
  cookieB = await adminCookie(h, b);
  keyA = await makeKey(h, a, [], UNLIMITED_KEY);
});

/** Counters of `prefix` in tenant A that disagree with the rows, as `counter: rows <> counter`. */
async function drift(prefix: string, truthOf: () => ReturnType<typeof sql>): Promise<string[]> {
  const truth = truthOf();
  const { rows } = (await h.database.db.execute(sql`
    WITH truth AS (${truth}),
    kept AS (
      SELECT counter, value::int AS value FROM tenant_counters
      WHERE tenant_id = ${a.id} AND counter LIKE ${`${prefix}%`} AND value <> 0)
    SELECT coalesce(t.counter, k.counter) || ': ' || coalesce(t.n, 0) || ' <> ' || coalesce(k.value, 0) AS off
    FROM truth t FULL JOIN kept k ON k.counter = t.counter
    WHERE t.n IS DISTINCT FROM k.value`)) as unknown as { rows: { off: string }[] };
  return rows.map((r) => r.off);
}

const total = async (cookie: string, tenant: typeof a, path: string) => {
  const res = await call(tenant, cookie, "GET", path);
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json();
  expect(body.pagination.totalRelation, path).toBe("eq");
  return body.pagination.total as number;
};

describe("users by one profile value", () => {
  const truth =
    () => sql`SELECT 'user_profile_values:field_id+match_key:' || field_id || ':' || match_key AS counter,
    count(*)::int AS n FROM user_profile_values WHERE tenant_id = ${a.id} AND match_key IS NOT NULL
    GROUP BY field_id, match_key`;

  it("counts holders through creation, change of value, a multi-choice field, and deletion of users and fields", async () => {
    for (const body of [
      { key: "campus", label: "Campus", type: "text" },
      {
        key: "langs",
        label: "Languages",
        type: "multiselect",
        options: [
          { value: "pt", label: "PT" },
          { value: "en", label: "EN" },
        ],
      },
    ]) {
      const res = await call(a, cookieA, "POST", "/profile-fields", body);
      expect(res.statusCode, res.body).toBe(201);
    }
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await call(a, cookieA, "POST", "/users", {
        name: `U${i}`,
        email: `u${i}@a.test`,
        role: "teacher",
        profileFields: { campus: i < 3 ? "Main" : "North", langs: ["pt"] },
      });
      expect(res.statusCode, res.body).toBe(201);
      ids.push(res.json().id);
    }
    // Values are compared folded: "MAIN" holds the same value as "Main".
    expect(await total(cookieA, a, "/users?profile.campus=main")).toBe(3);
    expect(await total(cookieA, a, "/users?profile.campus=NORTH")).toBe(2);
    expect(await drift("user_profile_values:", truth)).toEqual([]);

    const moved = await call(a, cookieA, "PATCH", `/users/${ids[0]}`, { profileFields: { campus: "North" } });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(await total(cookieA, a, "/users?profile.campus=main")).toBe(2);
    expect(await total(cookieA, a, "/users?profile.campus=north")).toBe(3);

    expect((await call(a, cookieA, "DELETE", `/users/${ids[1]}`)).statusCode).toBe(204);
    expect(await total(cookieA, a, "/users?profile.campus=main")).toBe(1);
    expect(await drift("user_profile_values:", truth)).toEqual([]);

    // The other institution has no such field, and its counters are its own.
    expect((await call(b, cookieB, "GET", "/users?profile.campus=main")).statusCode).toBe(400);

    const fields = (await call(a, cookieA, "GET", "/profile-fields?perPage=100")).json().data as {
      id: string;
      key: string;
    }[];
    const campus = fields.find((f) => f.key === "campus") as { id: string };
    expect((await call(a, cookieA, "DELETE", `/profile-fields/${campus.id}`)).statusCode).toBe(204);
    expect(await drift("user_profile_values:", truth)).toEqual([]);
  });
});

describe("e-mail messages by template", () => {
  const truth = () => sql`SELECT 'email_messages:template_key:' || template_key AS counter, count(*)::int AS n
    FROM email_messages WHERE tenant_id = ${a.id} AND template_key IS NOT NULL GROUP BY template_key`;

  it("counts a template's messages exactly, and ad-hoc messages (no template) name no counter", async () => {
    const template = await call(a, keyA, "POST", "/email/templates", {
      key: "custom.weekly",
      locale: "pt-BR",
      subject: "Semana",
      bodyHtml: "<p>Olá {{name}}</p>",
      bodyText: "Olá {{name}}",
    });
    expect(template.statusCode, template.body).toBe(201);
    const users = await Promise.all([1, 2, 3].map(() => makeUser(h, a, "student")));
    const sent = await call(a, keyA, "POST", "/email/messages", {
      templateKey: "custom.weekly",
      userIds: users.map((u) => u.id),
    });
    expect(sent.statusCode, sent.body).toBe(202);
    const adHoc = await call(a, keyA, "POST", "/email/messages", {
      subject: "Aviso",
      bodyHtml: "<p>Olá</p>",
      bodyText: "Olá",
      userIds: [users[0]?.id],
    });
    expect(adHoc.statusCode, adHoc.body).toBe(202);
    expect(await total(cookieA, a, "/email/messages?templateKey=custom.weekly")).toBe(3);
    expect(await total(cookieA, a, "/email/messages?templateKey=custom.other")).toBe(0);
    // A status change (the worker's) leaves the template's counter alone.
    await h.database.db.execute(sql`UPDATE email_messages SET status = 'sent' WHERE tenant_id = ${a.id}`);
    expect(await total(cookieA, a, "/email/messages?templateKey=custom.weekly")).toBe(3);
    expect(await drift("email_messages:template_key:", truth)).toEqual([]);
    await h.database.db.execute(
      sql`DELETE FROM email_messages WHERE tenant_id = ${a.id} AND to_user_id = ${users[1]?.id}`,
    );
    expect(await total(cookieA, a, "/email/messages?templateKey=custom.weekly")).toBe(2);
    expect(await drift("email_messages:template_key:", truth)).toEqual([]);

    // A `since` alone on full pages: the counter less the messages before the date.
    const all = await total(cookieA, a, "/email/messages");
    expect(await total(cookieA, a, "/email/messages?since=2020-01-01T00:00:00Z&perPage=1")).toBe(all);
    await h.database.db.execute(sql`UPDATE email_messages SET created_at = '2022-01-01'
      WHERE tenant_id = ${a.id} AND to_user_id = ${users[0]?.id}`);
    expect(await total(cookieA, a, "/email/messages?since=2024-01-01T00:00:00Z&perPage=1")).toBe(all - 2);
    expect(await total(cookieA, a, "/email/messages?since=2024-01-01T00:00:00Z&perPage=1&page=9")).toBe(
      all - 2,
    );
    expect(await total(cookieA, a, "/email/messages?since=2999-01-01T00:00:00Z")).toBe(0);
  });
});

describe("pending and expired invitations", () => {
  it("are the stored counters corrected by what lapsed since the expiry pass, and the same after it", async () => {
    const t = tenants[1];
    const cookie = cookieB;
    for (let i = 0; i < 4; i++) {
      const res = await call(t, cookie, "POST", "/invites", { email: `i${i}@b.test`, role: "teacher" });
      expect(res.statusCode, res.body).toBe(201);
    }
    expect(await total(cookie, t, "/invites?status=pending")).toBe(4);
    expect(await total(cookie, t, "/invites?status=expired")).toBe(0);
    // Two lapse by the clock; no pass has stored it yet.
    await h.database.db.execute(sql`UPDATE invites SET expires_at = now() - interval '1 minute'
      WHERE tenant_id = ${t.id} AND email IN ('i0@b.test', 'i1@b.test')`);
    const listed = (await call(t, cookie, "GET", "/invites?status=pending")).json();
    expect(listed.data).toHaveLength(2);
    expect(await total(cookie, t, "/invites?status=pending")).toBe(2);
    expect(await total(cookie, t, "/invites?status=expired")).toBe(2);
    expect(await expireInvites(h.database.db)).toBeGreaterThanOrEqual(2);
    expect(await total(cookie, t, "/invites?status=pending")).toBe(2);
    expect(await total(cookie, t, "/invites?status=expired")).toBe(2);
    expect(await total(cookie, t, "/invites")).toBe(4);
  });
});
