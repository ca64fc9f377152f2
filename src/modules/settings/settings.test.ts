import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { institutionSettings, platformEvents, tenants } from "../../db/schema/index.js";
import { useApi } from "../../test-support/api.js";
import {
  adminCookie,
  bearer,
  json,
  makeKey,
  makeTenant,
  roleCookie,
  type TestTenant,
} from "../../test-support/harness.js";
import { DEFAULT_SETTINGS } from "./schemas.js";
import { getSettings, letterFor } from "./service.js";

const { h, tenants: testTenants } = useApi({ tenants: 2 });
const [a, b] = testTenants;
let adminA: string;

beforeAll(async () => {
  adminA = await adminCookie(h, a);
});

const URL = "/api/institution/settings";

const get = (t: TestTenant, headers: Record<string, string>) =>
  h.inject({ method: "GET", url: URL, headers: { host: t.host, ...headers } });

const patch = (payload: unknown, t: TestTenant = a, headers: Record<string, string> = { cookie: adminA }) =>
  h.inject({
    method: "PATCH",
    url: URL,
    headers: { host: t.host, ...json, "accept-language": "en-US", ...headers },
    payload: JSON.stringify(payload),
  });

const events = async (t: TestTenant) =>
  h.database.db
    .select()
    .from(platformEvents)
    .where(and(eq(platformEvents.tenantId, t.id), eq(platformEvents.type, "settings_updated")));

describe("GET /api/institution/settings", () => {
  it("answers every namespace with the defaults filled in, general from the tenant row", async () => {
    const t = await makeTenant(h);
    const res = await get(t, { cookie: await adminCookie(h, t) });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(DEFAULT_SETTINGS);
    expect(res.json()).toMatchObject({
      general: { locale: "pt-BR", timezone: "America/Sao_Paulo", dateFormat: "DD/MM/YYYY" },
      security: { allowedEmailDomains: [], sessionTimeoutMinutes: null },
      inactivity: { userInactiveDays: 30, enrollmentInactiveDays: 14, basis: "access" },
      learning: {
        gradingScale: [{ letter: "A", minPercent: 90 }, {}, {}, {}, { letter: "F", minPercent: 0 }],
      },
    });
  });

  it("is for staff: a key with settings:read and a teacher read it, a student is 403", async () => {
    const key = await makeKey(h, a, ["settings:read"]);
    expect((await get(a, bearer(key))).statusCode).toBe(200);
    expect((await get(a, { cookie: await roleCookie(h, a, "teacher") })).statusCode).toBe(200);
    expect((await get(a, { cookie: await roleCookie(h, a, "student") })).statusCode).toBe(403);
  });
});

