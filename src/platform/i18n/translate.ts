import { CATALOGUES, isMessageKey, type Locale } from "../../locales/index.js";

/** Renders a catalogue message; an unknown key falls back to the generic "not valid" text, never to the key. */
export function translate(locale: Locale, key: string, params: Record<string, string | number> = {}): string {
  const catalogue = CATALOGUES[locale];
  const template = isMessageKey(key) ? catalogue[key] : catalogue["field.invalid"];
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    Object.hasOwn(params, name) ? String(params[name]) : whole,
  );
}
