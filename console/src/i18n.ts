import { createContext, useContext } from "react";
import { enUS, type Messages } from "./messages/en-US.js";
import { esES } from "./messages/es-ES.js";
import { frFR } from "./messages/fr-FR.js";
import { ptBR } from "./messages/pt-BR.js";

/** The API's four languages (Accept-Language), each with the console's own words and its name in itself. */
export const LANGUAGES = [
  { tag: "pt-BR", name: "Português (Brasil)", messages: ptBR },
  { tag: "en-US", name: "English", messages: enUS },
  { tag: "es-ES", name: "Español", messages: esES },
  { tag: "fr-FR", name: "Français", messages: frFR },
] as const;
export type Language = (typeof LANGUAGES)[number]["tag"];

const STORED = "aula.console.language";

/** The remembered choice, else the browser's first language the API speaks (by its primary subtag), else pt-BR. */
export function initialLanguage(): Language {
  const stored = localStorage.getItem(STORED);
  const known = LANGUAGES.find((l) => l.tag === stored);
  if (known !== undefined) return known.tag;
  for (const wanted of navigator.languages) {
    const primary = wanted.toLowerCase().split("-")[0];
    const match = LANGUAGES.find((l) => l.tag.toLowerCase().split("-")[0] === primary);
    if (match !== undefined) return match.tag;
  }
  return "pt-BR";
}

export function rememberLanguage(language: Language): void {
  localStorage.setItem(STORED, language);
  document.documentElement.lang = language;
}

export function messagesOf(language: Language): Messages {
  return (LANGUAGES.find((l) => l.tag === language) ?? LANGUAGES[0]).messages;
}

/** `{name}` placeholders filled in. */
export function format(text: string, values: Record<string, string>): string {
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole);
}

export interface I18n {
  language: Language;
  t: Messages;
}
export const I18nContext = createContext<I18n>({ language: "pt-BR", t: ptBR });
export const useI18n = () => useContext(I18nContext);
