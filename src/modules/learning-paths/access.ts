import { signedIn, staff } from "../../platform/auth/access.js";

/**
 * A path's definition is course material: any signed-in user reads it (a student's session, only the published
 * paths it is enrolled in), and staff change it with `courses:write`. Its enrollments are enrollments: reading,
 * making and removing them takes `enrollments:read|write`, exactly as `POST /enrollments/bulk` does for the same
 * course enrollments, so a key needs no more (and no less) to enroll users in a path's courses than to enroll
 * them in those courses one by one.
 */
export const read = signedIn("courses:read");
export const write = staff("courses:write");
export const enrollmentsRead = staff("enrollments:read");
export const enrollmentsWrite = staff("enrollments:write");
