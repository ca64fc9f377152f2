import { signedIn, staff } from "../../platform/auth/access.js";

/** Where live classes sit in the API and who may act on them, for the class routes and the attendance routes. */
export const tags = ["live-classes"];
export const BASE = "/api/institution/live-classes";
/** Any signed-in member reads classes (a student's session, those it is in the audience of). */
export const read = signedIn("live-classes:read");
/** Attendance is read by teachers' and administrators' sessions only. */
export const staffRead = staff("live-classes:read");
export const write = staff("live-classes:write");
/** Anyone in the audience asks for their own link; keys name the user. */
export const join = signedIn("live-classes:write");
/**
 * Which class a teacher's session may change (host.ts): `HOST_ONLY` edits, `HOST_OR_COHOST` runs. Administrators'
 * sessions and keys act for the institution, on any class.
 */
export const HOST_ONLY =
  "A teacher's session may do this to a class it hosts only (403 `forbidden` otherwise); administrators and " +
  "API keys, to any class.";
export const HOST_OR_COHOST =
  "A teacher's session may do this to a class it hosts or co-hosts only (403 `forbidden` otherwise); " +
  "administrators and API keys, to any class.";