describe("PATCH /api/institution/settings", () => {
  it("merges the patch, keeps every other key, emits settings_updated naming the changed keys", async () => {
    const t = await makeTenant(h);
    const cookie = await adminCookie(h, t);
    const res = await patch(
      {
        security: { allowedEmailDomains: ["escola.edu.br"], sessionTimeoutMinutes: 60 },
        inactivity: { userInactiveDays: 10 },
        general: { timezone: "america/recife" },
      },
      t,
      { cookie },
    );
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.security).toEqual({ allowedEmailDomains: ["escola.edu.br"], sessionTimeoutMinutes: 60 });
    expect(body.inactivity).toEqual({ userInactiveDays: 10, enrollmentInactiveDays: 14, basis: "access" });
    // The canonical spelling, written to the tenant row the profile reads.
    expect(body.general.timezone).toBe("America/Recife");
    const [tenant] = await h.database.db.select().from(tenants).where(eq(tenants.id, t.id));
    expect(tenant?.timezone).toBe("America/Recife");
    const profile = await h.inject({
      method: "GET",
      url: "/api/institution/profile",
      headers: { host: t.host, cookie },
    });
    expect(profile.json().timezone).toBe("America/Recife");
    expect(await getSettings(h.database.db, t.id)).toEqual(body);

    const [event] = await events(t);
    if (event === undefined) throw new Error("no settings_updated");
    expect((event.data as { changedKeys: string[] }).changedKeys.sort()).toEqual([
      "general.timezone",
      "inactivity.userInactiveDays",
      "security.allowedEmailDomains",
      "security.sessionTimeoutMinutes",
    ]);
    expect(event?.data).toMatchObject({ version: 1 });
    expect(event?.actor).toMatchObject({ type: "user", id: t.adminUserId });

    // A later patch of another namespace keeps these.
    const again = await patch(
      {
        learning: {
          gradingScale: [
            { letter: "P", minPercent: 50 },
            { letter: "R", minPercent: 0 },
          ],
        },
      },
      t,
      { cookie },
    );
    expect(again.json().security.sessionTimeoutMinutes).toBe(60);
    expect(again.json().learning.gradingScale).toEqual([
      { letter: "P", minPercent: 50 },
      { letter: "R", minPercent: 0 },
    ]);
    expect((await events(t)).map((e) => (e.data as { version: number }).version).sort()).toEqual([1, 2]);
  });

  it("null resets a key, or a whole namespace, to its default; only overrides are stored", async () => {
    const t = await makeTenant(h);
    const cookie = await adminCookie(h, t);
    await patch(
      { inactivity: { userInactiveDays: 7, enrollmentInactiveDays: 3 }, general: { locale: "fr-FR" } },
      t,
      {
        cookie,
      },
    );
    const reset = await patch({ inactivity: { userInactiveDays: null }, general: null }, t, { cookie });
    expect(reset.statusCode).toBe(200);
    expect(reset.json().inactivity).toEqual({
      userInactiveDays: 30,
      enrollmentInactiveDays: 3,
      basis: "access",
    });
    expect(reset.json().general).toEqual(DEFAULT_SETTINGS.general);
    const [row] = await h.database.db
      .select()
      .from(institutionSettings)
      .where(eq(institutionSettings.tenantId, t.id));
    expect(row?.overrides).toEqual({ inactivity: { enrollmentInactiveDays: 3 } });
    const all = await patch({ inactivity: null }, t, { cookie });
    expect(all.json().inactivity).toEqual(DEFAULT_SETTINGS.inactivity);
  });

  it("a patch that changes nothing writes nothing and emits nothing", async () => {
    const t = await makeTenant(h);
    const cookie = await adminCookie(h, t);
    const res = await patch({ inactivity: { userInactiveDays: 30 }, general: { locale: "pt-BR" } }, t, {
      cookie,
    });
    expect(res.statusCode).toBe(200);
    expect(await events(t)).toEqual([]);
  });

  it("refuses unknown namespaces and keys, wrong types and ranges, naming each path; nothing changes", async () => {
    const cases: [unknown, string[]][] = [
      [{ branding: { color: "#fff" } }, ["branding"]],
      [{ security: { mfa: true } }, ["security.mfa"]],
      [{ security: { sessionTimeoutMinutes: 5 } }, ["security.sessionTimeoutMinutes"]],
      [{ security: { sessionTimeoutMinutes: "60" } }, ["security.sessionTimeoutMinutes"]],
      [{ security: { allowedEmailDomains: ["@escola.edu.br"] } }, ["security.allowedEmailDomains[0]"]],
      [{ general: { locale: "de-DE" } }, ["general.locale"]],
      [{ general: { timezone: "Mars/Olympus" } }, ["general.timezone"]],
      [{ general: { timezone: "+01:00" } }, ["general.timezone"]],
      [{ inactivity: { basis: "login" } }, ["inactivity.basis"]],
      [{ security: [] }, ["security"]],
      [{}, ["body"]],
      [
        {
          learning: {
            gradingScale: [
              { letter: "A", minPercent: 80 },
              { letter: "B", minPercent: 85 },
              { letter: "A", minPercent: 10 },
            ],
          },
        },
        [
          "learning.gradingScale[1].minPercent",
          "learning.gradingScale[2].letter",
          "learning.gradingScale[2].minPercent",
        ],
      ],
      [
        { learning: { gradingScale: [{ letter: "A", minPercent: 101 }] } },
        ["learning.gradingScale[0].minPercent"],
      ],
    ];
    for (const [body, fields] of cases) {
      const res = await patch(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error).toBe("validation_failed");
      expect(
        res
          .json()
          .details.map((d: { field: string }) => d.field)
          .sort(),
        JSON.stringify(body),
      ).toEqual(fields);
    }
    expect(await events(a)).toEqual([]);
    expect((await get(a, { cookie: adminA })).json()).toEqual(DEFAULT_SETTINGS);
  });

  it("needs settings:write or an administrator's session; another tenant's settings are untouched", async () => {
    const readOnly = await makeKey(h, a, ["settings:read"]);
    expect((await patch({ inactivity: { userInactiveDays: 9 } }, a, bearer(readOnly))).statusCode).toBe(403);
    expect(
      (await patch({ inactivity: { userInactiveDays: 9 } }, a, { cookie: await roleCookie(h, a, "teacher") }))
        .statusCode,
    ).toBe(403);
    const writer = await makeKey(h, b, ["settings:write"]);
    const res = await patch({ inactivity: { userInactiveDays: 9 } }, b, bearer(writer));
    expect(res.statusCode).toBe(200);
    const [event] = await events(b);
    expect(event?.actor).toMatchObject({ type: "api_key" });
    expect((await getSettings(h.database.db, a.id)).inactivity.userInactiveDays).toBe(30);
    // A's session on B's host is not a session there.
    expect((await patch({ inactivity: { userInactiveDays: 2 } }, b, { cookie: adminA })).statusCode).toBe(
      401,
    );
  });

  it("concurrent patches of different keys both land (no lost update)", async () => {
    const t = await makeTenant(h);
    const cookie = await adminCookie(h, t);
    const [x, y] = await Promise.all([
      patch({ inactivity: { userInactiveDays: 11 } }, t, { cookie }),
      patch({ security: { sessionTimeoutMinutes: 90 } }, t, { cookie }),
    ]);
    expect([x.statusCode, y.statusCode]).toEqual([200, 200]);
    const now = await getSettings(h.database.db, t.id);
    expect(now.inactivity.userInactiveDays).toBe(11);
    expect(now.security.sessionTimeoutMinutes).toBe(90);
  });
});

