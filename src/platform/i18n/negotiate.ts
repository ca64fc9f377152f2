import { DEFAULT_LOCALE, LOCALES, type Locale } from "../../locales/index.js";

const BY_TAG = new Map<string, Locale>(LOCALES.map((l) => [l.toLowerCase(), l]));
// The contract maps a bare language to its one supported region and nothing else: `en-GB` is not `en-US`.
for (const l of LOCALES) BY_TAG.set(l.slice(0, 2).toLowerCase(), l);

/**
 * Picks the language for `Accept-Language` (RFC 9110 §12.5.4): ranges are tried by descending q-value, ties in
 * the order given; q=0 means "not this one". Anything unsupported falls back to pt-BR.
 */
export function negotiateLocale(header: string | undefined): Locale {
  if (header === undefined || header === "") return DEFAULT_LOCALE;
  const ranges: { tag: string; q: number; index: number }[] = [];
  const parts = header.split(",");
  for (let index = 0; index < parts.length && index < 32; index++) {
    const [rawTag, ...params] = (parts[index] ?? "").split(";");
    const tag = rawTag?.trim().toLowerCase() ?? "";
    if (tag === "") continue;
    let q = 1;
    for (const p of params) {
      const m = /^\s*q\s*=\s*([01](?:\.\d{0,3})?)\s*$/i.exec(p);
      if (m) q = Number(m[1]);
    }
    if (q > 0) ranges.push({ tag, q, index });
  }
  ranges.sort((a, b) => b.q - a.q || a.index - b.index);
  for (const r of ranges) {
    const found = BY_TAG.get(r.tag);
    if (found !== undefined) return found;
  }
  return DEFAULT_LOCALE;
}
