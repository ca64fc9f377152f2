/**
 * A field as CSV (RFC 4180): quoted when it holds a quote, a comma or a line break. A text that a spreadsheet
 * would run as a formula (`=`, `+`, `-`, `@`, tab, carriage return first) is prefixed with `'` (OWASP's CSV
 * injection advice): names and titles are typed by users.
 */
export function csvField(value: string | number | null): string {
  if (value === null) return "";
  if (typeof value === "number") return String(value);
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}
