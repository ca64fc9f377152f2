/**
 * Issue 19, point 2: an administrator's `validation.pattern` runs in linear time. The three hostile patterns pass a
 * star-height check (safe-regex2) yet backtrack exponentially on V8, doubling with every character (56 characters
 * took 39 s). On the code before this change the first timed request below (`^(a|a)*$`, 26 characters) took 3.4 s
 * under this harness and 30 characters took 132 s, so the test fails its budget in seconds instead of hanging.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { callerFor, useApi } from "../../test-support/api.js";
import { adminCookie } from "../../test-support/harness.js";
import { matchesWhole } from "./pattern-engine.js";

const { h, tenants } = useApi({ env: { PLAN_STUDENT_LIMITS: JSON.stringify({ free: 1000 }) }, tenants: 1 });
const [t] = tenants;
let cookie: string;

beforeAll(async () => {
  cookie = await adminCookie(h, t);
});

const call = callerFor(h, () => ({ tenant: t, credential: cookie }));
type Detail = { field: string; message: string };
const detailsOf = (res: { json(): { details?: Detail[] } }) => res.json().details ?? [];

let users = 0;
/** Creates a user with one profile value; answers the response and how long the request took. */
async function timedUser(key: string, value: string) {
  users += 1;
  const started = performance.now();
  const res = await call("POST", "/users", {
    name: `U${users}`,
    email: `u${users}@x.test`,
    role: "student",
    profileFields: { [key]: value },
  });
  return { res, ms: performance.now() - started };
}

/**
 * A whole request through the app (60–210 ms here for any value on a busy shared machine), far below what one
 * backtracking check costs.
 */
const REQUEST_BUDGET_MS = 1000;
/** The engine alone, once warm (it answers in well under a millisecond; the rest is a busy machine's noise). */
const ENGINE_BUDGET_MS = 50;

const HOSTILE = [
  { key: "h_alt", pattern: "^(a|a)*$", value: (n: number) => `${"a".repeat(n - 1)}b`, ok: "aaaa" },
  { key: "h_ab", pattern: "^(?:a|b|ab)*c$", value: (n: number) => "ab".repeat(n / 2), ok: "ababc" },
  {
    key: "h_mail",
    pattern: "^([a-z]|[a-z0-9])*@x$",
    value: (n: number) => "a".repeat(n),
    ok: "ab12@x",
  },
] as const;

