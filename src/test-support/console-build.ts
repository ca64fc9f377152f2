import { mkdtempSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Page } from "playwright-core";
import { build } from "vite";
import { FIRST_VISIT_FILE, type FirstVisit } from "../../console/build/first-visit-size.js";

/**
 * The console built as `npm run build` builds it (same Vite configuration), into a directory of the test's own,
 * for a harness started with `CONSOLE_DIR` set to it. Returns the directory and the build's first-visit figures.
 */
export async function buildConsole(): Promise<{ dir: string; firstVisit: FirstVisit }> {
  const dir = mkdtempSync(join(tmpdir(), "aula-console-build-"));
  await build({
    configFile: fileURLToPath(new URL("../../console/vite.config.ts", import.meta.url)),
    logLevel: "warn",
    build: { outDir: dir, emptyOutDir: true },
  });
  const firstVisit = JSON.parse(readFileSync(join(dir, FIRST_VISIT_FILE), "utf8")) as FirstVisit;
  return { dir, firstVisit };
}

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

/**
 * axe-core's WCAG 2.1 AA and best-practice rules on the page as it is now, the serious and critical violations
 * only. axe is evaluated through the DevTools protocol, so the page keeps its Content-Security-Policy.
 */
export async function seriousViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE_SOURCE);
  return page.evaluate(async () => {
    const axe = (
      globalThis as unknown as {
        axe: {
          run: (o: unknown) => Promise<{
            violations: { id: string; impact: string; help: string; nodes: { target: string[] }[] }[];
          }>;
        };
      }
    ).axe;
    const result = await axe.run({ runOnly: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"] });
    return result.violations
      .filter((v) => v.impact === "serious" || v.impact === "critical")
      .map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
  });
}
