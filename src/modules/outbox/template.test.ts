import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  MAX_RENDERED_BODY_BYTES,
  renderHeaderTemplate,
  renderJsonTemplate,
  type TemplateContext,
  validateTemplate,
} from "./template.js";
import { urlHasTemplate, urlHasTemplateInHost } from "./template-in-url.js";
import { MAX_PLACEHOLDERS, MAX_TEMPLATE_LENGTH } from "./template-parse.js";

const context: TemplateContext = {
  event: {
    score: 87.5,
    passed: true,
    letter: null,
    courseIds: ["c1", "c2"],
    grade: { letter: "B", percent: 87.5 },
    title: 'Quote " backslash \\ newline \n tab \t </script> {{user.name}} ünïcödé 😀',
  },
  user: { id: "u1", name: 'Ana "The" O\'Brien\r\nX-Injected: 1', email: "ana@example.test" },
  automation: { id: "a1", name: "Notify CRM" },
  timestamp: "2026-05-01T12:00:00.000Z",
};

function render(template: string, c: TemplateContext = context): unknown {
  const result = renderJsonTemplate(template, c);
  if (!result.ok) throw new Error(`${result.reason}: ${result.message}`);
  return JSON.parse(result.text);
}

function header(template: string, c: TemplateContext = context): string {
  const result = renderHeaderTemplate(template, c);
  if (!result.ok) throw new Error(`${result.reason}: ${result.message}`);
  return result.value;
}

/** What a receiver gets back from a header value by reading it as JSON string content. */
const unescapeHeader = (value: string): unknown => JSON.parse(`"${value}"`);

