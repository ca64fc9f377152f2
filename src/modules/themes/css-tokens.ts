import { ident, string, tokenTypes as T, tokenize, url } from "css-tree";

/**
 * The token layer of the theme CSS rule. Everything here works on the tokens of CSS Syntax Level 3 as css-tree's
 * tokenizer produces them, and compares names only after unescaping them (`\75rl(` is `url(`, `@\69mport` is
 * `@import`), because that is what a browser does: regexes over the raw text miss escapes.
 */

/** Nesting deeper than this is refused: no real theme needs it, and it bounds the splitter's recursion. */
export const MAX_CSS_DEPTH = 32;

export interface Tokens {
  readonly css: string;
  readonly type: Int32Array;
  readonly start: Int32Array;
  readonly end: Int32Array;
  /** For an opening token (`{`, `(`, `[`, a function): the index of its closing token. -1 elsewhere. */
  readonly close: Int32Array;
  readonly length: number;
}

/** At-rules that fetch or re-declare what the page loads; everything else (@media, @supports, @keyframes) stays. */
export const DROPPED_AT_RULES = new Set(["import", "charset", "namespace"]);
/** Properties that run code in old engines (`*behavior` was IE7's spelling; the check below covers it). */
export const DROPPED_PROPERTIES = new Set(["behavior", "-ms-behavior", "-moz-binding"]);
/**
 * Functions whose string arguments are URLs the browser loads: `url()`/`src()` (CSS Values 4), the image
 * functions, and `element()`. A string anywhere inside one of them (nested too) must pass the URL rule.
 */
const URL_FUNCTIONS = new Set(["url", "src", "image", "image-set", "cross-fade", "element"]);
/**
 * Functions that substitute values from elsewhere (another declaration, the environment, an attribute, a custom
 * function's body). Inside a URL function they would smuggle in a string the check never saw, so they are refused
 * there: `image-set(var(--u))` with `--u: "http://…"`.
 */
const SUBSTITUTION_FUNCTIONS = new Set(["var", "env", "attr", "inherit"]);
const SCRIPT_SCHEME = /(?:java|vb)script:/i;
const SCRIPT_WORDS = new Set(["javascript", "vbscript"]);

export function tokens(css: string): Tokens {
  // A token covers at least one character: arrays of the length + 1 hold them all without growing (and without
  // the garbage a growing array leaves behind, which cost more than the tokenizing itself).
  const type = new Int32Array(css.length + 1);
  const start = new Int32Array(css.length + 1);
  const end = new Int32Array(css.length + 1);
  let length = 0;
  tokenize(css, (t, s, e) => {
    type[length] = t;
    start[length] = s;
    end[length] = e;
    length++;
  });
  return { css, type, start, end, close: new Int32Array(length).fill(-1), length };
}

const OPENERS = new Map<number, number>([
  [T.LeftCurlyBracket, T.RightCurlyBracket],
  [T.LeftParenthesis, T.RightParenthesis],
  [T.Function, T.RightParenthesis],
  [T.LeftSquareBracket, T.RightSquareBracket],
]);
const CLOSERS = new Set<number>([T.RightCurlyBracket, T.RightParenthesis, T.RightSquareBracket]);

/**
 * Matches every bracket (filling `close`) the way CSS Syntax does: an opener's block ends at its own closer only,
 * and a closer that does not match the innermost open block is an ordinary token (as after a bad URL). Answers
 * false for CSS whose structure is not settled: a block still open at the end, nesting past MAX_CSS_DEPTH, a bad
 * string, or a string, URL or comment left open at the end (it would swallow whatever CSS is appended after it).
 * One pass, no recursion.
 */
export function wellFormed(tk: Tokens): boolean {
  const stack: number[] = [];
  for (let i = 0; i < tk.length; i++) {
    const t = tk.type[i]!;
    if (t === T.BadString || (t === T.Function && escapedUrlToken(tk, i))) return false;
    if (OPENERS.has(t)) {
      stack.push(i);
      if (stack.length > MAX_CSS_DEPTH) return false;
    } else if (CLOSERS.has(t) && stack.length > 0) {
      const open = stack[stack.length - 1]!;
      if (OPENERS.get(tk.type[open]!) === t) {
        tk.close[open] = i;
        stack.pop();
      }
    }
  }
  return stack.length === 0 && closedAtEnd(tk);
}

/**
 * A browser reads `\75rl(http://…)` as a url token (CSS Syntax compares the name after unescaping), but
 * css-tree's tokenizer compares the raw text and sees a function with other tokens inside, which would then
 * disagree with the browser about everything up to the `)`. Such CSS is refused rather than guessed at: an
 * escaped `url(` followed by a quoted string is a function in both readings, and stays allowed.
 */
function escapedUrlToken(tk: Tokens, i: number): boolean {
  const raw = tk.css.slice(tk.start[i], tk.end[i]);
  if (raw.toLowerCase() === "url(" || nameOf(tk, i) !== "url") return false;
  let j = tk.end[i]!;
  while (j < tk.css.length && " \t\n\r\f".includes(tk.css[j]!)) j++;
  return tk.css[j] !== '"' && tk.css[j] !== "'";
}

