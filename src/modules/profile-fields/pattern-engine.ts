/**
 * Administrators' `validation.pattern`s, run in linear time. A pattern is written in JavaScript's syntax (the `u`
 * flag, as documented since the field existed) and runs on re2js, a port of RE2: matching takes time proportional
 * to the value's length times the compiled program's size, whatever the pattern, so no pattern can hold the event
 * loop the way a backtracking engine can (`^(a|a)*$` on 56 characters took 39 s on V8's engine).
 *
 * The few places where the two syntaxes spell or mean the same thing differently are translated so that a pattern
 * means what it means in JavaScript: `\uXXXX` and `\u{…}`, `\p{Script=…}`, `.` (no line terminator), `\s` (Unicode
 * white space), `\0`, `\cX`, `[\b]`, a `[` inside a class, and the empty classes `[]` and `[^]`. What RE2 cannot run
 * at all (backreferences and lookaround) or what RE2 spells differently without a faithful translation is refused
 * when the field is written, never silently reinterpreted.
 */
import { RE2JS } from "re2js";

/** Why a pattern is refused: a message key of the `validation.pattern` detail, and its parameters. */
export interface PatternRefusal {
  key: string;
  params?: Record<string, string | number>;
}

/**
 * Matching costs at most about (program size × value length) steps. This many keeps the worst pattern on the
 * longest value a field allows within a few milliseconds; the absolute cap bounds compilation and memory.
 */
const WORK_BUDGET = 600_000;
const MAX_PROGRAM_SIZE = 3_000;

/** JavaScript's `\s` (WhiteSpace and LineTerminator), as RE2 class members. */
const JS_SPACE =
  "\\t\\n\\x{0B}\\f\\r \\x{A0}\\x{1680}\\x{2000}-\\x{200A}\\x{2028}\\x{2029}\\x{202F}\\x{205F}\\x{3000}\\x{FEFF}";
/** JavaScript's `.` without the `s` flag: anything but a line terminator. */
const JS_DOT = "[^\\n\\r\\x{2028}\\x{2029}]";
const HEX = /^[0-9a-fA-F]+$/;
/** JavaScript's property prefixes RE2 does not spell: `\p{Script=Greek}` is RE2's `\p{Greek}`. */
const PROPERTY_PREFIX = /^(?:Script|sc|General_Category|gc)=/;

type Translation = { re2: string } | { refusal: PatternRefusal };

const unsupported = (syntax: string): Translation => ({
  refusal: { key: "field.regex_unsupported", params: { syntax } },
});
const backtracking: Translation = { refusal: { key: "field.regex_backtracking" } };

/** `\u` escapes after the `u`: `{…}` or four hex digits, a surrogate pair of them joined into one code point. */
function unicodeEscape(src: string, i: number): { code: number; end: number } | undefined {
  if (src[i] === "{") {
    const close = src.indexOf("}", i);
    const hex = src.slice(i + 1, close);
    return close > i && HEX.test(hex) ? { code: Number.parseInt(hex, 16), end: close + 1 } : undefined;
  }
  const hex = src.slice(i, i + 4);
  if (hex.length !== 4 || !HEX.test(hex)) return undefined;
  const code = Number.parseInt(hex, 16);
  const low = src.slice(i + 6, i + 10);
  if (code >= 0xd800 && code <= 0xdbff && src.slice(i + 4, i + 6) === "\\u" && HEX.test(low)) {
    const lo = Number.parseInt(low, 16);
    if (lo >= 0xdc00 && lo <= 0xdfff)
      return { code: 0x10000 + ((code - 0xd800) << 10) + (lo - 0xdc00), end: i + 10 };
  }
  return { code, end: i + 4 };
}

const codePoint = (code: number) => `\\x{${code.toString(16).toUpperCase()}}`;

/**
 * Rewrites a pattern that is valid JavaScript (`u` flag) into RE2 syntax with the same meaning, or says why it
 * cannot. One pass over at most 200 characters; the JavaScript parser already refused malformed input, so the
 * scanner only meets well-formed escapes, groups and classes.
 */
