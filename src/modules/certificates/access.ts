import { signedIn, staff } from "../../platform/auth/access.js";
import type { Principal } from "../../platform/auth/types.js";

/** Keys with `courses:read`, and every session: a student's reads its own certificates only. */
export const read = signedIn("courses:read");
export const write = staff("courses:write");

export const LEARNER_RULE =
  "A student's session reads only its own certificates: another user's is 404, and a list answers only its own " +
  "(a `userId` naming someone else lists nothing).";

/** Who reads: staff (keys, teachers, administrators) every certificate; a student only its own. */
export type CertificateReader = { kind: "staff" } | { kind: "learner"; userId: string };

export function certificateReaderOf(principal: Principal): CertificateReader {
  return principal.kind === "session" && principal.role === "student"
    ? { kind: "learner", userId: principal.userId }
    : { kind: "staff" };
}

/** Whether the reader may see a certificate of this user. */
export function mayRead(reader: CertificateReader, userId: string): boolean {
  return reader.kind === "staff" || reader.userId === userId;
}