describe("GET /api/institution/settings/schema", () => {
  it("is the JSON Schema the PATCH validates against, with the defaults", async () => {
    const res = await h.inject({
      method: "GET",
      url: `${URL}/schema`,
      headers: { host: a.host, cookie: adminA },
    });
    expect(res.statusCode).toBe(200);
    const schema = res.json();
    expect(schema.$schema).toBe("https://json-schema.org/draft/2020-12/schema");
    expect(schema.additionalProperties).toBe(false);
    expect(Object.keys(schema.properties).sort()).toEqual([
      "general",
      "inactivity",
      "learning",
      "notifications",
      "security",
    ]);
    expect(schema.properties.security.properties.sessionTimeoutMinutes).toMatchObject({
      anyOf: [{ type: "integer", minimum: 15, maximum: 1440 }, { type: "null" }],
      default: null,
    });
  });
});

describe("letterFor", () => {
  it("gives the first band a percent reaches", () => {
    const scale = DEFAULT_SETTINGS.learning.gradingScale;
    expect(letterFor(scale, 100)).toBe("A");
    expect(letterFor(scale, 90)).toBe("A");
    expect(letterFor(scale, 89.99)).toBe("B");
    expect(letterFor(scale, 60)).toBe("D");
    expect(letterFor(scale, 0)).toBe("F");
  });
});