export function translate(src: string): Translation {
  let out = "";
  let inClass = false;
  let i = 0;
  while (i < src.length) {
    const ch = src[i] as string;
    if (ch === "\\") {
      const next = src[i + 1] ?? "";
      i += 2;
      if (/[1-9]/.test(next) || next === "k") return backtracking;
      switch (next) {
        case "0":
          out += "\\x00";
          break;
        case "u": {
          const esc = unicodeEscape(src, i);
          if (esc === undefined) return unsupported("\\u");
          out += codePoint(esc.code);
          i = esc.end;
          break;
        }
        case "c":
          out += codePoint((src.codePointAt(i) ?? 0) % 32);
          i += 1;
          break;
        case "p":
        case "P": {
          const close = src.indexOf("}", i);
          if (close < 0) return unsupported(`\\${next}`);
          const name = src.slice(i + 1, close).replace(PROPERTY_PREFIX, "");
          out += `\\${next}{${name}}`;
          i = close + 1;
          break;
        }
        case "s":
          out += inClass ? JS_SPACE : `[${JS_SPACE}]`;
          break;
        case "S":
          // RE2 has no class subtraction to say "not JavaScript white space" inside another class.
          if (inClass) return unsupported("[\\S]");
          out += `[^${JS_SPACE}]`;
          break;
        case "b":
          out += inClass ? "\\x08" : "\\b";
          break;
        default:
          // u mode allows only these after `\`: syntax characters and `/` (RE2 takes any punctuation escaped),
          // and escapes both engines spell alike (d D w W B f n r t v, `\xHH`).
          out += `\\${next}`;
      }
      continue;
    }
    if (inClass) {
      if (ch === "]") inClass = false;
      out += ch === "[" ? "\\[" : ch;
      i += 1;
      continue;
    }
    if (ch === "[") {
      // In JavaScript `[]` matches nothing and `[^]` anything; in RE2 a `]` right after `[` is a member.
      if (src.startsWith("[]", i)) {
        out += "[^\\x00-\\x{10FFFF}]";
        i += 2;
        continue;
      }
      if (src.startsWith("[^]", i)) {
        out += "[\\x00-\\x{10FFFF}]";
        i += 3;
        continue;
      }
      inClass = true;
      const negated = src[i + 1] === "^";
      out += negated ? "[^" : "[";
      i += negated ? 2 : 1;
      continue;
    }
    if (ch === "(" && src[i + 1] === "?") {
      const rest = src.slice(i + 2, i + 4);
      if (rest.startsWith("=") || rest.startsWith("!") || rest === "<=" || rest === "<!") return backtracking;
      // Named groups `(?<name>` and `(?:` mean the same in both; anything else after `(?` is a flag modifier
      // (`(?i:…)`), which only newer JavaScript engines parse: refused everywhere so the answer never depends
      // on the Node version.
      if (!rest.startsWith("<") && !rest.startsWith(":")) return unsupported("(?flags:…)");
    }
    out += ch === "." ? JS_DOT : ch;
    i += 1;
  }
  return { re2: out };
}

const FRAGMENT = /`([^`]{1,40})`\s*$/;

/** Compiles a pattern, or says why it is refused. `longestValue`: the longest text the pattern will meet. */
export function compilePattern(
  source: string,
  longestValue: number,
): { ok: true; program: RE2JS } | { ok: false; refusal: PatternRefusal } {
  try {
    // Only parsed (V8 compiles a RegExp on its first use, which never comes): JavaScript's syntax is the contract.
    new RegExp(source, "u");
  } catch {
    return { ok: false, refusal: { key: "field.regex" } };
  }
  const translated = translate(source);
  if ("refusal" in translated) return { ok: false, refusal: translated.refusal };
  let program: RE2JS;
  try {
    program = RE2JS.compile(translated.re2);
  } catch (err) {
    // RE2's messages end with the offending fragment in backquotes: `\p{Letter}`, `{1001}`.
    const fragment = FRAGMENT.exec(err instanceof Error ? err.message : "")?.[1] ?? source;
    return { ok: false, refusal: { key: "field.regex_unsupported", params: { syntax: fragment } } };
  }
  if (!withinBudget(program, longestValue)) return { ok: false, refusal: { key: "field.regex_too_complex" } };
  return { ok: true, program };
}

function withinBudget(program: RE2JS, longestValue: number): boolean {
  const size = program.programSize();
  return size <= MAX_PROGRAM_SIZE && size * Math.max(longestValue, 1) <= WORK_BUDGET;
}

/**
 * Compiled patterns by source, most recently used last. Bounded: each entry keeps RE2's DFA cache, and a tenant
 * has at most 100 fields.
 */
const cache = new Map<string, RE2JS | null>();
const CACHE_SIZE = 128;

function cached(source: string): RE2JS | null {
  const hit = cache.get(source);
  if (hit !== undefined) {
    cache.delete(source);
    cache.set(source, hit);
    return hit;
  }
  const compiled = compilePattern(source, 1);
  const program = compiled.ok ? compiled.program : null;
  cache.set(source, program);
  if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  return program;
}

/**
 * Whether the whole of `text` matches; `longestValue` as for `compilePattern`. A stored pattern this engine refuses
 * (written before patterns ran on it, e.g. with a lookahead) matches nothing: the value cannot be verified, so it is
 * refused until an administrator rewrites the pattern, rather than accepted unchecked.
 */
export function matchesWhole(source: string, text: string, longestValue: number): boolean {
  const program = cached(source);
  return program !== null && withinBudget(program, longestValue) && program.testExact(text);
}
