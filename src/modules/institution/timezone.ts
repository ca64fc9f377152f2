/**
 * The canonical spelling of an IANA time zone (`america/sao_paulo` → `America/Sao_Paulo`), or undefined when
 * the runtime's time zone database does not know it. The pattern keeps out UTC offsets (`+01:00`), which newer
 * runtimes accept as zones but which do not follow daylight-saving rules the way a region's zone does.
 */
export function canonicalTimezone(name: string): string | undefined {
  if (!/^[A-Za-z][A-Za-z0-9_+-]*(?:\/[A-Za-z0-9_+-]+)*$/.test(name)) return undefined;
  try {
    return new Intl.DateTimeFormat("en-US", { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}
