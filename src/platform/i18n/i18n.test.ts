import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { enUS } from "../../locales/en-US.js";
import { CATALOGUES, LOCALES } from "../../locales/index.js";
import { type Harness, makeTenant, startHarness, type TestTenant } from "../../test-support/harness.js";
import { negotiateLocale } from "./negotiate.js";
import { translate } from "./translate.js";

describe("negotiateLocale", () => {
  it.each([
    [undefined, "pt-BR"],
    ["", "pt-BR"],
    ["en-US", "en-US"],
    ["EN-us", "en-US"],
    ["es", "es-ES"],
    ["fr", "fr-FR"],
    ["pt", "pt-BR"],
    ["de-DE", "pt-BR"],
    ["en-GB", "pt-BR"],
    ["*", "pt-BR"],
    ["de, fr;q=0.5, en-US;q=0.7", "en-US"],
    ["fr-FR;q=0.2, es-ES;q=0.9", "es-ES"],
    ["en-US;q=0, fr-FR;q=0.1", "fr-FR"],
    ["es-ES, fr-FR", "es-ES"],
    ["fr-FR;q=0.8, es-ES;q=0.8", "fr-FR"],
    ["xx;q=1, en;q=0.001", "en-US"],
    ["en-US;q=garbage", "en-US"],
  ])("%s → %s", (header, expected) => {
    expect(negotiateLocale(header)).toBe(expected);
  });
});

function placeholders(text: string): string[] {
  return [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as string).sort();
}

describe("catalogues", () => {
  it("have the same keys and placeholders in every language, and no empty or untranslated text", () => {
    for (const locale of LOCALES) {
      const catalogue = CATALOGUES[locale];
      expect(Object.keys(catalogue).sort()).toEqual(Object.keys(enUS).sort());
      for (const [key, text] of Object.entries(catalogue)) {
        expect(text.trim(), `${locale} ${key}`).not.toBe("");
        expect(placeholders(text), `${locale} ${key}`).toEqual(placeholders(enUS[key as keyof typeof enUS]));
        if (locale !== "en-US" && !/application\/json|rateTier/.test(text)) {
          expect(text, `${locale} ${key} is still English`).not.toBe(enUS[key as keyof typeof enUS]);
        }
      }
    }
  });

  it("fills placeholders and leaves unknown ones visible", () => {
    expect(translate("en-US", "student_limit_reached", { plan: "free", limit: 3 })).toBe(
      "The free plan admits 3 students and has no seat left. An administrator can move the institution " +
        "to a larger plan (POST /api/institution/billing/checkout).",
    );
    expect(translate("pt-BR", "insufficient_scope", {})).toContain("{scope}");
  });
});

describe("localised errors over HTTP", () => {
  let h: Harness;
  let t: TestTenant;
  beforeAll(async () => {
    h = await startHarness();
    t = await makeTenant(h);
  });
  afterAll(() => h.close());

  it.each([
    ["pt-BR", "pt-BR", "A autenticação está ausente ou é inválida."],
    ["en-US,en;q=0.9", "en-US", "Authentication is missing or invalid."],
    ["es", "es-ES", "La autenticación falta o no es válida."],
    ["de-DE, fr;q=0.9", "fr-FR", "L’authentification est absente ou invalide."],
    ["ja-JP", "pt-BR", "A autenticação está ausente ou é inválida."],
  ])("Accept-Language %s answers in %s", async (header, language, message) => {
    const res = await h.inject({
      method: "GET",
      url: "/api/institution/courses",
      headers: { host: t.host, "accept-language": header },
    });
    expect(res.statusCode).toBe(401);
    expect(res.headers["content-language"]).toBe(language);
    expect(res.json()).toEqual({ error: "unauthorized", message });
  });
});
