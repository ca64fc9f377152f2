import { staff } from "../../platform/auth/access.js";

/** Who may read and change classes: keys by scope; sessions of teachers and administrators. */
export const tags = ["classes"];
export const read = staff("classes:read");
export const write = staff("classes:write");
