import { beforeAll, describe, expect, it } from "vitest";
import { LOCALES } from "../../locales/index.js";
import {
  adminCookie,
  bearer,
  json,
  makeKey,
  makeTenant,
  makeUser,
  sessionCookie,
  TEST_PASSWORD,
} from "../../test-support/harness.js";
import { useMailKit } from "../../test-support/mail-kit.js";
import { TEMPLATE_KEYS } from "./defaults.js";

const k = useMailKit();
const { h, a, b, drain, post, get, mailTo, linkIn, email } = k;
let keyA: string;
let keyB: string;
beforeAll(() => {
  ({ keyA, keyB } = k);
});

describe("templates", () => {
  it("lists the six keys in four locales, and an override changes what is sent", async () => {
    const list = await get(a, "/api/institution/email/templates?locale=en-US&perPage=100", keyA);
    expect(list.statusCode).toBe(200);
    expect(list.json().pagination.total).toBe(6);
    const bad = await h.inject({
      method: "PUT",
      url: "/api/institution/email/templates/invite",
      headers: { host: a.host, ...json, ...bearer(keyA) },
      payload: {
        locale: "es-ES",
        subject: "Hola {{nombre}}",
        bodyHtml: "<p>{{acceptUrl}}</p>",
        bodyText: "{{acceptUrl}}",
      },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details).toEqual([{ field: "subject", message: expect.stringContaining("nombre") }]);
    const put = await h.inject({
      method: "PUT",
      url: "/api/institution/email/templates/invite",
      headers: { host: a.host, ...json, ...bearer(keyA) },
      payload: {
        locale: "es-ES",
        subject: "Bienvenida, {{name}}",
        bodyHtml: '<p onclick="x()">Entra</p><a href="{{acceptUrl}}">aquí</a><script>alert(1)</script>',
        bodyText: "Entra: {{acceptUrl}}",
      },
    });
    expect(put.statusCode).toBe(200);
    expect(put.json()).toMatchObject({
      customized: true,
      bodyHtml: '<p>Entra</p><a href="{{acceptUrl}}">aquí</a>',
    });
    const to = email(a);
    await post(a, "/api/institution/invites", { email: to, name: "Lu", locale: "es-ES" }, bearer(keyA));
    await drain();
    const mail = mailTo(to);
    expect(mail.subject).toBe("Bienvenida, Lu");
    expect(linkIn(mail.text as string, "/invites/accept").protocol).toBe("http:");
    // Another institution still has the default.
    const theirs = (await get(b, "/api/institution/email/templates/invite?locale=es-ES", keyB)).json();
    expect(theirs.locales[0]).toMatchObject({
      customized: false,
      subject: "Invitación a {{institutionName}}",
    });
    const reverted = await h.inject({
      method: "DELETE",
      url: "/api/institution/email/templates/invite?locale=es-ES",
      headers: { host: a.host, ...bearer(keyA) },
    });
    expect(reverted.statusCode).toBe(204);
    expect(
      (await get(a, "/api/institution/email/templates/invite?locale=es-ES", keyA)).json().locales[0]
        .customized,
    ).toBe(false);
  });

  it("previews with escaping, keeps custom templates per institution, and hides other institutions' messages", async () => {
    const preview = await post(
      a,
      "/api/institution/email/templates/password_reset/preview",
      { locale: "en-US", variables: { name: "<Ana>" } },
      bearer(keyA),
    );
    expect(preview.statusCode).toBe(200);
    expect(preview.json().bodyHtml).toContain("Hello &lt;Ana&gt;,");
    expect(preview.json().bodyText).toContain("Hello <Ana>,");
    const weekly = {
      locale: "pt-BR",
      subject: "Semana {{week}}",
      bodyHtml: "<p>{{week}}</p>",
      bodyText: "{{week}}",
    };
    // A custom key is created with POST; PUT on one the institution does not have is 404.
    const putFirst = await h.inject({
      method: "PUT",
      url: "/api/institution/email/templates/custom.weekly",
      headers: { host: a.host, ...json, ...bearer(keyA) },
      payload: weekly,
    });
    expect(putFirst.statusCode).toBe(404);
    const custom = await post(
      a,
      "/api/institution/email/templates",
      { key: "custom.weekly", ...weekly },
      bearer(keyA),
    );
    expect(custom.statusCode).toBe(201);
    expect(custom.json()).toMatchObject({
      key: "custom.weekly",
      customized: true,
      variables: ["name", "email", "institutionName", "week"],
    });
    expect(
      (await post(a, "/api/institution/email/templates", { key: "custom.weekly", ...weekly }, bearer(keyA)))
        .statusCode,
    ).toBe(409);
    expect(
      (await post(a, "/api/institution/email/templates", { key: "invite", ...weekly }, bearer(keyA)))
        .statusCode,
    ).toBe(400);
    // Never in another institution's list or reach.
    const theirList = (await get(b, "/api/institution/email/templates?perPage=100", keyB)).json();
    expect(theirList.pagination.total).toBe(24);
    expect(theirList.data.filter((x: { customized: boolean }) => x.customized)).toEqual([]);
    expect((await get(b, "/api/institution/email/templates/custom.weekly", keyB)).statusCode).toBe(404);
    const user = await makeUser(h, a, "student");
    const sent = await post(
      a,
      "/api/institution/email/messages",
      { templateKey: "custom.weekly", userIds: [user.id], variables: { week: "12" } },
      bearer(keyA),
    );
    expect(sent.statusCode).toBe(202);
    const id = sent.json().messageIds[0];
    expect((await get(b, `/api/institution/email/messages/${id}`, keyB)).statusCode).toBe(404);
    const unknown = await post(
      a,
      "/api/institution/email/messages",
      { templateKey: "custom.nope", userIds: [user.id] },
      bearer(keyA),
    );
    expect(unknown.statusCode).toBe(400);
    await drain();
    expect(mailTo(user.email).subject).toBe("Semana 12");
  });

  it("pages the built-in keys in each locale, then the custom templates by key and locale, with exact totals", async () => {
    const t = await makeTenant(h);
    const auth = bearer(await makeKey(h, t, ["settings:read", "settings:write"]));
    const content = (locale: string) => ({ locale, subject: "S", bodyHtml: "<p>B</p>", bodyText: "B" });
    const write = async (method: "PUT" | "POST", url: string, payload: Record<string, string>) => {
      const res = await h.inject({ method, url, headers: { host: t.host, ...json, ...auth }, payload });
      expect(res.statusCode, res.body).toBeLessThan(300);
    };
    const base = "/api/institution/email/templates";
    await write("PUT", `${base}/invite`, content("en-US"));
    await write("PUT", `${base}/enrollment`, content("fr-FR"));
    await write("POST", base, { key: "custom.b", ...content("pt-BR") });
    await write("POST", base, { key: "custom.a", ...content("fr-FR") });
    await write("PUT", `${base}/custom.a`, content("en-US"));
    await write("POST", base, { key: "custom.c", ...content("en-US") });
    // A second version of a stored template replaces it: one template still.
    await write("PUT", `${base}/invite`, content("en-US"));
    type Row = { key: string; locale: string; customized: boolean };
    const builtIn: Row[] = TEMPLATE_KEYS.flatMap((key) =>
      LOCALES.map((locale) => ({
        key,
        locale,
        customized: `${key} ${locale}` === "invite en-US" || `${key} ${locale}` === "enrollment fr-FR",
      })),
    );
    const custom = ["custom.a en-US", "custom.a fr-FR", "custom.b pt-BR", "custom.c en-US"].map((id) => {
      const [key = "", locale = ""] = id.split(" ");
      return { key, locale, customized: true };
    });
    /** Every page of `query` at `perPage`, each with the same total, against the list expected. */
    const expectPages = async (query: string, perPage: number, expected: Row[]) => {
      const seen: Row[] = [];
      for (let page = 1; page <= Math.ceil(expected.length / perPage) + 1; page++) {
        const res = await h.inject({
          method: "GET",
          url: `${base}?page=${page}&perPage=${perPage}${query}`,
          headers: { host: t.host, ...auth },
        });
        expect(res.statusCode).toBe(200);
        expect(res.json().pagination).toMatchObject({ total: expected.length, page, perPage });
        seen.push(
          ...res.json().data.map(({ key, locale, customized }: Row) => ({ key, locale, customized })),
        );
      }
      expect(seen).toEqual(expected);
    };
    await expectPages("", 5, [...builtIn, ...custom]);
    await expectPages(
      "&locale=en-US",
      3,
      [...builtIn, ...custom].filter((r) => r.locale === "en-US"),
    );
    await expectPages("&customized=true", 4, [...builtIn.filter((r) => r.customized), ...custom]);
    await expectPages(
      "&customized=false",
      10,
      builtIn.filter((r) => !r.customized),
    );
    const gone = await h.inject({
      method: "DELETE",
      url: `${base}/custom.a?locale=fr-FR`,
      headers: { host: t.host, ...auth },
    });
    expect(gone.statusCode).toBe(204);
    await expectPages("&customized=true", 3, [
      ...builtIn.filter((r) => r.customized),
      ...custom.filter((r) => r.locale !== "fr-FR"),
    ]);
  });

  it("admits administrators' sessions only", async () => {
    const teacher = await makeUser(h, a, "teacher", TEST_PASSWORD);
    const cookie = await sessionCookie(h, a, teacher.email, TEST_PASSWORD);
    const res = await h.inject({
      method: "GET",
      url: "/api/institution/email/templates",
      headers: { host: a.host, cookie },
    });
    expect(res.statusCode).toBe(403);
    const admin = await h.inject({
      method: "GET",
      url: "/api/institution/email/messages",
      headers: { host: a.host, cookie: await adminCookie(h, a) },
    });
    expect(admin.statusCode).toBe(200);
  });
});
