import type { Executor } from "../../db/client.js";
import { AppError, type DetailKey } from "../../platform/errors/app-error.js";
import { getSettings } from "./effective-settings.js";

/**
 * `security.allowedEmailDomains` as a check: empty admits every address; otherwise the part after the last `@`,
 * lowercased, must be one of the domains exactly (a subdomain is another domain).
 */
export interface EmailDomainPolicy {
  admits(email: string): boolean;
  /** The `validation_failed` detail for a refused address at `field`. */
  refusal(field: string): DetailKey;
}

export async function emailDomainPolicy(db: Executor, tenantId: string): Promise<EmailDomainPolicy> {
  const domains = (await getSettings(db, tenantId)).security.allowedEmailDomains;
  const allowed = new Set(domains);
  return {
    admits: (email) =>
      allowed.size === 0 || allowed.has(email.slice(email.lastIndexOf("@") + 1).toLowerCase()),
    refusal: (field) => ({
      field,
      key: "field.email_domain_not_allowed",
      params: { domains: domains.join(", ") },
    }),
  };
}

/**
 * Refuses (400 `validation_failed`, the detail naming `field`) an address outside the institution's allowed
 * domains. Every path that adds a user or an address calls it: user creation (and so invitation acceptance and
 * the CLI), e-mail changes, invitations; bulk creation checks each item through `emailDomainPolicy`.
 */
export async function assertEmailAllowed(
  db: Executor,
  tenantId: string,
  email: string,
  field = "email",
): Promise<void> {
  const policy = await emailDomainPolicy(db, tenantId);
  if (!policy.admits(email)) throw new AppError("validation_failed", { details: [policy.refusal(field)] });
}
