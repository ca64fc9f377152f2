import {
  isArgumentElement,
  isNumberElement,
  isPluralElement,
  isSelectElement,
  isTagElement,
  type MessageFormatElement,
  parse,
} from "@formatjs/icu-messageformat-parser";
import { type Formats, IntlMessageFormat } from "intl-messageformat";
import { CATALOGUES, isMessageKey, type Locale, type MessageKey } from "../../locales/index.js";

type MessageParams = Record<string, string | number>;

/**
 * Number styles a catalogue may name, as in `{limit, number, exact}` or `{sizeMb, number, megabytes}`. The
 * default style rounds to three decimals, which would print a minimum of 0.0001 as 0; `exact` does not.
 * `megabytes` keeps one decimal, or three significant digits below that, so a small size is not shown as 0 MB.
 */
const FORMATS: Partial<Formats> = {
  number: {
    exact: { maximumFractionDigits: 20 },
    megabytes: {
      style: "unit",
      unit: "megabyte",
      maximumFractionDigits: 1,
      maximumSignificantDigits: 3,
      roundingPriority: "morePrecision",
    },
  },
};

type ArgumentKind = "text" | "number";

interface Compiled {
  source: string;
  formatter: IntlMessageFormat;
  /** What each argument must be: plural and number arguments need a number, the rest take any text. */
  args: Map<string, ArgumentKind>;
}

function collectArguments(elements: readonly MessageFormatElement[], out: Map<string, ArgumentKind>): void {
  for (const el of elements) {
    if (isPluralElement(el) || isNumberElement(el)) out.set(el.value, "number");
    else if ((isArgumentElement(el) || isSelectElement(el)) && !out.has(el.value)) out.set(el.value, "text");
    if (isPluralElement(el) || isSelectElement(el)) {
      for (const option of Object.values(el.options)) collectArguments(option.value, out);
    }
    if (isTagElement(el)) collectArguments(el.children, out);
  }
}

/**
 * Messages are compiled on first use and kept: parsing is most of the cost of a formatted message, and the
 * catalogues are fixed at build time. Tags are off, so `<slug>` in a message is text, not markup.
 */
const compiled = new Map<string, Compiled>();

export function compileMessage(locale: Locale, key: MessageKey): Compiled {
  const id = `${locale}\u0000${key}`;
  let found = compiled.get(id);
  if (found === undefined) {
    const source = CATALOGUES[locale][key];
    const ast = parse(source, { ignoreTag: true });
    const args = new Map<string, ArgumentKind>();
    collectArguments(ast, args);
    found = { source, formatter: new IntlMessageFormat(ast, locale, FORMATS, { ignoreTag: true }), args };
    compiled.set(id, found);
  }
  return found;
}

/**
 * Renders a catalogue message with ICU MessageFormat: plural rules and number formats of `locale`. An unknown key
 * falls back to the generic "not valid" text, never to the key. A text argument left out stays visible as
 * `{name}`; a count left out (or not a number) would print NaN, so the message's source is answered instead.
 * Rendering never throws: it runs inside the error handler.
 */
export function translate(locale: Locale, key: string, params: MessageParams = {}): string {
  const message = compileMessage(locale, isMessageKey(key) ? key : "field.invalid");
  const values: MessageParams = {};
  for (const [name, kind] of message.args) {
    const value = Object.hasOwn(params, name) ? params[name] : undefined;
    if (kind === "number" && (typeof value !== "number" || !Number.isFinite(value))) return message.source;
    values[name] = value ?? `{${name}}`;
  }
  try {
    return String(message.formatter.format(values));
  } catch {
    return message.source;
  }
}
