import { signedIn, staff } from "../../platform/auth/access.js";

export const tags = ["gamification"];
/** Keys with `gamification:read`, and every session (a student's reads its own, and leaderboards as allowed). */
export const read = signedIn("gamification:read");
/** Keys with `gamification:write`, teachers' and administrators' sessions. */
export const write = staff("gamification:write");
