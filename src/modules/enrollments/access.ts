import { staff } from "../../platform/auth/access.js";

/** Who may read and change enrollments and their lesson completions: keys by scope; teachers and administrators. */
export const read = staff("enrollments:read");
export const write = staff("enrollments:write");
