import { randomBytes } from "node:crypto";

/**
 * Verification codes: 80 random bits as 16 characters of Crockford's base 32 (no I, L, O or U), shown in four
 * groups (`7K3M-Q9XD-2HPA-W4TB`). Random, never sequential: a code cannot be guessed from another, and 2^80 codes
 * cannot be walked. Reading a code forgives what people do when they type one: lower case, missing or extra
 * dashes and spaces, O for 0 and I or L for 1.
 */
const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
const LENGTH = 16;

export function newSerial(): string {
  const bytes = randomBytes(10);
  let bits = 0;
  let value = 0;
  let out = "";
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
    value &= (1 << bits) - 1;
  }
  return group(out);
}

function group(code: string): string {
  return (code.match(/.{4}/g) as string[]).join("-");
}

/** The stored form of a typed code, or undefined when it cannot be one (then no lookup is made). */
export function normalizeSerial(input: string): string | undefined {
  if (input.length > 64) return undefined;
  const code = input.toUpperCase().replace(/[\s-]/g, "").replace(/O/g, "0").replace(/[IL]/g, "1");
  if (code.length !== LENGTH) return undefined;
  for (const ch of code) if (!ALPHABET.includes(ch)) return undefined;
  return group(code);
}
