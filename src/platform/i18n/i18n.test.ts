import {
  isPluralElement,
  isSelectElement,
  isStructurallySame,
  type MessageFormatElement,
  parse,
} from "@formatjs/icu-messageformat-parser";
import { describe, expect, it } from "vitest";
import { enUS } from "../../locales/en-US.js";
import { CATALOGUES, LOCALES, type Locale, type MessageKey } from "../../locales/index.js";
import { useApi } from "../../test-support/api.js";
import { negotiateLocale } from "./negotiate.js";
import { compileMessage, translate } from "./translate.js";

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

/** The arguments of a message and, for a select, its branches: what every language must handle alike. */
function selectBranches(elements: readonly MessageFormatElement[], out: string[] = []): string[] {
  for (const el of elements) {
    if (isSelectElement(el)) out.push(`${el.value}: ${Object.keys(el.options).sort().join(" ")}`);
    if (isSelectElement(el) || isPluralElement(el)) {
      for (const option of Object.values(el.options)) selectBranches(option.value, out);
    }
  }
  return out.sort();
}

function ast(locale: Locale, key: MessageKey): MessageFormatElement[] {
  return parse(CATALOGUES[locale][key], { ignoreTag: true });
}

describe("catalogues", () => {
  const keys = Object.keys(enUS) as MessageKey[];

  it("have the same keys and arguments in every language, and no empty or untranslated text", () => {
    for (const locale of LOCALES) {
      const catalogue = CATALOGUES[locale];
      expect(Object.keys(catalogue).sort()).toEqual(Object.keys(enUS).sort());
      for (const key of keys) {
        const text = catalogue[key];
        expect(text.trim(), `${locale} ${key}`).not.toBe("");
        const same = isStructurallySame(ast("en-US", key), ast(locale, key));
        expect(same.success, `${locale} ${key}: ${same.error?.message}`).toBe(true);
        expect(selectBranches(ast(locale, key)), `${locale} ${key}`).toEqual(
          selectBranches(ast("en-US", key)),
        );
        if (locale !== "en-US" && !/application\/json|rateTier/.test(text)) {
          expect(text, `${locale} ${key} is still English`).not.toBe(enUS[key]);
        }
      }
    }
  });

  it("render every message in every language with counts of 1 and 1,000,000 and leave no argument unfilled", () => {
    for (const locale of LOCALES) {
      for (const key of keys) {
        const { args } = compileMessage(locale, key);
        for (const n of [1, 1_000_000]) {
          const params = Object.fromEntries(
            [...args].map(([name, kind]) => [name, kind === "number" ? n : "x"]),
          );
          const text = translate(locale, key, params);
          // The one message that shows braces shows a template variable, `{{name}}`.
          const shown = key === "field.unknown_template_variable" ? text.replace("{{x}}", "") : text;
          expect(shown, `${locale} ${key}`).not.toMatch(/NaN|\{[a-zA-Z]+[,}]/);
          if (n > 1 && [...args.values()].includes("number")) expect(text, `${locale} ${key}`).toMatch(/\d/);
        }
      }
    }
  });

  it("fill arguments, leave an unknown text argument visible, and never fail on a missing count", () => {
    expect(translate("en-US", "student_limit_reached", { plan: "free", limit: 3, upgrade: "checkout" })).toBe(
      "The free plan admits 3 students and has no seat left. An administrator can move the institution " +
        "to a paid plan with POST /api/institution/billing/checkout.",
    );
    expect(translate("pt-BR", "insufficient_scope", {})).toContain("{scope}");
    // A count the code forgot: the message's own text, not "NaN" or a 500 from the error handler.
    expect(translate("en-US", "field.max_items", {})).toBe(enUS["field.max_items"]);
    expect(translate("en-US", "field.max_items", { limit: "many" })).toBe(enUS["field.max_items"]);
    expect(translate("en-US", "no.such.key")).toBe("Is not valid.");
  });

  it("compile each message once", () => {
    expect(compileMessage("fr-FR", "field.max_items")).toBe(compileMessage("fr-FR", "field.max_items"));
  });

  it("use plural categories beyond one and other, and numbers that are not counts", () => {
    expect(translate("fr-FR", "field.max_items", { limit: 0 })).toBe("Doit contenir au plus 0 élément.");
    expect(translate("pt-BR", "payload_too_large.max_upload", { max: 2_000_000, maxMb: 2 })).toBe(
      "Um arquivo pode ter no máximo 2 MB (2.000.000 de bytes).",
    );
    expect(translate("en-US", "field.minimum", { limit: 0.0001 })).toBe(
      "Must be greater than or equal to 0.0001.",
    );
    expect(translate("en-US", "payload_too_large.upload_size", { sizeBytes: 10, sizeMb: 0.00001 })).toBe(
      "The body is larger than the size declared for this file: 0.00001 MB (10 bytes).",
    );
  });
});

describe("localised errors over HTTP", () => {
  const { h, tenants } = useApi({ tenants: 1 });
  const [t] = tenants;

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
