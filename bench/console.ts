/**
 * (z) The admin console's first visit (issue 26): the console built as `npm run build` builds it, served by the
 * real app on a loopback port of this process, and fetched as a browser's first visit fetches it: GET /admin on an
 * institution's host, then every script and style sheet index.html names (the entry and the chunks it imports
 * statically, which Vite lists as modulepreload links), each with `Accept-Encoding: gzip`. The JavaScript's bytes
 * on the wire (target ≤ 200 kB gzipped), the CSS's, and the build's own figure (first-visit.json) to compare.
 * Checks: every file 200, gzipped, and the two figures agree within 2%.
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { request } from "undici";
import { build } from "vite";
import { FIRST_VISIT_FILE, type FirstVisit } from "../console/build/first-visit-size.js";
import type { Config } from "../src/config/index.js";
import type { Database } from "../src/db/client.js";
import { listenApp } from "./http.js";
import { makeTenant } from "./seed.js";

export interface ConsoleResult {
  jsGzipBytes: number;
  cssGzipBytes: number;
  files: number;
  buildJsGzipBytes: number;
  problems: string[];
}

/** The console built by its own Vite configuration (run from the repository, as `npm run bench` is). */
async function buildConsole(): Promise<{ dir: string; firstVisit: FirstVisit }> {
  const dir = mkdtempSync(join(tmpdir(), "aula-bench-console-"));
  await build({
    configFile: resolve("console/vite.config.ts"),
    logLevel: "warn",
    build: { outDir: dir, emptyOutDir: true },
  });
  return { dir, firstVisit: JSON.parse(readFileSync(join(dir, FIRST_VISIT_FILE), "utf8")) as FirstVisit };
}

export async function measureConsole(
  database: Database,
  config: Config,
  log: (line: string) => void,
): Promise<ConsoleResult> {
  const built = await buildConsole();
  const { app, base } = await listenApp(database, {
    ...config,
    console: { ...config.console, dir: built.dir },
  });
  const problems: string[] = [];
  try {
    const t = await makeTenant(database.db, config.plans, "console");
    const headers = { host: `${t.slug}.${config.baseDomain}`, "accept-encoding": "gzip" };
    const page = await request(`${base}/admin`, { headers });
    const html = await page.body.text();
    if (page.statusCode !== 200) problems.push(`/admin: ${page.statusCode}`);
    const urls = [...html.matchAll(/<(?:script|link)\b[^>]*?(?:src|href)="(\/admin\/assets\/[^"]+)"/g)].map(
      (m) => m[1] as string,
    );
    let js = 0;
    let css = 0;
    for (const url of new Set(urls)) {
      const res = await request(`${base}${url}`, { headers });
      const bytes = (await res.body.arrayBuffer()).byteLength;
      if (res.statusCode !== 200) problems.push(`${url}: ${res.statusCode}`);
      if (res.headers["content-encoding"] !== "gzip") problems.push(`${url}: not gzipped`);
      if (url.endsWith(".js")) js += bytes;
      else if (url.endsWith(".css")) css += bytes;
    }
    const expected = built.firstVisit.jsGzipBytes;
    if (Math.abs(js - expected) > expected * 0.02)
      problems.push(`${js} bytes on the wire, ${expected} in the build`);
    log(`(z) console first visit: ${js} bytes of JavaScript and ${css} of CSS gzipped, ${urls.length} files`);
    return { jsGzipBytes: js, cssGzipBytes: css, files: urls.length, buildJsGzipBytes: expected, problems };
  } finally {
    await app.close();
  }
}
