/** What other modules use of the gradebook. */
export { assertTeaches } from "./access.js";
export { recordSourceGrade, recordSourceMissing } from "./source-grades.js";
