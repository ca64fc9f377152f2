/**
 * What `notifications.senderName` may hold. It becomes the display name of every From header the institution's
 * mail carries, so it must stay one display name that cannot pass for an address: no control characters (CR and
 * LF above all: a header break), no bidirectional controls or line separators (they reorder what the reader
 * sees), and none of `<`, `>`, `@`, `"`, `\` or their full-width and small look-alikes (`PayPal
 * <security@paypal.com>`, or a quoted-string broken open). Quotes `'`, commas, parentheses and letters of any
 * script stay allowed: the mailer quotes and encodes the name as a whole.
 */
const REFUSED =
  String.raw`\u0000-\u001F\u007F-\u009F"<>@\\` +
  String.raw`\u061C\u200E\u200F\u2028\u2029\u202A-\u202E\u2066-\u2069` +
  String.raw`\uFE64\uFE65\uFE6B\uFF02\uFF1C\uFF1E\uFF20\uFF3C`;

/** The schema's pattern: at least one character that is not white space, and none of the refused ones. */
export const SENDER_NAME_PATTERN = String.raw`^(?=.*\S)[^${REFUSED}]+$`;

export const SENDER_NAME_DESCRIPTION =
  "The display name of the institution's e-mail (the From header's name; the address is the deployment's). " +
  "At most 100 characters, not only spaces, without control characters (CR, LF, tab…), bidirectional controls, " +
  'line separators, or any of `<` `>` `@` `"` `\\` and their full-width look-alikes: it cannot break the header ' +
  "or read as an address (400 `validation_failed` naming `notifications.senderName`). null uses the " +
  "institution's name.";

const REFUSED_RUNS = new RegExp(`[${REFUSED}\\s]+`, "gu");

/**
 * The display name as sent: refused characters (in a name stored before the rule, or an institution's name,
 * which this rule does not govern) become single spaces. Empty when nothing is left.
 */
export function displayName(text: string): string {
  return text.replace(REFUSED_RUNS, " ").trim();
}
