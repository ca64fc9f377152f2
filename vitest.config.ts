import { defineConfig } from "vitest/config";

/**
 * Tests that time the event loop (a hostile request must not block it past a budget) measure this machine's
 * CPU, so they run last and alone: beside another test file on a two-core machine, the same request blocked the
 * loop four times longer (27 ms alone, 106 ms in the full suite), which measured the neighbour, not the code.
 */
const LOOP_TIMING = [
  "test/stall-free.test.ts",
  "src/modules/lessons/html-bound.test.ts",
  "src/modules/email/html-bound.test.ts",
  "src/modules/automations/render-bound.test.ts",
  "src/modules/users/bulk-bound.test.ts",
  "src/modules/enrollments/bulk-bound.test.ts",
  "src/modules/tags/bulk-bound.test.ts",
];

export default defineConfig({
  test: {
    environment: "node",
    // Migrates once per run: a PGlite image every harness starts from, or the PostgreSQL database.
    globalSetup: ["src/test-support/global-setup.ts"],
    pool: "forks",
    // Each worker runs its files one after another in one process, importing the app and PGlite once rather
    // than once per file (~3 s of CPU a file). Every harness still gets its own database and app.
    isolate: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
    reporters: ["default"],
    projects: [
      {
        extends: true,
        test: {
          name: "suite",
          include: ["src/**/*.test.ts", "test/**/*.test.ts", "sdk/test/**/*.test.ts"],
          exclude: LOOP_TIMING,
          maxWorkers: 2,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: "loop-timing",
          include: LOOP_TIMING,
          maxWorkers: 1,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
