import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { type Env, optional } from "./env.js";

/** The admin console's built files (`npm run build` writes them), served at `/admin`. */
export interface ConsoleConfig {
  /** CONSOLE_DIR: the directory holding `index.html` and `assets/`; default `dist/console` of this package. */
  dir: string;
}

/**
 * The default is found from this file, not from the working directory: `src/config` (tsx) and `dist/config`
 * (compiled) both sit two levels below the package root, so either way it is the package's `dist/console`.
 */
export function loadConsoleConfig(env: Env): ConsoleConfig {
  const given = optional(env, "CONSOLE_DIR");
  return {
    dir: given === undefined ? fileURLToPath(new URL("../../dist/console", import.meta.url)) : resolve(given),
  };
}
