import { signedIn, staff } from "../../platform/auth/access.js";

export const tags = ["assignments"];
export const BASE = "/api/institution";

/** Assignment settings are course content (`courses:*`), as quizzes are: any signed-in user reads what it may read. */
export const assignmentRead = signedIn("courses:read");
export const assignmentWrite = staff("courses:write");

/** Submissions are grades (`grades:*`). A student's session submits and reads its own only. */
export const submissionRead = signedIn("grades:read");
export const submissionSubmit = signedIn("grades:write");
export const submissionGrade = staff("grades:write");
/** Comments: the submission's student and the course's staff. */
export const commentWrite = signedIn("grades:write");

export const TEACHER_RULE =
  "A teacher's session acts only on the courses it teaches (a current `teacher` or `assistant` enrollment): " +
  "another course is 403 `forbidden`. Administrators' sessions and API keys act on every course.";
