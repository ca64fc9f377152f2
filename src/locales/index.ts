import { type Catalogue, enUS, type MessageKey } from "./en-US.js";
import { esES } from "./es-ES.js";
import { frFR } from "./fr-FR.js";
import { ptBR } from "./pt-BR.js";

export type { MessageKey } from "./en-US.js";

export const LOCALES = ["pt-BR", "en-US", "es-ES", "fr-FR"] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = "pt-BR";

export const CATALOGUES: Readonly<Record<Locale, Catalogue>> = {
  "pt-BR": ptBR,
  "en-US": enUS,
  "es-ES": esES,
  "fr-FR": frFR,
};

export function isMessageKey(key: string): key is MessageKey {
  return Object.hasOwn(enUS, key);
}
