/**
 * What PostgreSQL text and jsonb refuse (U+0000, lone surrogates) is recognised wherever it hides, made storable
 * without touching anything else, and found by the input guard without recursion at any depth.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { inspectInput, MAX_JSON_DEPTH } from "./nul-guard.js";
import { isUnstorable, storableJson, storableText } from "./storable.js";

/** Any UTF-16 code unit sequence, lone surrogates and U+0000 included. */
const anyText = fc
  .array(fc.integer({ min: 0, max: 0xffff }), { maxLength: 12 })
  .map((units) => String.fromCharCode(...units));
const anyJson = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    anyText,
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie("value"), { maxLength: 4 }),
    fc.dictionary(anyText, tie("value"), { maxKeys: 4 }),
  ),
})).value;

function everyText(value: unknown, out: string[] = []): string[] {
  if (typeof value === "string") out.push(value);
  else if (Array.isArray(value)) for (const item of value) everyText(item, out);
  else if (value !== null && typeof value === "object")
    for (const [key, item] of Object.entries(value)) {
      out.push(key);
      everyText(item, out);
    }
  return out;
}

describe("storable text", () => {
  it("is text that survives a UTF-8 round trip and holds no U+0000", () => {
    fc.assert(
      fc.property(anyText, (text) => {
        const wellFormed = Buffer.from(text, "utf8").toString("utf8") === text;
        expect(isUnstorable(text)).toBe(!wellFormed || text.includes("\0"));
      }),
    );
  });

  it("replaces exactly the offending code units with U+FFFD", () => {
    expect(storableText("a\0b\ud800c\udc00d\ud83d\ude00")).toBe("a\uFFFDb\uFFFDc\uFFFDd\ud83d\ude00");
    fc.assert(
      fc.property(anyText, (text) => {
        const clean = storableText(text);
        expect(isUnstorable(clean)).toBe(false);
        expect(clean.length).toBe(text.length);
        if (!isUnstorable(text)) expect(clean).toBe(text);
      }),
    );
  });

  it("makes every string and key of a JSON value storable, and leaves a clean value as it was", () => {
    fc.assert(
      fc.property(anyJson, (value) => {
        const clean = storableJson(value);
        expect(everyText(clean).filter(isUnstorable)).toEqual([]);
        if (everyText(value).every((text) => !isUnstorable(text))) expect(clean).toBe(value);
        // Whatever was refused by the guard is what storableJson changes.
        expect(inspectInput(value, "body") === undefined).toBe(clean === value);
      }),
    );
  });

  it("keeps a __proto__ key a key", () => {
    const value = JSON.parse('{"__proto__": {"polluted": true}, "x": "\\u0000"}');
    const clean = storableJson(value) as Record<string, unknown>;
    expect(Object.hasOwn(clean, "__proto__")).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(clean)).toBe(Object.prototype);
  });
});

describe("the input guard", () => {
  it(`takes ${MAX_JSON_DEPTH} levels, refuses ${MAX_JSON_DEPTH + 1}, and reads 1,000,000 without overflowing`, () => {
    const nest = (levels: number) => JSON.parse(`${"[".repeat(levels)}${"]".repeat(levels)}`);
    expect(inspectInput(nest(MAX_JSON_DEPTH), "body")).toBeUndefined();
    const refused = { field: "body", key: "field.max_depth", params: { limit: MAX_JSON_DEPTH } };
    expect(inspectInput(nest(MAX_JSON_DEPTH + 1), "body")).toEqual(refused);
    expect(inspectInput(nest(1_000_000), "body")).toEqual(refused);
  });

  it("names the first field that cannot be stored by its path", () => {
    expect(inspectInput({ items: [{ ok: "x" }, { name: "a\0" }] }, "body")).toEqual({
      field: "items[1].name",
      key: "field.unstorable",
    });
    expect(inspectInput({ a: { "b\ud800": 1 } }, "body")?.field).toBe("a.b\uFFFD");
    expect(inspectInput("\udc00", "body")?.field).toBe("body");
    expect(inspectInput(Buffer.from([0]), "body")).toBeUndefined();
  });
});
