import { staff } from "../../platform/auth/access.js";

/** Who may read and change banks and questions: keys with the scope, teachers and administrators. */
export const bankRead = staff("question-banks:read");
export const bankWrite = staff("question-banks:write");
