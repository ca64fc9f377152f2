import type { TxtResolver } from "../../platform/outbound/resolver.js";
import { verificationName, verificationValue } from "./host.js";

export type CheckOutcome = { passed: true } | { passed: false; error: string };

const MISSING = new Set(["ENOTFOUND", "ENODATA", "NXDOMAIN"]);

/**
 * Looks for the verification record of `host`. Never throws: a missing record, a mismatch and a failed lookup
 * are all outcomes the caller stores and shows (the text is for the administrator reading the domain).
 */
export async function checkVerificationRecord(
  resolveTxt: TxtResolver,
  host: string,
  token: string,
): Promise<CheckOutcome> {
  const name = verificationName(host);
  const expected = verificationValue(token);
  let records: readonly string[];
  try {
    records = await resolveTxt(name);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== undefined && MISSING.has(code))
      return { passed: false, error: `No TXT record found at ${name}.` };
    return { passed: false, error: `The DNS lookup of ${name} failed (${code ?? "unknown error"}).` };
  }
  if (records.some((record) => record.trim() === expected)) return { passed: true };
  return {
    passed: false,
    error:
      records.length === 0
        ? `No TXT record found at ${name}.`
        : `The TXT records at ${name} do not include ${expected}.`,
  };
}
