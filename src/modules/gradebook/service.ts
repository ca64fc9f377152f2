/** What other modules use of the gradebook. */
export { assertTeaches } from "./access.js";
export { round2 } from "./compute.js";
export { staffCourse } from "./guard.js";
export type { SourceType } from "./item-schemas.js";
export {
  recordRubricGrade,
  recordSourceGrade,
  recordSourceGrades,
  recordSourceMissing,
} from "./source-grades.js";
