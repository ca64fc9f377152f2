// The lesson HTML policy and the task that applies it. Plain JavaScript: it runs on a worker thread of
// src/platform/workers (see sanitize.ts), which loads it with Node's own import().
import sanitizeHtml from "sanitize-html";

/**
 * The rich text a lesson body may hold, enforced on write: what a learning platform's editor produces, and no
 * script in any form. Browsers we do not control render it, so anything outside this list is removed (its text
 * kept, except inside script, style and similar elements, which go whole).
 *
 * - text and structure: headings, paragraphs, line breaks, rules, quotes, lists (ordered, unordered,
 *   definition), emphasis, sub/superscript, marks, abbreviations, details/summary;
 * - code: `pre` and `code`, with `language-*` classes for highlighting;
 * - links: `href` with http, https or mailto only, an optional `title`, and `target="_blank"` (which always
 *   gets `rel="noopener noreferrer"`);
 * - images and figures: `src` with http or https only (no `data:`), `alt`, `title`, `width`, `height`;
 * - tables: caption, head, body, foot, rows, cells with `colspan`, `rowspan`, `scope`;
 * - embedded video: `iframe` only from YouTube (youtube.com, youtube-nocookie.com) and Vimeo
 *   (player.vimeo.com) over https, with `src`, `width`, `height`, `title`, `allowfullscreen`.
 * No `style`, no `on*` handlers, no forms, no `object`/`embed`, no other classes or ids.
 */
/** @type {import("sanitize-html").IOptions} */
const LESSON_HTML = {
  allowedTags: [
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "p",
    "br",
    "hr",
    "blockquote",
    "div",
    "span",
    "ul",
    "ol",
    "li",
    "dl",
    "dt",
    "dd",
    "strong",
    "b",
    "em",
    "i",
    "u",
    "s",
    "sub",
    "sup",
    "mark",
    "small",
    "abbr",
    "details",
    "summary",
    "pre",
    "code",
    "a",
    "img",
    "figure",
    "figcaption",
    "table",
    "caption",
    "thead",
    "tbody",
    "tfoot",
    "tr",
    "th",
    "td",
    "iframe",
  ],
  allowedAttributes: {
    // `rel` too: the transform below sets it, and attributes are filtered after transforms.
    a: ["href", "title", "rel", { name: "target", multiple: false, values: ["_blank"] }],
    img: ["src", "alt", "title", "width", "height"],
    abbr: ["title"],
    ol: ["start"],
    th: ["colspan", "rowspan", "scope"],
    td: ["colspan", "rowspan"],
    iframe: ["src", "width", "height", "title", "allowfullscreen"],
  },
  allowedClasses: { code: ["language-*"], pre: ["language-*"] },
  allowedSchemes: ["http", "https", "mailto"],
  allowedSchemesByTag: { img: ["http", "https"], iframe: ["https"] },
  allowProtocolRelative: false,
  allowedIframeHostnames: ["www.youtube.com", "www.youtube-nocookie.com", "player.vimeo.com"],
  allowIframeRelativeUrls: false,
  transformTags: {
    a: (/** @type {string} */ tagName, /** @type {Record<string, string>} */ attribs) =>
      attribs.target === "_blank"
        ? { tagName, attribs: { ...attribs, rel: "noopener noreferrer" } }
        : { tagName, attribs },
  },
};

/** @param {string} html */
export function sanitizeLessonHtml(html) {
  return sanitizeHtml(html, LESSON_HTML);
}