describe("validation.pattern runs in linear time", () => {
  it("the hostile patterns are accepted (they are regular) and a value of 26, 56 or 2000 characters is checked within budget", async () => {
    for (const { key, pattern } of HOSTILE) {
      const res = await call("POST", "/profile-fields", {
        key,
        label: key,
        type: "textarea",
        validation: { pattern, maxLength: 2000 },
      });
      expect(res.statusCode, res.body).toBe(201);
    }
    for (const { key, value, ok } of HOSTILE) {
      for (const length of [26, 56, 2000]) {
        const { res, ms } = await timedUser(key, value(length));
        expect(res.statusCode, res.body).toBe(400);
        expect(detailsOf(res)).toEqual([
          { field: `profileFields.${key}`, message: "Has an invalid format." },
        ]);
        expect(ms, `${key}, ${length} characters`).toBeLessThan(REQUEST_BUDGET_MS);
      }
      // The pattern still decides: a matching value is stored as given.
      const { res } = await timedUser(key, ok);
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().profileFields).toEqual({ [key]: ok });
    }
  });

  it("the engine checks 10,000 characters against each hostile pattern within a few milliseconds", () => {
    // Longer than any profile value may be (2000), so only the engine itself can be given it.
    for (const { pattern, value, ok } of HOSTILE) {
      expect(matchesWhole(pattern, ok, 2000)).toBe(true);
      for (const length of [56, 10_000]) {
        const started = performance.now();
        expect(matchesWhole(pattern, value(length), 2000)).toBe(false);
        expect(performance.now() - started, `${pattern}, ${length}`).toBeLessThan(ENGINE_BUDGET_MS);
      }
    }
  });

  it("refuses backreferences and lookaround on creation and on update, naming validation.pattern and why", async () => {
    const why =
      "Backreferences and lookaround (lookahead, lookbehind) are not supported: patterns run on a linear-time engine.";
    const refused = ["(a)\\1", "(?<n>a)\\k<n>", "a(?=b)", "a(?!b)", "(?<=a)b", "(?<!a)b"];
    for (const [i, pattern] of refused.entries()) {
      const res = await call("POST", "/profile-fields", {
        key: `r${i}_field`,
        label: "R",
        type: "text",
        validation: { pattern },
      });
      expect(res.statusCode, pattern).toBe(400);
      expect(res.json().error).toBe("validation_failed");
      expect(detailsOf(res)).toEqual([{ field: "validation.pattern", message: why }]);
    }
    const list = (await call("GET", "/profile-fields?perPage=100")).json().data as { key: string }[];
    expect(list.filter((f) => f.key.startsWith("r"))).toEqual([]);

    const made = await call("POST", "/profile-fields", {
      key: "code_u",
      label: "C",
      type: "text",
      validation: { pattern: "[A-Z]-\\d+" },
    });
    expect(made.statusCode, made.body).toBe(201);
    const update = await call("PATCH", `/profile-fields/${made.json().id}`, {
      validation: { pattern: "(?=A)[A-Z]-\\d+" },
    });
    expect(update.statusCode).toBe(400);
    expect(detailsOf(update)).toEqual([{ field: "validation.pattern", message: why }]);
    const after = await call("GET", `/profile-fields/${made.json().id}`);
    expect(after.json().validation).toEqual({ pattern: "[A-Z]-\\d+" });
  });

  it("says which syntax the engine cannot run, and refuses a pattern too large for the field's longest value", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [
        { pattern: "\\p{Letter}+" },
        "Uses syntax the linear-time pattern engine does not support: \\p{Letter}.",
      ],
      [{ pattern: "a{1001}" }, "Uses syntax the linear-time pattern engine does not support: {1001}."],
      [{ pattern: "[\\S]+" }, "Uses syntax the linear-time pattern engine does not support: [\\S]."],
      [{ pattern: "([a-z" }, "Must be a valid regular expression."],
      [
        { pattern: "[\\p{L}\\p{N}]{1000}", maxLength: 2000 },
        "Is too complex for the longest value this field accepts: use smaller repetition counts or a lower maxLength.",
      ],
    ];
    for (const [i, [validation, message]] of cases.entries()) {
      const res = await call("POST", "/profile-fields", {
        key: `x${i}_field`,
        label: "X",
        type: "textarea",
        validation,
      });
      expect(res.statusCode, JSON.stringify(validation)).toBe(400);
      expect(detailsOf(res)).toEqual([{ field: "validation.pattern", message }]);
    }
    // The same repetition is fine where values are short: the bound is the work, size × longest value.
    const short = await call("POST", "/profile-fields", {
      key: "short_code",
      label: "S",
      type: "text",
      validation: { pattern: "[\\p{L}\\p{N}]{1,150}", maxLength: 150 },
    });
    expect(short.statusCode, short.body).toBe(201);
  });

  it("ordinary patterns keep their JavaScript meaning: anchors, classes, \\d, Unicode letters and escapes", async () => {
    const fields: [string, string, string[], string[]][] = [
      ["p_digits", "^[0-9]{8}$", ["20260001"], ["2026001", "2026000a", "٢٠٢٦٠٠٠١"]],
      ["p_name", "\\p{Lu}\\p{Ll}+(?: \\p{Lu}\\p{Ll}+)*", ["Ágata Souza", "Ørjan"], ["ágata", "ANA", "Ana1"]],
      ["p_latin", "[\\u00C0-\\u017Fa-z]+", ["ação", "ł"], ["Ação", "a b"]],
      ["p_greek", "\\p{Script=Greek}+", ["αβγ"], ["abc"]],
      ["p_named", "(?<year>\\d{4})-(?<n>\\d{2,3})", ["2026-07", "2026-123"], ["26-07"]],
      ["p_dot", "a.c", ["abc", "a😀c"], ["ac", "a😀😀c"]],
      ["p_astral", "\\u{1F600}+", ["😀😀"], ["😁"]],
    ];
    for (const [key, pattern] of fields) {
      const res = await call("POST", "/profile-fields", {
        key,
        label: key,
        type: "text",
        validation: { pattern },
      });
      expect(res.statusCode, `${pattern}: ${res.body}`).toBe(201);
    }
    for (const [key, pattern, good, bad] of fields) {
      for (const value of good) {
        const { res } = await timedUser(key, value);
        expect(res.statusCode, `${pattern} should accept ${value}: ${res.body}`).toBe(201);
        expect(new RegExp(`^(?:${pattern})$`, "u").test(value)).toBe(true);
      }
      for (const value of bad) {
        const { res } = await timedUser(key, value);
        expect(res.statusCode, `${pattern} should refuse ${value}`).toBe(400);
        expect(new RegExp(`^(?:${pattern})$`, "u").test(value.trim().replace(/\s+/g, " "))).toBe(false);
      }
    }
  });
});
