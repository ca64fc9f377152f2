import { createContext, useCallback, useContext } from "react";
import type { Aula } from "../../sdk/src/client.js";
import { isUnauthorized } from "./api.js";

export interface Session {
  aula: Aula;
  user: SessionUser;
  /** Called when the session is gone for good (signed out elsewhere, expired past refresh). */
  signedOut: () => void;
}
export interface SessionUser {
  id: string;
  name: string;
  email: string;
  role: string;
}

let resumed: Promise<SessionUser | null> | undefined;

/**
 * Who is signed in, from the session cookies: the refresh route answers with the user and rotates the cookies
 * (the API has no "who am I" read). Asked once per page load, so two callers never race one refresh token
 * (the second would be taken for a stolen, reused token and end the session).
 */
export function resumeSession(aula: Aula): Promise<SessionUser | null> {
  resumed ??= aula.auth.refresh().then(
    (answer) => answer.user,
    () => null,
  );
  return resumed;
}

let refreshing: Promise<unknown> | undefined;

/**
 * One refresh at a time: the dashboard's reads fail together when the access cookie expires, and each refreshing
 * on its own would present the same refresh token twice, which the API takes for a stolen token (the session
 * ends). Later callers wait for the refresh under way.
 */
function refreshOnce(aula: Aula): Promise<unknown> {
  refreshing ??= aula.auth.refresh().finally(() => {
    refreshing = undefined;
  });
  return refreshing;
}

export const SessionContext = createContext<Session | undefined>(undefined);

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (session === undefined) throw new Error("useSession outside a signed-in console");
  return session;
}

/**
 * `call` with the session's client; when the short-lived access cookie has expired (401) the session is
 * refreshed once and the call tried again, and when that fails too the console returns to the sign-in page.
 */
export function useCall() {
  const { aula, signedOut } = useSession();
  return useCallback(
    async <T>(call: (aula: Aula) => PromiseLike<T>): Promise<T> => {
      try {
        return await call(aula);
      } catch (err) {
        if (!isUnauthorized(err)) throw err;
        try {
          await refreshOnce(aula);
        } catch {
          signedOut();
          throw err;
        }
        return call(aula);
      }
    },
    [aula, signedOut],
  );
}
