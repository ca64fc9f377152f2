import type { Principal } from "../../platform/auth/types.js";
import { AppError, type MessageParams } from "../../platform/errors/app-error.js";
import { movedEndpoints } from "./providers/setting-roles.js";
import type { ProviderName, ProviderSettings } from "./providers/types.js";

/**
 * Who may write a connection's credentials: an administrator's session (SECURITY.md API5), never an API key.
 * The routes already keep other roles out; the role is checked here too so the rule holds wherever it is called.
 */
function requireCredentialRight(principal: Principal, messageKey: string, params: MessageParams = {}): void {
  if (principal.kind !== "session") throw new AppError("session_required", { messageKey, params });
  if (principal.role !== "institution_admin") {
    throw new AppError("forbidden", { messageKey: "forbidden.admin_required" });
  }
}

/** Sending credentials at all needs the right to write them. */
export function requireRightToWriteCredentials(principal: Principal, credentials: unknown): void {
  if (credentials !== undefined) requireCredentialRight(principal, "session_required");
}

/**
 * A credential is bound to the endpoint it was entered for: on a connection that holds credentials, changing a
 * setting that decides where they are sent (providers/setting-roles.ts) needs the same right as writing them.
 * Refused rather than dropping the credentials, so no request silently disables a working connection. Resending
 * the same value (settings replace the whole object) is no change and stays open to keys.
 */
export function requireRightToMoveCredentials(
  principal: Principal,
  provider: ProviderName,
  current: { credentials: string | null; settings: ProviderSettings },
  next: ProviderSettings | undefined,
): void {
  if (next === undefined || current.credentials === null) return;
  const moved = movedEndpoints(provider, current.settings, next);
  const [first] = moved;
  if (first === undefined) return;
  requireCredentialRight(principal, "session_required.credential_endpoint", { field: `settings.${first}` });
}
