import postcss, { CssSyntaxError } from "postcss";

/** At-rules that fetch or re-declare what the page loads; everything else (@media, @supports, @keyframes) stays. */
const DROPPED_AT_RULES = new Set(["import", "charset", "namespace"]);
/** Properties that run code in old engines. */
const DROPPED_PROPERTIES = new Set(["behavior", "-moz-binding"]);
const SCRIPT_VALUE = /expression\s*\(|javascript:|vbscript:/i;
const URL_CALL = /url\s*\(\s*(['"]?)(.*?)\1\s*\)/gi;

/** A declaration value may load only https resources. */
function onlyHttpsUrls(value: string): boolean {
  for (const match of value.matchAll(URL_CALL)) {
    if (!/^https:\/\//i.test((match[2] ?? "").trim())) return false;
  }
  return true;
}

/**
 * Institution CSS, made safe to serve to every user: parsed (PostCSS), then stripped of what can fetch from other
 * origins or execute (see DROPPED_*, `expression()`, `javascript:`, non-https `url()`), and re-serialised, so what
 * is stored is what was checked. `</style` is escaped in the output: the CSS may be inlined in a page. Answers
 * undefined for CSS that does not parse.
 */
export function sanitiseCss(css: string): string | undefined {
  let root: postcss.Root;
  try {
    root = postcss.parse(css);
  } catch (err) {
    if (err instanceof CssSyntaxError) return undefined;
    throw err;
  }
  root.walkAtRules((rule) => {
    if (
      DROPPED_AT_RULES.has(rule.name.toLowerCase()) ||
      SCRIPT_VALUE.test(rule.params) ||
      !onlyHttpsUrls(rule.params)
    ) {
      rule.remove();
    }
  });
  root.walkDecls((decl) => {
    if (
      DROPPED_PROPERTIES.has(decl.prop.toLowerCase()) ||
      SCRIPT_VALUE.test(decl.value) ||
      !onlyHttpsUrls(decl.value)
    ) {
      decl.remove();
    }
  });
  root.walkRules((rule) => {
    if (SCRIPT_VALUE.test(rule.selector)) rule.remove();
  });
  return root.toString().replace(/<\/(style)/gi, "<\\/$1");
}
