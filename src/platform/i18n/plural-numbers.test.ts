import { beforeAll, describe, expect, it } from "vitest";
import type { Locale } from "../../locales/index.js";
import { useApi } from "../../test-support/api.js";
import { makeCourse } from "../../test-support/catalogue.js";
import { bearer, json, makeKey, makeUser } from "../../test-support/harness.js";

/**
 * Issue 21, point 5: counts follow each language's plural rules and numbers its digit grouping (ICU
 * MessageFormat). CLDR groups Spanish numbers only from five digits (1000, but 10.000), and French with a narrow
 * no-break space (U+202F), which also stands before a unit (CLDR 48, in Node 20 and 24 alike).
 */
const NNBSP = "\u202f";

const EXPECTED: Record<Locale, { atMost: string; atLeast: string; maxUpload: string }> = {
  "en-US": {
    atMost: "Must contain at most 1,000 items.",
    atLeast: "Must contain at least 1 item.",
    maxUpload: "A file may be at most 5,368.7 MB (5,368,709,120 bytes).",
  },
  "pt-BR": {
    atMost: "Deve conter no máximo 1.000 itens.",
    atLeast: "Deve conter pelo menos 1 item.",
    maxUpload: "Um arquivo pode ter no máximo 5.368,7 MB (5.368.709.120 bytes).",
  },
  "es-ES": {
    atMost: "Debe contener como máximo 1000 elementos.",
    atLeast: "Debe contener al menos 1 elemento.",
    maxUpload: "Un archivo puede tener como máximo 5368,7 MB (5.368.709.120 bytes).",
  },
  "fr-FR": {
    atMost: `Doit contenir au plus 1${NNBSP}000 éléments.`,
    atLeast: "Doit contenir au moins 1 élément.",
    maxUpload: `Un fichier peut faire au plus 5${NNBSP}368,7${NNBSP}Mo (5${NNBSP}368${NNBSP}709${NNBSP}120 octets).`,
  },
};

const { h, tenants } = useApi({ tenants: 1 });
const [t] = tenants;
let key: string;
let userId: string;
let courseId: string;

beforeAll(async () => {
  key = await makeKey(h, t, []);
  userId = (await makeUser(h, t, "student")).id;
  courseId = (await makeCourse(h.database.db, t.id)).courseId;
});

const post = (locale: Locale, url: string, payload: unknown) =>
  h.inject({
    method: "POST",
    url,
    headers: { host: t.host, "accept-language": locale, ...bearer(key), ...json },
    payload: payload as Record<string, unknown>,
  });

describe.each(Object.keys(EXPECTED) as Locale[])("in %s", (locale) => {
  const expected = EXPECTED[locale];

  it("counts a bulk's items in the plural and the singular, with the language's digit grouping", async () => {
    const tooMany = await post(locale, "/api/institution/enrollments/bulk", {
      items: Array.from({ length: 1001 }, () => ({ userId, courseId })),
    });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.headers["content-language"]).toBe(locale);
    expect(tooMany.json().details).toEqual([{ field: "items", message: expected.atMost }]);

    const none = await post(locale, "/api/institution/enrollments/bulk", { items: [] });
    expect(none.statusCode).toBe(400);
    expect(none.json().details).toEqual([{ field: "items", message: expected.atLeast }]);
  });

  it("gives a file's size limit in megabytes and in bytes, formatted for the language", async () => {
    const res = await post(locale, "/api/institution/media/uploads", {
      filename: "aula.mp4",
      contentType: "video/mp4",
      sizeBytes: 6_000_000_000,
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({
      error: "payload_too_large",
      message: expected.maxUpload,
      details: [{ field: "sizeBytes", message: expected.maxUpload }],
    });
  });
});

describe("a bound that excludes its limit", () => {
  it("says 'greater than', not 'greater than or equal to', in each language", async () => {
    const bank = await post("en-US", "/api/institution/question-banks", { title: "Bounds" });
    expect(bank.statusCode).toBe(201);
    const url = `/api/institution/question-banks/${bank.json().id}/questions`;
    const expected: Record<Locale, string> = {
      "en-US": "Must be greater than 0.",
      "pt-BR": "Deve ser maior que 0.",
      "es-ES": "Debe ser mayor que 0.",
      "fr-FR": "Doit être strictement supérieur à 0.",
    };
    for (const [locale, message] of Object.entries(expected) as [Locale, string][]) {
      const res = await post(locale, url, { type: "essay", stem: "Discuss", points: 0 });
      expect(res.statusCode).toBe(400);
      expect(res.json().details).toEqual([{ field: "points", message }]);
    }
  });
});
