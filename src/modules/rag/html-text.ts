import { Parser } from "htmlparser2";

/** Elements whose end is a break between words (a paragraph, a list item, a cell), not a join. */
const BLOCK = new Set([
  "address",
  "article",
  "aside",
  "blockquote",
  "br",
  "dd",
  "div",
  "dl",
  "dt",
  "figcaption",
  "figure",
  "footer",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "header",
  "hr",
  "li",
  "main",
  "nav",
  "ol",
  "p",
  "pre",
  "section",
  "table",
  "tbody",
  "td",
  "tfoot",
  "th",
  "thead",
  "tr",
  "ul",
]);
const SKIP = new Set(["script", "style", "template"]);

/**
 * The text a reader sees in a lesson's (sanitised) HTML: entities decoded, blocks on their own lines, scripts and
 * styles dropped. One streaming pass of htmlparser2, linear in the input.
 */
export function htmlToText(html: string): string {
  const out: string[] = [];
  let skipping = 0;
  const parser = new Parser(
    {
      onopentag(name) {
        if (SKIP.has(name)) skipping += 1;
        else if (BLOCK.has(name)) out.push("\n");
      },
      onclosetag(name) {
        if (SKIP.has(name)) skipping = Math.max(0, skipping - 1);
        else if (BLOCK.has(name)) out.push("\n");
      },
      ontext(text) {
        if (skipping === 0) out.push(text);
      },
    },
    { decodeEntities: true },
  );
  parser.write(html);
  parser.end();
  return out
    .join("")
    .replace(/[ \t\f\v\u00a0]+/g, " ")
    .replace(/ *\n[\s]*/g, "\n")
    .trim();
}
