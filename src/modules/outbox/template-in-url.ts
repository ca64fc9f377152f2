/**
 * Templates stop at the URL: placeholders are interpolated into a webhook's body and header values only, and its
 * URL is stored and used literally (CONTRACT: "never into the URL's host"), so `{{` in `action.url` is refused.
 */

/** What the WHATWG parser removes from anywhere in its input before parsing, and trims from the ends. */
function asParserSees(url: string): string {
  let start = 0;
  let end = url.length;
  while (start < end && url.charCodeAt(start) <= 0x20) start += 1;
  while (end > start && url.charCodeAt(end - 1) <= 0x20) end -= 1;
  return url.slice(start, end).replace(/[\t\n\r]/g, "");
}

/**
 * Whether `{{` appears in the scheme or authority (userinfo, host, port) of `url`, judged both on the raw
 * text, up to the first `/`, `\`, `?` or `#` after `scheme://` (for http(s) WHATWG treats `\` as `/`), and
 * on the host and credentials `new URL()` extracts, where any `{` or `}` counts (WHATWG keeps them in
 * hosts and percent-decodes `%7B`). Errs towards true: a false positive costs a 400 on a URL that had
 * braces in its host, which no DNS name has.
 */
export function urlHasTemplateInHost(url: string): boolean {
  const text = asParserSees(url);
  const scheme = /^[A-Za-z][A-Za-z0-9+.-]*:[/\\]*/.exec(text);
  const start = scheme === null ? 0 : scheme[0].length;
  const rest = text.slice(start).search(/[/\\?#]/);
  const authorityEnd = rest === -1 ? text.length : start + rest;
  if (text.slice(0, authorityEnd).includes("{{")) return true;
  let parsed: URL;
  try {
    parsed = new URL(text);
  } catch {
    return text.includes("{{"); // no host to speak of; err towards refusing
  }
  return /[{}]|%7b|%7d/i.test(`${parsed.protocol}${parsed.username}${parsed.password}${parsed.host}`);
}

/**
 * Whether `url` contains `{{` anywhere. The contract interpolates templates into the body and header
 * values only, and the URL is stored and used literally, so the simplest rule for `action.url` is to
 * refuse any `{{`: it can only be a mistake (it would be sent as `%7B%7B…`), and the host case is covered.
 */
export function urlHasTemplate(url: string): boolean {
  return asParserSees(url).includes("{{") || urlHasTemplateInHost(url);
}
