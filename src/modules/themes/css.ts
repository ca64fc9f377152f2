import { tokenTypes as T } from "css-tree";
import { hasForbidden, nameOf, skipBlank, type Tokens, tokens, wellFormed } from "./css-tokens.js";
import { MAX_CSS_LENGTH } from "./schemas.js";

/** A span of the source to leave out, in characters. */
interface Cut {
  from: number;
  to: number;
}

const BLANK = new Set<number>([T.WhiteSpace, T.Comment, T.Semicolon, T.CDO, T.CDC]);

/**
 * Institution CSS, made safe to serve to every user. The rule (README, themes): `@import`, `@charset` and
 * `@namespace` rules, `expression()`, `javascript:`/`vbscript:`, `behavior`/`-moz-binding` and any URL other than
 * an absolute https one are removed, with the statement (declaration, rule or at-rule) that holds them; CSS that
 * does not parse is refused (undefined).
 *
 * It is decided on CSS Syntax tokens with names unescaped (css-tree's tokenizer), not on raw text: `\75rl(`,
 * `u\rl(` and `@\69mport` are what a browser reads them as, and strings inside `image-set()`, `image()`, `src()`
 * and the other URL functions are URLs too. Statements are split the way CSS Syntax (with nesting) splits them and
 * removed from the source text, so what the tenant wrote stays as written; the result is then tokenised again as
 * a whole and must hold nothing forbidden in any context, or it is refused: a split that disagreed with the
 * browser's could only refuse more, never let more through. `</style` is escaped: the CSS may be inlined in a
 * page. Work is linear in the length (≤ MAX_CSS_LENGTH) and nesting is bounded (MAX_CSS_DEPTH).
 */
export function sanitiseCss(css: string): string | undefined {
  // The schema counts code points (as JSON Schema does); the bound holds here too for any other caller.
  if (css.length > MAX_CSS_LENGTH && codePoints(css) > MAX_CSS_LENGTH) return undefined;
  const tk = tokens(css);
  if (!wellFormed(tk)) return undefined;
  const cuts: Cut[] = [];
  sweep(tk, 0, tk.length, false, cuts);
  let out = "";
  let at = 0;
  for (const cut of cuts) {
    out += css.slice(at, cut.from);
    at = cut.to;
  }
  out = (out + css.slice(at)).replace(/<\/(style)/gi, "<\\/$1");
  const check = tokens(out);
  if (!wellFormed(check) || hasForbidden(check, 0, check.length)) return undefined;
  return out;
}

/**
 * Walks the statements of a block's contents, tokens [from, to): the style sheet's (`nested` false: at-rules and
 * qualified rules) or a block's (`nested` true: declarations too). Statements holding anything forbidden are cut;
 * the blocks of the others are walked in turn (recursion depth ≤ MAX_CSS_DEPTH, checked by wellFormed).
 */
function sweep(tk: Tokens, from: number, to: number, nested: boolean, cuts: Cut[]): void {
  let i = from;
  while (i < to) {
    if (BLANK.has(tk.type[i]!)) {
      i++;
      continue;
    }
    const s = statementAt(tk, i, to, nested);
    if (hasForbidden(tk, i, s.headEnd)) {
      let after = s.end;
      while (after < to && tk.type[after] === T.WhiteSpace) after++;
      cuts.push({ from: tk.start[i]!, to: after < tk.length ? tk.start[after]! : tk.css.length });
      i = after;
      continue;
    }
    if (s.block !== undefined) sweep(tk, s.block + 1, tk.close[s.block]!, true, cuts);
    i = s.end;
  }
}

interface Statement {
  /** End of what the statement says itself (all of a declaration; a rule's or at-rule's prelude). */
  headEnd: number;
  /** The `{` of its block, for rules and at-rules that have one. */
  block?: number;
  /** The token after the statement (after its `;` where it has one). */
  end: number;
}

/** The statement that starts at token `i`, following CSS Syntax's "consume a block's contents". */
function statementAt(tk: Tokens, i: number, to: number, nested: boolean): Statement {
  const isAtRule = tk.type[i] === T.AtKeyword;
  if (!isAtRule && !nested) {
    // A qualified rule of the style sheet: its prelude runs to the first `{` (a `;` does not end it).
    const brace = scan(tk, i + 1, to, false);
    return brace < to
      ? { headEnd: brace, block: brace, end: tk.close[brace]! + 1 }
      : { headEnd: to, end: to };
  }
  const stop = scan(tk, i + 1, to, true);
  if (stop < to && tk.type[stop] === T.LeftCurlyBracket && !(nested && isCustomProperty(tk, i, to))) {
    // An at-rule with a block, or a nested style rule (a declaration cannot hold a `{}` block).
    return { headEnd: stop, block: stop, end: tk.close[stop]! + 1 };
  }
  // An at-rule ending with `;`, or a declaration (a custom property's value may hold `{}` blocks).
  let end = stop;
  while (end < to && tk.type[end] === T.LeftCurlyBracket) end = scan(tk, tk.close[end]! + 1, to, true);
  return { headEnd: end, end: end < to ? end + 1 : to };
}

/**
 * The index of the first `{` (or `;` when `semicolon`) at this level from `i`, stepping over the blocks and
 * functions in between; `to` when there is none.
 */
function scan(tk: Tokens, i: number, to: number, semicolon: boolean): number {
  let j = i;
  while (j < to) {
    const t = tk.type[j]!;
    if (t === T.LeftCurlyBracket || (semicolon && t === T.Semicolon)) return j;
    j = t === T.Function || t === T.LeftParenthesis || t === T.LeftSquareBracket ? tk.close[j]! + 1 : j + 1;
  }
  return to;
}

function isCustomProperty(tk: Tokens, i: number, to: number): boolean {
  if (tk.type[i] !== T.Ident || !nameOf(tk, i).startsWith("--")) return false;
  const next = skipBlank(tk, i + 1, to);
  return next < to && tk.type[next] === T.Colon;
}

function codePoints(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}
