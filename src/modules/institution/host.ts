import { isIP } from "node:net";

const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/**
 * A lowercase DNS name of at least two labels that is not an IP address. The last label must contain a letter:
 * no top-level domain is all digits, and refusing them also rules out dotted-decimal and shorthand IPv4
 * (`127.1`) that resolvers would otherwise read as addresses.
 */
export function isCustomDomainName(host: string): boolean {
  if (host.length > 253 || isIP(host) !== 0) return false;
  const labels = host.split(".");
  if (labels.length < 2 || !labels.every((label) => LABEL.test(label))) return false;
  return /[a-z]/.test(labels[labels.length - 1] as string);
}

/** The platform's own name and every name under it belong to the platform (tenant subdomains). */
export function isPlatformHost(host: string, baseDomain: string): boolean {
  return host === baseDomain || host.endsWith(`.${baseDomain}`);
}

/** Where the institution publishes the proof that it controls `host`. */
export function verificationName(host: string): string {
  return `_aula-verification.${host}`;
}

export function verificationValue(token: string): string {
  return `aula-verification=${token}`;
}
