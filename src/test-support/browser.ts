import { existsSync } from "node:fs";
import { type Browser, chromium } from "playwright-core";

/** Where browser tests leave their screenshots, to be looked at (ignored by git). */
export const SCREENSHOTS = "test-results/screenshots";

/** Debian's Chromium (package `chromium`, which `.ci/run` installs). */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/**
 * Whether the browser tests run here. Without Chromium they are skipped with a message, unless
 * AULA_BROWSER_TESTS=require (set by `.ci/run`), where a missing browser fails them.
 */
export function browserAvailable(): boolean {
  if (existsSync(CHROMIUM)) return true;
  if (process.env.AULA_BROWSER_TESTS === "require") {
    throw new Error(`AULA_BROWSER_TESTS=require, but there is no Chromium at ${CHROMIUM}`);
  }
  console.warn(`browser tests skipped: no Chromium at ${CHROMIUM} (apt-get install chromium)`);
  return false;
}

/**
 * Headless Chromium (Playwright gives it a new empty profile), without the background connections that a closed
 * network refuses (updates, sync, field trials): what the page itself asks for is all it fetches.
 */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}