describe("validateTemplate", () => {
  it("accepts the documented paths and lists them", () => {
    const body =
      '{"user": {{user.name}}, "score": "{{ event.score }}", "first": {{event.courseIds.0}}, "a": "{{automation.id}} {{automation.name}}", "at": "{{timestamp}}", "id": "{{eventId}}"}';
    expect(validateTemplate(body)).toEqual({
      ok: true,
      paths: [
        "user.name",
        "event.score",
        "event.courseIds.0",
        "automation.id",
        "automation.name",
        "timestamp",
        "eventId",
      ],
    });
    expect(validateTemplate("Bearer {{event.token}}", { mode: "header" }).ok).toBe(true);
    expect(validateTemplate('{"plain": true}')).toEqual({ ok: true, paths: [] });
  });

  it("reports syntax errors and unknown paths under the given field", () => {
    const cases: [string, RegExp][] = [
      ['{"a": "{{user.name"}', /unclosed \{\{ at offset 7/],
      ['{"a": {{}}}', /unknown path|segment/],
      ['{"a": {{event}}}', /unknown path/],
      ['{"a": {{course.id}}}', /unknown path/],
      ['{"a": {{automation.secret}}}', /unknown path/],
      ['{"a": {{timestamp.x}}}', /unknown path/],
      ['{"a": {{user.__proto__}}}', /__proto__/],
      ['{"a": {{event.constructor.prototype}}}', /__proto__, constructor or prototype/],
      ['{"a": {{{event.x}}}}', /segment/],
      ['{"a": {{event.x | upper}}}', /segment/],
      ['{"a": {{event.a.b.c.d.e.f.g.h}}}', /at most 8/],
    ];
    for (const [template, message] of cases) {
      const result = validateTemplate(template, { field: "action.body" });
      expect(result.ok, template).toBe(false);
      if (result.ok) continue;
      expect(result.details[0]).toMatchObject({ field: "action.body", key: "field.invalid" });
      expect(result.details[0]!.message, template).toMatch(message);
    }
  });

  it("refuses body templates whose rendering would not be JSON for some event", () => {
    for (const template of [
      '{"a": {{event.x}}',
      '{"a": 1{{event.x}}}',
      '{"a": -{{event.x}}}',
      '{"a": {{event.x}}{{event.y}}}',
      // An unquoted placeholder as a key would be JSON only when the value happens to be a string.
      "{ {{event.k}}: 1 }",
      '{"a": "\\{{event.x}}"}',
      '{"a": "line\nbreak"}',
      "not json",
    ]) {
      expect(validateTemplate(template).ok, template).toBe(false);
    }
    expect(validateTemplate('{"{{event.k}}": 1}').ok).toBe(true);
    expect(validateTemplate('["\\\\{{event.x}}", {{event.y}}]').ok).toBe(true);
  });

  it("limits length and placeholders, and keeps header literals to printable ASCII", () => {
    const long = validateTemplate(`"${"x".repeat(MAX_TEMPLATE_LENGTH.json)}"`);
    expect(long).toMatchObject({ ok: false, details: [{ key: "field.max_length" }] });
    const many = `[${Array(MAX_PLACEHOLDERS + 1)
      .fill("{{event.x}}")
      .join(",")}]`;
    expect(validateTemplate(many).ok).toBe(false);
    for (const bad of [
      "a\r\nX-Injected: 1",
      "a\nb",
      "nul\0",
      "ünï",
      "x".repeat(MAX_TEMPLATE_LENGTH.header + 1),
    ]) {
      expect(validateTemplate(bad, { mode: "header" }).ok, JSON.stringify(bad)).toBe(false);
    }
    // Header templates are not JSON: quotes are plain text there.
    expect(validateTemplate('W/"{{event.etag}}"\t', { mode: "header" }).ok).toBe(true);
  });
});

describe("renderJsonTemplate", () => {
  it("renders unquoted placeholders as JSON values and quoted ones as text", () => {
    const body = `{
      "name": "{{user.name}}", "nameValue": {{user.name}}, "greeting": "Hi {{user.name}}!",
      "score": {{event.score}}, "scoreText": "{{event.score}}", "passed": {{event.passed}},
      "letter": {{event.letter}}, "letterText": "[{{event.letter}}]",
      "courses": {{event.courseIds}}, "coursesText": "{{event.courseIds}}", "grade": {{event.grade}},
      "missing": {{event.nope}}, "missingText": "<{{event.nope}}>", "title": "{{event.title}}",
      "automation": "{{automation.name}} ({{automation.id}})", "at": "{{timestamp}}"
    }`;
    expect(render(body)).toEqual({
      name: context.user && (context.user as { name: string }).name,
      nameValue: (context.user as { name: string }).name,
      greeting: `Hi ${(context.user as { name: string }).name}!`,
      score: 87.5,
      scoreText: "87.5",
      passed: true,
      letter: null,
      letterText: "[]",
      courses: ["c1", "c2"],
      coursesText: '["c1","c2"]',
      grade: { letter: "B", percent: 87.5 },
      missing: null,
      missingText: "<>",
      title: (context.event as { title: string }).title,
      automation: "Notify CRM (a1)",
      at: "2026-05-01T12:00:00.000Z",
    });
  });

  it("keeps the template's own text byte for byte and never re-reads inserted text as a placeholder", () => {
    const result = renderJsonTemplate('{ "t" :\t"{{event.title}}" ,"lit": "\\u007b{user.name}}" }', context);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.text.startsWith('{ "t" :\t"')).toBe(true);
    expect(JSON.parse(result.text)).toEqual({
      t: (context.event as { title: string }).title,
      lit: "{{user.name}}",
    });
  });

  it("renders missing roots as null and empty text", () => {
    const bare: TemplateContext = { event: {}, user: null };
    expect(
      render(
        '{"u": {{user.name}}, "t": "{{user.name}}", "a": {{automation.id}}, "ts": "{{timestamp}}"}',
        bare,
      ),
    ).toEqual({ u: null, t: "", a: null, ts: "" });
  });

  it("resolves own data only: inherited names are missing and prototype paths are refused", () => {
    expect(
      render('{"a": {{event.toString}}, "b": "{{event.courseIds.length}}", "c": {{user.hasOwnProperty}}}'),
    ).toEqual({
      a: null,
      b: "",
      c: null,
    });
    const poisoned: TemplateContext = {
      event: JSON.parse(
        '{"__proto__": {"secret": 1}, "constructor": {"prototype": {"secret": 2}}}',
      ) as object,
      user: null,
    };
    for (const path of ["event.__proto__", "event.__proto__.secret", "event.constructor.prototype.secret"]) {
      expect(renderJsonTemplate(`{"v": {{${path}}}}`, poisoned)).toMatchObject({
        ok: false,
        reason: "invalid_template",
      });
    }
    expect(render('{"v": {{event.secret}}}', poisoned)).toEqual({ v: null });
  });

  it("fails instead of sending something that is not JSON", () => {
    expect(renderJsonTemplate('{"a": {{event.x}}', context)).toMatchObject({
      ok: false,
      reason: "invalid_json",
    });
    expect(renderJsonTemplate('{"a": "{{event.x"}', context)).toMatchObject({
      ok: false,
      reason: "invalid_template",
    });
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(renderJsonTemplate('{"a": {{event.c}}}', { event: { c: cyclic }, user: null })).toMatchObject({
      ok: false,
      reason: "unserialisable",
    });
    expect(renderJsonTemplate('{"a": "{{event.c}}"}', { event: { c: 10n }, user: null })).toMatchObject({
      ok: false,
      reason: "unserialisable",
    });
    const big = { event: { s: "x".repeat(MAX_RENDERED_BODY_BYTES) }, user: null };
    expect(renderJsonTemplate('{"a": {{event.s}}}', big)).toMatchObject({ ok: false, reason: "too_large" });
  });
});

describe("renderHeaderTemplate", () => {
  it("JSON-escapes values to printable ASCII, so CR/LF cannot split headers", () => {
    const value = header("Name {{user.name}}");
    expect(value).toBe(`Name Ana \\"The\\" O'Brien\\r\\nX-Injected: 1`);
    expect(value).not.toMatch(/[\r\n]/);
    expect(header("{{event.title}}")).toMatch(/^[\x20-\x7e]*$/);
    expect(unescapeHeader(header("{{event.title}}"))).toBe((context.event as { title: string }).title);
    expect(header("{{user.id}}")).toBe("u1");
  });

  it("renders scalars as text and missing or null values as nothing", () => {
    expect(
      header("{{event.score}}|{{event.passed}}|{{event.letter}}|{{event.nope}}|{{event.courseIds}}"),
    ).toBe('87.5|true|||[\\"c1\\",\\"c2\\"]');
    expect(header("v={{user.name}}", { event: {}, user: null })).toBe("v=");
    expect(header("{{timestamp}}")).toBe("2026-05-01T12:00:00.000Z");
  });

  it("refuses invalid header templates", () => {
    expect(renderHeaderTemplate("a\r\nb: {{user.id}}", context)).toMatchObject({
      ok: false,
      reason: "invalid_template",
    });
    expect(renderHeaderTemplate("{{user.constructor}}", context)).toMatchObject({
      ok: false,
      reason: "invalid_template",
    });
    expect(renderHeaderTemplate("{{user.id", context)).toMatchObject({
      ok: false,
      reason: "invalid_template",
    });
  });
});

describe("templates in URLs", () => {
  it("finds {{ in the scheme or authority, in every spelling the URL parser accepts", () => {
    for (const url of [
      "https://{{user.name}}.example.com/x",
      "https://example.{{event.tld}}/",
      "https://user:{{event.password}}@example.com/",
      "https://{{event.user}}@example.com/",
      "https://example.com:{{event.port}}/",
      "{{event.scheme}}://example.com/",
      "https:{{user.name}}.example.com/",
      "https:\\\\{{user.name}}.example.com/",
      "  https://{{user.name}}.example.com",
      "https://{\n{user.name}}.example.com/",
      "https://{\t{user.name}}.example.com/",
      "https://%7B%7Buser.name%7D%7D.example.com/",
      "https://{{user.name}}",
    ]) {
      expect(urlHasTemplateInHost(url), JSON.stringify(url)).toBe(true);
      expect(urlHasTemplate(url), JSON.stringify(url)).toBe(true);
    }
  });

  it("does not count {{ in the path, query or fragment as the host's", () => {
    for (const url of [
      "https://example.com/{{user.id}}",
      "https://example.com/hooks?user={{user.id}}",
      "https://example.com#{{user.id}}",
      "https://example.com\\{{user.id}}",
      "https://example.com/a/%7B%7Bx%7D%7D",
    ]) {
      expect(urlHasTemplateInHost(url), url).toBe(false);
    }
    expect(urlHasTemplate("https://example.com/hooks?user={{user.id}}")).toBe(true);
    expect(urlHasTemplate("https://example.com/hooks?user=1")).toBe(false);
    expect(urlHasTemplateInHost("https://example.com/hooks")).toBe(false);
  });
});

// ---------------------------------------------------------------------------------------------------------
// Properties

/** Strings that stress escaping: any UTF-16 code unit, lone surrogates included, plus known troublemakers. */
const nasty = fc.oneof(
  fc.string({ unit: "binary" }),
  fc.string({
    unit: fc.constantFrom(
      '"',
      "\\",
      "\n",
      "\r",
      "\0",
      "\u2028",
      "{{",
      "}}",
      "</script>",
      "\ud800",
      "é",
      "😀",
    ),
  }),
  fc.constantFrom('"}, "admin": true, "x": "', "\\u0000", "{{user.name}}", "\r\nX-Injected: 1"),
);
const ctxWith = (x: unknown): TemplateContext => ({ event: { x }, user: { name: x } });

describe("template properties", () => {
  it("a string placed in a body, quoted or not, parses back to exactly itself", () => {
    fc.assert(
      fc.property(nasty, fc.string(), fc.string(), (s, pre, post) => {
        expect(render('{"v": {{event.x}}}', ctxWith(s))).toEqual({ v: s });
        expect(render('{"v": "{{event.x}}"}', ctxWith(s))).toEqual({ v: s });
        // Literal braces are written escaped: a `{` right before `{{` would be read as part of the placeholder.
        const safe = (t: string) => JSON.stringify(t).slice(1, -1).replaceAll("{", "\\u007b");
        expect(render(`{"v": "${safe(pre)}{{user.name}}${safe(post)}"}`, ctxWith(s))).toEqual({
          v: pre + s + post,
        });
      }),
    );
  });

  it("any JSON value placed unquoted parses back to itself", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        const result = renderJsonTemplate('{"v": {{event.x}}, "w": [{{user.name}}]}', ctxWith(v));
        expect(result.ok).toBe(true);
        if (!result.ok) return;
        const parsed = JSON.parse(result.text) as { v: unknown; w: unknown[] };
        expect(JSON.stringify(parsed.v)).toBe(JSON.stringify(v));
        expect(JSON.stringify(parsed.w[0])).toBe(JSON.stringify(v));
      }),
    );
  });

  it("a body template that validates renders JSON for every event", () => {
    const placeholder = fc.constantFrom("{{event.x}}", "{{user.name}}", "{{ event.y.0 }}", "{{timestamp}}");
    // JSON texts with placeholders dropped in at random offsets: mostly refused, sometimes valid.
    const spliced = fc
      .tuple(fc.jsonValue({ maxDepth: 2 }), fc.array(fc.tuple(fc.nat(), placeholder), { maxLength: 3 }))
      .map(([value, inserts]) => {
        let text = JSON.stringify(value);
        for (const [at, p] of inserts) {
          const i = at % (text.length + 1);
          text = text.slice(0, i) + p + text.slice(i);
        }
        return text;
      });
    // Token soup, to reach the escaping and quoting corners.
    const soup = fc
      .array(
        fc.oneof(
          placeholder,
          fc.constantFrom(
            "{",
            "}",
            "[",
            "]",
            '"',
            ":",
            ",",
            "\\",
            '\\"',
            "\\\\",
            " ",
            "1",
            "-",
            "null",
            '"k"',
            "u",
          ),
        ),
        { maxLength: 12 },
      )
      .map((tokens) => tokens.join(""));
    const value = fc.oneof(nasty, fc.jsonValue({ maxDepth: 2 }));
    fc.assert(
      fc.property(fc.oneof(spliced, soup), value, value, (template, x, y) => {
        if (!validateTemplate(template).ok) return;
        // Not String(x): a generated object such as {"toString": ""} makes String() itself throw.
        const c: TemplateContext = {
          event: { x, y: [y] },
          user: { name: y },
          timestamp: JSON.stringify(x) ?? "",
        };
        expect(renderJsonTemplate(template, c).ok, template).toBe(true);
        expect(renderJsonTemplate(template, { event: {}, user: null }).ok, template).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it("prototype paths never leak, whatever the data", () => {
    const segment = fc.constantFrom(
      "__proto__",
      "constructor",
      "prototype",
      "toString",
      "valueOf",
      "length",
      "x",
    );
    const poisoned = fc
      .jsonValue({ maxDepth: 2 })
      .map((v) =>
        JSON.parse(`{"__proto__": {"x": ${JSON.stringify(v)}}, "constructor": {"prototype": {"x": 1}}}`),
      );
    fc.assert(
      fc.property(fc.array(segment, { minLength: 1, maxLength: 4 }), poisoned, (segments, data) => {
        const path = `event.${segments.join(".")}`;
        const c: TemplateContext = { event: data as object, user: data as object };
        const forbidden = segments.some((s) => ["__proto__", "constructor", "prototype"].includes(s));
        const body = renderJsonTemplate(`{"v": {{${path}}}}`, c);
        const head = renderHeaderTemplate(`{{${path}}}`, c);
        if (forbidden) {
          expect(body.ok).toBe(false);
          expect(head.ok).toBe(false);
          expect(validateTemplate(`{{${path}}}`, { mode: "header" }).ok).toBe(false);
        } else {
          // Only `x` is an own key here, and only under the (refused) `__proto__`, so nothing resolves.
          expect(body).toEqual({ ok: true, text: '{"v": null}' });
          expect(head).toEqual({ ok: true, value: "" });
        }
      }),
    );
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });

  it("header values never carry CR, LF or anything but printable ASCII, and read back exactly", () => {
    const literal = fc.string({ unit: fc.constantFrom("a", " ", "\t", '"', "\\", ":", ";", "=") });
    fc.assert(
      fc.property(nasty, literal, literal, (s, pre, post) => {
        const value = header(`${pre}{{user.name}}${post}`, ctxWith(s));
        expect(value).toMatch(/^[\t\x20-\x7e]*$/);
        expect(unescapeHeader(header("{{user.name}}", ctxWith(s)))).toBe(s);
      }),
    );
  });

  it("rendering never throws, whatever the template and the JSON data", () => {
    const template = fc.oneof(
      fc.string(),
      fc.string({
        unit: fc.constantFrom("{{", "}}", "{", "}", '"', "\\", "event.x", "user.name", " ", "\n"),
      }),
    );
    const json = fc.oneof(
      fc.jsonValue(),
      fc.json().map((t) => JSON.parse(t) as unknown),
    );
    const asObject = (v: unknown): object => (typeof v === "object" && v !== null ? v : { x: v });
    fc.assert(
      fc.property(template, json, json, (t, e, u) => {
        const c: TemplateContext = { event: asObject(e), user: asObject(u) };
        expect(typeof renderJsonTemplate(t, c).ok).toBe("boolean");
        expect(typeof renderHeaderTemplate(t, c).ok).toBe("boolean");
        expect(typeof validateTemplate(t).ok).toBe("boolean");
        expect(typeof urlHasTemplateInHost(t)).toBe("boolean");
      }),
    );
  });
});