function closedAtEnd(tk: Tokens): boolean {
  const last = tk.length - 1;
  if (last < 0) return true;
  const text = tk.css.slice(tk.start[last], tk.end[last]);
  switch (tk.type[last]) {
    case T.Comment:
      return text.length >= 4 && text.endsWith("*/");
    case T.String:
      return text.length >= 2 && text.endsWith(text[0]!) && !escapedAt(text, text.length - 1);
    case T.Url:
      return text.endsWith(")") && !escapedAt(text, text.length - 1);
    default:
      return !(tk.type[last] === T.Delim && text === "\\");
  }
}

/** Whether the character at `index` is escaped (preceded by an odd run of backslashes). */
function escapedAt(text: string, index: number): boolean {
  let slashes = 0;
  for (let i = index - 1; i >= 0 && text[i] === "\\"; i--) slashes++;
  return slashes % 2 === 1;
}

function textOf(tk: Tokens, i: number): string {
  return tk.css.slice(tk.start[i], tk.end[i]);
}

/** The unescaped, lower-cased name of an ident, function (without `(`) or at-keyword (without `@`) token. */
export function nameOf(tk: Tokens, i: number): string {
  const t = tk.type[i];
  const from = tk.start[i]! + (t === T.AtKeyword ? 1 : 0);
  const to = tk.end[i]! - (t === T.Function ? 1 : 0);
  return ident.decode(tk.css.slice(from, to)).toLowerCase();
}

function withoutVendorPrefix(name: string): string {
  return name.replace(/^-(?:webkit|moz|ms|o)-/, "");
}

/** The URL rule, unchanged from the documented one: only absolute https URLs load. */
function allowedUrl(value: string): boolean {
  return /^https:\/\//i.test(value.trim()) && !SCRIPT_SCHEME.test(value);
}

/** The next index after `i` that is not whitespace or a comment (or `to`). */
export function skipBlank(tk: Tokens, i: number, to: number): number {
  let j = i;
  while (j < to && (tk.type[j] === T.WhiteSpace || tk.type[j] === T.Comment)) j++;
  return j;
}

/**
 * Whether tokens [from, to) hold anything the rule forbids, wherever it is: a URL (a url token, or a string inside
 * a URL function, whatever its escapes) that is not https; a substitution function inside a URL function;
 * `expression()`; `javascript:`/`vbscript:` in any token, or spelt as an identifier and a colon; a dropped
 * property name followed by a colon; a dropped at-rule's keyword. Linear in the range.
 */
export function hasForbidden(tk: Tokens, from: number, to: number): boolean {
  // For each open block: its closing token, and whether it is (inside) a URL function. Depth <= MAX_CSS_DEPTH.
  const closes: number[] = [];
  const urlish: boolean[] = [];
  for (let i = from; i < to; i++) {
    while (closes.length > 0 && closes[closes.length - 1] === i) {
      closes.pop();
      urlish.pop();
    }
    const t = tk.type[i]!;
    const inUrl = urlish.length > 0 && urlish[urlish.length - 1] === true;
    switch (t) {
      case T.Url:
        if (!allowedUrl(url.decode(textOf(tk, i)))) return true;
        break;
      case T.String: {
        const value = string.decode(textOf(tk, i));
        if (SCRIPT_SCHEME.test(value) || (inUrl && !allowedUrl(value))) return true;
        break;
      }
      case T.Function: {
        const name = nameOf(tk, i);
        const base = withoutVendorPrefix(name);
        if (base.includes("expression") || SCRIPT_SCHEME.test(name)) return true;
        if (inUrl && (SUBSTITUTION_FUNCTIONS.has(base) || name.startsWith("--"))) return true;
        closes.push(tk.close[i]!);
        urlish.push(inUrl || URL_FUNCTIONS.has(base));
        break;
      }
      case T.LeftParenthesis:
      case T.LeftSquareBracket:
      case T.LeftCurlyBracket:
        closes.push(tk.close[i]!);
        urlish.push(inUrl);
        break;
      case T.BadUrl:
        return true;
      case T.AtKeyword: {
        const name = nameOf(tk, i);
        if (DROPPED_AT_RULES.has(withoutVendorPrefix(name)) || SCRIPT_SCHEME.test(name)) return true;
        break;
      }
      case T.Ident: {
        const name = nameOf(tk, i);
        if (SCRIPT_SCHEME.test(name)) return true;
        const next = skipBlank(tk, i + 1, to);
        const colon = next < to && tk.type[next] === T.Colon;
        if (colon && (SCRIPT_WORDS.has(name) || DROPPED_PROPERTIES.has(name))) return true;
        break;
      }
      case T.Hash:
        if (SCRIPT_SCHEME.test(ident.decode(textOf(tk, i).slice(1)))) return true;
        break;
      default:
        break;
    }
  }
  return false;
}
