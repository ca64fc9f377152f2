import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    environment: "node",
    // Migrates once per run: a PGlite image every harness starts from, or the PostgreSQL database.
    globalSetup: ["src/test-support/global-setup.ts"],
    pool: "forks",
    maxWorkers: 2,
    // Each worker runs its files one after another in one process, importing the app and PGlite once rather
    // than once per file (~3 s of CPU a file). Every harness still gets its own database and app.
    isolate: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
    reporters: ["default"],
  },
});
