import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";
import { firstVisitSize } from "./build/first-visit-size.js";

const here = fileURLToPath(new URL(".", import.meta.url));

/**
 * The admin console, served by the API at /admin (src/modules/console). Built into dist/console by
 * `npm run build`; tests build it elsewhere with `outDir`. No inline script or style in the output: the
 * console's Content-Security-Policy allows only its own files.
 */
export default defineConfig({
  root: here,
  base: "/admin/",
  logLevel: "warn",
  // JSX for React's automatic runtime, never its development variant (vitest's NODE_ENV=test would choose it).
  oxc: { jsx: { runtime: "automatic", development: false } },
  // React's production build whatever NODE_ENV the building process has (vitest sets "test").
  define: { "process.env.NODE_ENV": JSON.stringify("production") },
  build: {
    outDir: fileURLToPath(new URL("../dist/console", import.meta.url)),
    emptyOutDir: true,
    target: "es2022",
    // Modern browsers only: the polyfill would be an inline-free but useless few hundred bytes.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    reportCompressedSize: false,
  },
  // `npm run console:dev`: this app with live reload at http://<slug>.localhost:5173/admin/, its API calls passed
  // to the API of `npm start` with the Host kept, so the institution, the cookies and the same-origin checks
  // are those of the institution's own host.
  server: { port: 5173, strictPort: true, proxy: { "/api": { target: "http://127.0.0.1:3000" } } },
  plugins: [firstVisitSize()],
});
