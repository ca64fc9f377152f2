import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import type { Plugin } from "vite";

/** What a first visit downloads, as `first-visit.json` beside index.html (not served: not under assets/). */
export interface FirstVisit {
  /** The entry chunk and every chunk it imports statically: the JavaScript a first visit must load. */
  jsBytes: number;
  jsGzipBytes: number;
  cssBytes: number;
  cssGzipBytes: number;
  files: string[];
}

export const FIRST_VISIT_FILE = "first-visit.json";

const gzipped = (text: string | Uint8Array) => gzipSync(text, { level: 9 }).length;

/**
 * Measures the console's first visit in the build itself: the entry chunk and its static imports (lazy chunks
 * are not loaded by a first visit), and the style sheets they bring, raw and gzipped at level 9, as a web
 * server compressing them would send. Printed, and written for the benchmark to read.
 */
export function firstVisitSize(): Plugin {
  return {
    name: "aula-first-visit-size",
    apply: "build",
    writeBundle(options, bundle) {
      const seen = new Set<string>();
      const css = new Set<string>();
      const visit = (fileName: string) => {
        const chunk = bundle[fileName];
        if (chunk === undefined || chunk.type !== "chunk" || seen.has(fileName)) return;
        seen.add(fileName);
        for (const sheet of chunk.viteMetadata?.importedCss ?? []) css.add(sheet);
        for (const imported of chunk.imports) visit(imported);
      };
      for (const output of Object.values(bundle)) {
        if (output.type === "chunk" && output.isEntry) visit(output.fileName);
      }
      const size: FirstVisit = { jsBytes: 0, jsGzipBytes: 0, cssBytes: 0, cssGzipBytes: 0, files: [] };
      for (const fileName of seen) {
        const chunk = bundle[fileName];
        if (chunk?.type !== "chunk") continue;
        size.jsBytes += Buffer.byteLength(chunk.code);
        size.jsGzipBytes += gzipped(chunk.code);
        size.files.push(fileName);
      }
      for (const fileName of css) {
        const sheet = bundle[fileName];
        if (sheet?.type !== "asset") continue;
        size.cssBytes += Buffer.byteLength(sheet.source);
        size.cssGzipBytes += gzipped(sheet.source);
        size.files.push(fileName);
      }
      writeFileSync(join(options.dir ?? ".", FIRST_VISIT_FILE), `${JSON.stringify(size, null, 2)}\n`);
      const kB = (n: number) => (n / 1000).toFixed(1);
      console.log(
        `console: first visit ${kB(size.jsGzipBytes)} kB of JavaScript gzipped (${kB(size.jsBytes)} kB raw), ` +
          `${kB(size.cssGzipBytes)} kB of CSS gzipped`,
      );
    },
  };
}
