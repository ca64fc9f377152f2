/**
 * Input whose checking alone would hold the event loop (issue 19): JSON nested 500,000 levels (V8's JSON.parse
 * takes seconds), objects of tens of thousands of keys, bodies of 200,000 values, and bodies whose every value is
 * a validation error (Ajv with allErrors found 240,000 of them in 1 MiB, and turning them into details took
 * seconds more). Each is a 400 naming the field, with a bounded number of details.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { callApi, useApi } from "../../test-support/api.js";
import { makeKey } from "../../test-support/harness.js";
import { MAX_JSON_VALUES, MAX_OBJECT_MEMBERS } from "./json-body.js";
import { MAX_JSON_DEPTH } from "./nul-guard.js";
import { MAX_DETAILS } from "./validation.js";

const { h, tenants } = useApi({ tenants: 1 });
const [t] = tenants;
let key: string;

beforeAll(async () => {
  key = await makeKey(h, t, []);
});

const post = (url: string, payload: string) =>
  callApi(h, t, key, "POST", url, payload, { prefix: "", language: "en" });

describe("bounded input", () => {
  it("refuses 500,000 levels of nesting before parsing them", async () => {
    const res = await post("/api/institution/courses", `{"a":${"[".repeat(500_000)}${"]".repeat(500_000)}}`);
    expect(res.statusCode).toBe(400);
    expect(res.json().details).toEqual([
      { field: "body", message: `Must not nest arrays and objects more than ${MAX_JSON_DEPTH} levels deep.` },
    ]);
  });

  it("refuses an object of more than MAX_OBJECT_MEMBERS keys, naming body", async () => {
    const wide = JSON.stringify(Object.fromEntries(Array.from({ length: 90_000 }, (_, i) => [`k${i}`, 1])));
    const res = await post("/api/institution/courses", wide);
    expect(res.statusCode).toBe(400);
    expect(res.json().details).toEqual([
      { field: "body", message: `Must contain at most ${MAX_OBJECT_MEMBERS.toLocaleString("en-US")} items.` },
    ]);
  });

  it("refuses a body of more than MAX_JSON_VALUES values, naming body", async () => {
    const res = await post("/api/institution/users/bulk", JSON.stringify({ items: Array(200_000).fill(1) }));
    expect(res.statusCode).toBe(400);
    expect(res.json().details).toEqual([
      { field: "body", message: `Must contain at most ${MAX_JSON_VALUES.toLocaleString("en-US")} items.` },
    ]);
  });

  it("answers a body of 20,001 invalid items with its first error, and 1,000 of them with at most MAX_DETAILS details", async () => {
    const many = await post("/api/institution/users/bulk", JSON.stringify({ items: Array(20_001).fill({}) }));
    expect(many.statusCode).toBe(400);
    expect(many.json().details).toEqual([{ field: "items", message: "Must contain at most 1,000 items." }]);
    const limit = await post(
      "/api/institution/users/bulk",
      JSON.stringify({ items: Array(1000).fill({ x: 1 }) }),
    );
    expect(limit.statusCode).toBe(400);
    expect(limit.json().details).toHaveLength(MAX_DETAILS);
    expect(limit.json().details[0]).toEqual({ field: "items[0].name", message: "This field is required." });
  });
});
