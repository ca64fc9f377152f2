import type { Principal } from "../../platform/auth/types.js";
import type { EventActor, EventSubject } from "./catalogue.js";

/** Who is acting: a request's principal, or the operator's CLI and scheduled jobs. */
export type Actor = Principal | { kind: "system" };

/** The actor an event records for a change made by `actor`. */
export function eventActorOf(actor: Actor): EventActor {
  if (actor.kind === "session") return { type: "user", id: actor.userId };
  if (actor.kind === "key") return { type: "api_key", id: actor.keyId };
  return { type: "system" };
}

/** The user an event is about, as it is now (`{{user.*}}` in templates). */
export function subjectOf(user: { id: string; name: string; email: string; role: string }): EventSubject {
  return { id: user.id, name: user.name, email: user.email, role: user.role };
}
