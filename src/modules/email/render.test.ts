import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../config/index.js";
import { LOCALES } from "../../locales/index.js";
import { defaultTemplate, TEMPLATE_KEYS, TEMPLATE_VARIABLES } from "./defaults.js";
import { escapeHtml, render, sanitizeEmailHtml, variablesIn } from "./render.js";

const template = {
  subject: "Olá {{name}}",
  bodyHtml: '<p>Olá {{ name }}</p><a href="{{url}}">ir</a>',
  bodyText: "Olá {{name}} {{url}}",
};

describe("rendering", () => {
  it("escapes every value in the HTML part, keeps it whole in the text part, and keeps the subject on one line", () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (name, url) => {
        const out = render(template, { name, url });
        expect(out.bodyHtml).toBe(`<p>Olá ${escapeHtml(name)}</p><a href="${escapeHtml(url)}">ir</a>`);
        // Whatever the value, it cannot open a tag or leave the attribute.
        const values = out.bodyHtml.slice("<p>Olá ".length);
        expect(values.replace('</p><a href="', "").replace('">ir</a>', "")).not.toMatch(/[<>"]/);
        expect(out.bodyText).toBe(`Olá ${name} ${url}`);
        expect(out.subject).not.toMatch(/[\r\n]/);
      }),
    );
  });

  it("renders a placeholder nobody gave as empty, never as its name", () => {
    expect(render({ subject: "{{x}}", bodyHtml: "<p>{{x}}</p>", bodyText: "[{{x}}]" }, {})).toEqual({
      subject: "",
      bodyHtml: "<p></p>",
      bodyText: "[]",
    });
  });

  it("keeps placeholders and safe markup through sanitising, and drops scripts, handlers and other schemes", async () => {
    expect(
      await sanitizeEmailHtml(
        '<p style="x" onclick="y()">{{name}}</p><a href="{{acceptUrl}}">a</a><a href="javascript:alert(1)">b</a>' +
          '<img src="data:image/png;base64,AA"><script>alert(1)</script><iframe src="https://x"></iframe>',
      ),
    ).toBe('<p>{{name}}</p><a href="{{acceptUrl}}">a</a><a>b</a><img />');
  });

  it("ships every key in the four locales, with both parts, using only the key's variables and an action link", async () => {
    for (const key of TEMPLATE_KEYS) {
      for (const locale of LOCALES) {
        const t = defaultTemplate(key, locale);
        const used = variablesIn(t.subject, t.bodyHtml, t.bodyText);
        for (const name of used) expect(TEMPLATE_VARIABLES[key], `${key} ${locale} ${name}`).toContain(name);
        expect(t.bodyHtml).toMatch(/<a href="\{\{\w+Url\}\}">/);
        expect(t.bodyText).toMatch(/\{\{\w+Url\}\}/);
        expect(await sanitizeEmailHtml(t.bodyHtml)).toBe(t.bodyHtml);
      }
    }
    // Not left in English: each locale's subject differs from the others'.
    for (const key of TEMPLATE_KEYS) {
      expect(new Set(LOCALES.map((l) => defaultTemplate(key, l).subject)).size, key).toBe(4);
    }
  });
});

describe("mail configuration", () => {
  const base = {
    DATA_DIR: "/tmp/aula-x",
    SESSION_SECRET: "x".repeat(32),
    SECRETS_ENCRYPTION_KEY: "a".repeat(64),
  };

  it("writes .eml files under DATA_DIR without SMTP, with From and Message-ID domain from MAIL_FROM", () => {
    const mail = loadConfig({ ...base, MAIL_FROM: "Escola <avisos@Escola.Example>" }).mail;
    expect(mail).toMatchObject({
      smtpUrl: undefined,
      dir: "/tmp/aula-x/mail",
      from: "Escola <avisos@Escola.Example>",
      messageIdDomain: "escola.example",
      retryScheduleSeconds: [30, 300, 1800, 7200, 21600],
    });
    expect(loadConfig({ ...base, DATA_DIR: ":memory:" }).mail.dir).toBeUndefined();
  });

  it("keeps only a hash of the bounce secret, and refuses malformed values at start", () => {
    const secret = "s".repeat(40);
    const mail = loadConfig({ ...base, EMAIL_BOUNCE_SECRET: secret }).mail;
    expect(mail.bounceSecretHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(mail)).not.toContain(secret);
    for (const bad of [
      { SMTP_URL: "http://mail.example" },
      { MAIL_FROM: "not an address" },
      { EMAIL_BOUNCE_SECRET: "short" },
      { MAIL_RETRY_SCHEDULE: "5,soon" },
    ]) {
      expect(() => loadConfig({ ...base, ...bad }), JSON.stringify(bad)).toThrow(ConfigError);
    }
  });
});
