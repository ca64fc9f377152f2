import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type Clause,
  CONDITION_OPS,
  type Condition,
  type ConditionContext,
  type ConditionOp,
  evaluateCondition,
  type Scalar,
} from "./condition.js";
import { MAX_CLAUSES, MAX_IN_VALUES, validateCondition } from "./condition-validation.js";
import { lookupOwn } from "./path.js";

const ctx = (event: object, user: object | null = null): ConditionContext => ({ event, user });
const one = (clause: Clause, context: ConditionContext) => evaluateCondition({ all: [clause] }, context);

/** A context built by JSON.parse, so `__proto__`, `constructor` and `prototype` are own properties. */
const POISONED = JSON.parse(
  '{"__proto__": {"polluted": 1, "x": 1}, "constructor": {"prototype": {"polluted": 1}}, "prototype": {"x": 1}, "ok": {"__proto__": 1}}',
) as object;

describe("validateCondition", () => {
  it("accepts every operator with a suitable value and returns a normalised copy", () => {
    const input = {
      all: [
        { field: "event.score", op: "gte", value: 70 },
        { field: "event.passed", op: "eq", value: true },
        { field: "user.role", op: "in", value: ["student", "teacher"] },
        { field: "user.tags", op: "contains", value: "vip" },
        { field: "user.externalId", op: "exists" },
        { field: "event.submittedAt", op: "lt", value: "2026-06-01T00:00:00Z" },
        { field: "event.letter", op: "ne", value: null },
        { field: "user.profile.company_name", op: "exists", value: false },
        { field: "event.items.0.id", op: "eq", value: "a" },
      ],
    };
    const result = validateCondition(input);
    expect(result).toEqual({ ok: true, condition: input });
    if (!result.ok) return;
    expect(result.condition).not.toBe(input);
    const clause = (result.condition as { all: Clause[] }).all[2]!;
    expect(clause.value).not.toBe(input.all[2]!.value);
    expect(validateCondition({ any: [] })).toEqual({ ok: true, condition: { any: [] } });
  });

  it("names the exact field of every problem", () => {
    const result = validateCondition({
      all: [
        { field: "score", op: "eq", value: 1 },
        { field: "event.x", op: "between", value: 1 },
        { field: "event.x", op: "gt" },
        { field: "event.x", op: "in", value: "a" },
        { field: "event.x", op: "exists", value: "yes", extra: 1 },
        "event.x eq 1",
        { op: "eq", value: 1 },
      ],
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.details.map((d) => [d.field, d.key])).toEqual([
      ["condition.all[0].field", "field.invalid"],
      ["condition.all[1].op", "field.enum"],
      ["condition.all[2].value", "field.required"],
      ["condition.all[3].value", "field.type"],
      ["condition.all[4].extra", "field.unknown"],
      ["condition.all[4].value", "field.type"],
      ["condition.all[5]", "field.type"],
      ["condition.all[6].field", "field.required"],
    ]);
    for (const detail of result.details) expect(detail.message).not.toBe("");
  });

  it("refuses the wrong shape at the top", () => {
    const fields = (input: unknown, at?: string) => {
      const r = validateCondition(input, at);
      return r.ok ? [] : r.details.map((d) => d.field);
    };
    expect(fields(null)).toEqual(["condition"]);
    expect(fields([])).toEqual(["condition"]);
    expect(fields({})).toEqual(["condition"]);
    expect(fields({ all: [], any: [] })).toEqual(["condition"]);
    expect(fields({ all: {} })).toEqual(["condition.all"]);
    expect(fields({ all: [], none: [] })).toEqual(["condition.none"]);
    expect(fields({ any: "x" }, "body.condition")).toEqual(["body.condition.any"]);
    expect(fields(JSON.parse('{"all": [], "__proto__": {"any": []}}'))).toEqual(["condition.__proto__"]);
  });

  it("limits clauses, path depth and value size", () => {
    const clause = { field: "event.x", op: "eq", value: 1 };
    expect(validateCondition({ all: Array(MAX_CLAUSES).fill(clause) }).ok).toBe(true);
    const tooMany = validateCondition({ any: Array(MAX_CLAUSES + 1).fill(clause) });
    expect(tooMany).toMatchObject({
      ok: false,
      details: [{ field: "condition.any", key: "field.max_items" }],
    });

    expect(validateCondition({ all: [{ ...clause, field: "event.a.b.c.d.e.f.g" }] }).ok).toBe(true);
    expect(validateCondition({ all: [{ ...clause, field: "event.a.b.c.d.e.f.g.h" }] }).ok).toBe(false);

    const inList = (n: number) => ({ all: [{ field: "event.x", op: "in", value: Array(n).fill(1) }] });
    expect(validateCondition(inList(MAX_IN_VALUES)).ok).toBe(true);
    expect(validateCondition(inList(MAX_IN_VALUES + 1)).ok).toBe(false);
    expect(validateCondition({ all: [{ ...clause, value: "x".repeat(5000) }] }).ok).toBe(false);
  });

  it("refuses field paths outside event.* and user.*, and every prototype segment", () => {
    for (const field of [
      "event",
      "user",
      "score",
      "course.id",
      "Event.score",
      "event.",
      ".event.x",
      "event..x",
      "event.a b",
      "event.a[0]",
      "event.__proto__",
      "event.__proto__.polluted",
      "user.constructor",
      "user.constructor.prototype",
      "event.a.prototype",
      `event.${"a".repeat(65)}`,
      `event.${"a.".repeat(100)}a`,
    ]) {
      const result = validateCondition({ all: [{ field, op: "exists" }] });
      expect(result.ok, field).toBe(false);
    }
  });

  it("refuses values that do not suit the operator", () => {
    const bad: [ConditionOp, unknown][] = [
      ["eq", [1]],
      ["eq", { a: 1 }],
      ["ne", Number.NaN],
      ["gt", true],
      ["gt", null],
      ["lte", [1]],
      ["in", [[1]]],
      ["in", [{}]],
      ["contains", ["a"]],
      ["exists", 1],
      ["exists", null],
    ];
    for (const [op, value] of bad) {
      expect(
        validateCondition({ all: [{ field: "event.x", op, value }] }).ok,
        `${op} ${JSON.stringify(value)}`,
      ).toBe(false);
    }
  });
});

describe("evaluateCondition", () => {
  const event = {
    score: 85,
    percent: 0.85,
    passed: true,
    letter: null,
    title: "Álgebra Linear",
    countText: "10",
    tags: ["vip", "beta", 3],
    submittedAt: "2026-05-01T12:00:00Z",
    day: "2026-05-01",
    items: [{ id: "a" }, { id: "b" }],
    nested: { deep: { value: 1 } },
  };
  const user = { name: "Ana", role: "student", externalId: null, tags: [] };
  const context = ctx(event, user);
  const holds = (field: string, op: ConditionOp, value?: Clause["value"]) =>
    one(value === undefined ? { field, op } : { field, op, value }, context);

  it("treats an empty all as true and an empty any as false", () => {
    expect(evaluateCondition({ all: [] }, context)).toBe(true);
    expect(evaluateCondition({ any: [] }, context)).toBe(false);
  });

  it("compares without coercion", () => {
    expect(holds("event.score", "eq", 85)).toBe(true);
    expect(holds("event.score", "eq", "85")).toBe(false);
    expect(holds("event.countText", "gt", 9)).toBe(false);
    expect(holds("event.countText", "lt", 9)).toBe(false);
    expect(holds("event.score", "gt", "9")).toBe(false);
    expect(holds("event.passed", "eq", 1)).toBe(false);
    expect(holds("event.passed", "gt", 0)).toBe(false);
    expect(holds("event.letter", "eq", 0)).toBe(false);
    expect(holds("event.letter", "eq", null)).toBe(true);
    expect(holds("event.tags", "eq", "vip")).toBe(false);
    expect(holds("event.score", "gt", 84.9)).toBe(true);
    expect(holds("event.score", "gte", 85)).toBe(true);
    expect(holds("event.score", "lt", 85)).toBe(false);
    expect(holds("event.score", "lte", 85)).toBe(true);
    expect(holds("event.percent", "lt", 1)).toBe(true);
  });

  it("compares ISO dates as instants and other strings as strings, never one with the other", () => {
    expect(holds("event.submittedAt", "gte", "2026-05-01T09:00:00-03:00")).toBe(true);
    expect(holds("event.submittedAt", "lte", "2026-05-01T09:00:00-03:00")).toBe(true);
    expect(holds("event.submittedAt", "gt", "2026-05-01T12:00:00.000000001Z")).toBe(false);
    expect(holds("event.submittedAt", "lt", "2026-05-01T12:00:00.000000001Z")).toBe(true);
    expect(holds("event.submittedAt", "gt", "2026-05-01")).toBe(true);
    expect(holds("event.day", "lt", "2026-05-01T00:00:01Z")).toBe(true);
    expect(holds("event.submittedAt", "gt", "2026-04-30t23:59:59z")).toBe(true);
    // Without a zone a time names no instant, and an impossible date is no date: both are plain strings.
    expect(holds("event.submittedAt", "gt", "2026-05-01T11:00:00")).toBe(false);
    expect(holds("event.submittedAt", "gt", "2026-02-30")).toBe(false);
    expect(holds("event.title", "gt", "2026-01-01")).toBe(false);
    expect(holds("event.title", "gt", "A")).toBe(true);
    expect(holds("event.title", "lt", "B")).toBe(false); // "Á" sorts after "B" by code unit
  });

  it("implements in, contains and exists", () => {
    expect(holds("user.role", "in", ["teacher", "student"])).toBe(true);
    expect(holds("user.role", "in", ["teacher"])).toBe(false);
    expect(holds("event.score", "in", ["85"])).toBe(false);
    expect(holds("event.tags", "in", ["vip"])).toBe(false);
    expect(holds("event.title", "contains", "Linear")).toBe(true);
    expect(holds("event.title", "contains", "linear")).toBe(false);
    expect(holds("event.tags", "contains", "vip")).toBe(true);
    expect(holds("event.tags", "contains", 3)).toBe(true);
    expect(holds("event.tags", "contains", "3")).toBe(false);
    expect(holds("event.score", "contains", 8)).toBe(false);
    expect(holds("user.tags", "contains", "vip")).toBe(false);
    expect(holds("user.externalId", "exists")).toBe(true);
    expect(holds("user.externalId", "exists", true)).toBe(true);
    expect(holds("user.externalId", "exists", false)).toBe(false);
    expect(holds("user.email", "exists")).toBe(false);
    expect(holds("user.email", "exists", false)).toBe(true);
  });

  it("matches a missing field only with exists false and ne", () => {
    for (const op of CONDITION_OPS) {
      const value: Clause["value"] = op === "exists" ? true : op === "in" ? [null, 1, "a"] : null;
      expect(holds("event.nope", op, value), op).toBe(op === "ne");
      expect(holds("event.score.inner", op, value), op).toBe(op === "ne");
    }
    expect(holds("event.nope", "exists", false)).toBe(true);
    expect(one({ field: "user.name", op: "exists", value: false }, ctx(event, null))).toBe(true);
    expect(one({ field: "user.name", op: "ne", value: "Ana" }, ctx(event, null))).toBe(true);
  });

  it("enters arrays by index only and objects by own data properties only", () => {
    expect(holds("event.items.1.id", "eq", "b")).toBe(true);
    expect(holds("event.items.01.id", "exists")).toBe(false);
    expect(holds("event.items.length", "exists")).toBe(false);
    expect(holds("event.title.length", "exists")).toBe(false);
    expect(holds("event.nested.deep.value", "eq", 1)).toBe(true);
    expect(holds("event.toString", "exists")).toBe(false);
    expect(holds("event.hasOwnProperty", "exists")).toBe(false);
    let called = false;
    const withGetter = Object.defineProperty({}, "secret", {
      enumerable: true,
      get() {
        called = true;
        return 1;
      },
    });
    expect(one({ field: "event.secret", op: "exists" }, ctx(withGetter))).toBe(false);
    expect(called).toBe(false);
    expect(
      one({ field: "event.x", op: "eq", value: 1 }, ctx(Object.assign(Object.create({ x: 1 }), {}))),
    ).toBe(false);
  });

  it("never resolves prototype segments, even when JSON.parse made them own properties", () => {
    const context = ctx(POISONED, POISONED);
    for (const field of [
      "event.__proto__",
      "event.__proto__.polluted",
      "event.constructor",
      "event.constructor.prototype",
      "event.constructor.prototype.polluted",
      "event.prototype.x",
      "event.ok.__proto__",
      "user.__proto__.x",
    ]) {
      expect(one({ field, op: "exists" }, context), field).toBe(false);
      expect(one({ field, op: "eq", value: 1 }, context), field).toBe(false);
    }
    expect(one({ field: "event.ok", op: "exists" }, context)).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe("lookupOwn (shared with templates)", () => {
  it("refuses prototype segments itself, not only through the path parser in front of it", () => {
    expect(lookupOwn(POISONED, ["__proto__"])).toEqual({ found: false });
    expect(lookupOwn(POISONED, ["constructor"])).toEqual({ found: false });
    expect(lookupOwn(POISONED, ["prototype", "x"])).toEqual({ found: false });
    expect(lookupOwn(POISONED, ["ok"])).toEqual({ found: true, value: JSON.parse('{"__proto__": 1}') });
    expect(lookupOwn({}, ["toString"])).toEqual({ found: false });
    expect(lookupOwn(Object.create({ inherited: 1 }), ["inherited"])).toEqual({ found: false });
    expect(lookupOwn(Object.assign(Object.create(null), { a: 1 }), ["a"])).toEqual({ found: true, value: 1 });
    expect(lookupOwn({ a: undefined }, ["a"])).toEqual({ found: false });
    expect(lookupOwn(null, ["a"])).toEqual({ found: false });
    expect(lookupOwn({ a: 1 }, [])).toEqual({ found: true, value: { a: 1 } });
  });
});

// ---------------------------------------------------------------------------------------------------------
// Properties

const scalar: fc.Arbitrary<Scalar> = fc.oneof(
  fc.string({ maxLength: 6 }),
  fc.constantFrom("a", "b", "A", "", "2026-05-01", "2026-05-01T12:00:00Z", "2026-05-01T09:00:00-03:00"),
  fc.integer({ min: -3, max: 3 }),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.constant(null),
);
const fieldValue: fc.Arbitrary<unknown> = fc.oneof(
  scalar,
  fc.array(scalar, { maxLength: 4 }),
  fc.record({ a: scalar }),
  fc.jsonValue({ maxDepth: 2 }),
);
const data: fc.Arbitrary<Record<string, unknown>> = fc.record(
  { a: fieldValue, b: fieldValue, c: fieldValue },
  { requiredKeys: [] },
);
const context: fc.Arbitrary<ConditionContext> = fc.record({
  event: data,
  user: fc.option(data, { nil: null }),
});
const fieldPath = fc.constantFrom(
  "event.a",
  "event.b",
  "event.c",
  "event.a.a",
  "event.a.0",
  "user.a",
  "user.b",
);

const clause: fc.Arbitrary<Clause> = fc.oneof(
  fc.record({ field: fieldPath, op: fc.constantFrom("eq", "ne", "contains"), value: scalar }),
  fc.record({
    field: fieldPath,
    op: fc.constantFrom("gt", "gte", "lt", "lte"),
    value: fc.oneof(fc.string({ maxLength: 6 }), fc.integer({ min: -3, max: 3 }), fc.constant("2026-05-01")),
  }),
  fc.record({ field: fieldPath, op: fc.constant("in"), value: fc.array(scalar, { maxLength: 5 }) }),
  fc.record(
    { field: fieldPath, op: fc.constant("exists"), value: fc.boolean() },
    { requiredKeys: ["field", "op"] },
  ),
) as fc.Arbitrary<Clause>;
const clauses = fc.array(clause, { maxLength: MAX_CLAUSES });

describe("condition properties", () => {
  it("generated clauses are valid, and validation returns them unchanged", () => {
    fc.assert(
      fc.property(clauses, fc.boolean(), (list, all) => {
        const condition: Condition = all ? { all: list } : { any: list };
        expect(validateCondition(condition)).toEqual({ ok: true, condition });
      }),
    );
  });

  it("all is the conjunction and any the disjunction of the single clauses", () => {
    fc.assert(
      fc.property(clauses, context, (list, c) => {
        const singles = list.map((cl) => evaluateCondition({ all: [cl] }, c));
        expect(singles).toEqual(list.map((cl) => evaluateCondition({ any: [cl] }, c)));
        expect(evaluateCondition({ all: list }, c)).toBe(singles.every(Boolean));
        expect(evaluateCondition({ any: list }, c)).toBe(singles.some(Boolean));
      }),
    );
  });

  it("ne is the negation of eq for present fields, and true for missing ones", () => {
    fc.assert(
      fc.property(fieldPath, scalar, context, (field, value, c) => {
        const present = one({ field, op: "exists" }, c);
        const eq = one({ field, op: "eq", value }, c);
        const ne = one({ field, op: "ne", value }, c);
        expect(ne).toBe(present ? !eq : true);
        if (!present) expect(eq).toBe(false);
      }),
    );
  });

  it("exists false is the negation of exists true", () => {
    fc.assert(
      fc.property(fieldPath, context, (field, c) => {
        expect(one({ field, op: "exists", value: false }, c)).toBe(!one({ field, op: "exists" }, c));
      }),
    );
  });

  it("prototype and inherited paths never resolve, whatever the data", () => {
    const segment = fc.constantFrom(
      "__proto__",
      "constructor",
      "prototype",
      "toString",
      "valueOf",
      "hasOwnProperty",
      "length",
      "polluted",
    );
    const poisoned = fc
      .jsonValue({ maxDepth: 3 })
      .map((v) =>
        JSON.parse(`{"__proto__": ${JSON.stringify(v)}, "constructor": {"prototype": ${JSON.stringify(v)}}}`),
      );
    fc.assert(
      fc.property(
        fc.array(segment, { minLength: 1, maxLength: 5 }),
        fc.constantFrom("event", "user"),
        poisoned,
        (segments, root, json) => {
          const c = ctx(json as object, json as object);
          expect(one({ field: [root, ...segments].join("."), op: "exists" }, c)).toBe(false);
          const forbidden = segments.some((s) => ["__proto__", "constructor", "prototype"].includes(s));
          if (forbidden) {
            expect(
              validateCondition({ all: [{ field: [root, ...segments].join("."), op: "exists" }] }).ok,
            ).toBe(false);
          }
        },
      ),
    );
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("never throws on arbitrary JSON, valid or not", () => {
    const json = fc.oneof(
      fc.jsonValue(),
      fc.json().map((text) => JSON.parse(text) as unknown),
    );
    const asObject = (v: unknown): object => (typeof v === "object" && v !== null ? v : { v });
    const anyClause = fc.record({
      field: fc.oneof(fc.string(), fieldPath, fc.constant("event.__proto__.x")),
      op: fc.oneof(fc.constantFrom(...CONDITION_OPS), fc.string()),
      value: fc.jsonValue(),
    });
    fc.assert(
      fc.property(fc.array(anyClause, { maxLength: 5 }), json, json, fc.boolean(), (list, e, u, all) => {
        const condition = (all ? { all: list } : { any: list }) as unknown as Condition;
        const c = ctx(asObject(e), u === null ? null : asObject(u));
        expect(typeof evaluateCondition(condition, c)).toBe("boolean");
        expect(typeof validateCondition(condition).ok).toBe("boolean");
        expect(typeof validateCondition(e).ok).toBe("boolean");
      }),
    );
  });
});
