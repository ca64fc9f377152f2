/** What other modules use of the gradebook. */
export { recordSourceGrade } from "./source-grades.js";
