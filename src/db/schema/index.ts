export * from "./auth.js";
export * from "./automations.js";
export * from "./billing.js";
export * from "./courses.js";
export * from "./idempotency.js";
export * from "./tenancy.js";
export * from "./users.js";
