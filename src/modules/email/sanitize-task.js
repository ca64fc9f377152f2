// The e-mail HTML policy and the task that applies it. Plain JavaScript: it runs on a worker thread of
// src/platform/workers (see render.ts), which loads it with Node's own import().
import sanitizeHtml from "sanitize-html";

/**
 * What a stored HTML part may keep: text formatting, lists, tables, images and links over http(s) and mailto.
 * Placeholders survive (`href="{{acceptUrl}}"` reads as a relative URL), scripts, styles, handlers and other
 * schemes do not.
 */
/** @type {import("sanitize-html").IOptions} */
const EMAIL_HTML = {
  allowedTags: [
    "p",
    "br",
    "hr",
    "h1",
    "h2",
    "h3",
    "h4",
    "strong",
    "b",
    "em",
    "i",
    "u",
    "s",
    "small",
    "blockquote",
    "ul",
    "ol",
    "li",
    "a",
    "img",
    "table",
    "thead",
    "tbody",
    "tr",
    "th",
    "td",
    "span",
    "div",
    "code",
    "pre",
  ],
  allowedAttributes: {
    a: ["href", "title", "target", "rel"],
    img: ["src", "alt", "width", "height"],
    td: ["colspan", "rowspan", "align"],
    th: ["colspan", "rowspan", "align"],
  },
  allowedSchemes: ["http", "https", "mailto"],
  allowedSchemesByTag: { img: ["http", "https"] },
  allowProtocolRelative: false,
  disallowedTagsMode: "discard",
};

/** @param {string} html */
export function sanitizeEmailHtml(html) {
  return sanitizeHtml(html, EMAIL_HTML);
}
