/** What other modules use of the institution group (DESIGN.md: modules meet through their service.ts). */
export { canonicalTimezone } from "./timezone.js";
