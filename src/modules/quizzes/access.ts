import { signedIn, staff } from "../../platform/auth/access.js";

/** Quizzes are course content (`courses:*`); any signed-in user may read them, teachers and admins change them. */
export const quizRead = signedIn("courses:read");
export const quizWrite = staff("courses:write");

/** Attempts are grades (`grades:*`): recorded, read and graded by teachers and admins. */
export const attemptRead = staff("grades:read");
export const attemptWrite = staff("grades:write");
