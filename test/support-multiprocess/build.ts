/**
 * The compiled service that the child processes run, built afresh for each run into a temporary directory: a
 * dist/ left by an earlier `npm run build` may be older than the sources, and `npm test` alone must not run
 * stale code. `tsc --noCheck` only emits (about 5 s on the CI machine, against 25 s with type checking, which is
 * `npm run typecheck`'s job anyway).
 *
 * Compiled code expects to sit under the project root: Node finds packages in node_modules above it and reads
 * `"type": "module"` from the nearest package.json, and migrationsFolder() (src/db/migrations-folder.ts) walks up to that
 * package.json and reads src/db/migrations beside it. The directory therefore holds a package.json of its own
 * and links to the project's node_modules and src.
 */
import { execFile } from "node:child_process";
import { mkdtemp, readdir, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { isAlive } from "../../src/db/data-dir.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const PREFIX = "aula-multiprocess-";

export interface Build {
  /** The temporary root; `dist/` inside it holds server.js, worker.js, cli.js. */
  dir: string;
  entry(name: "server" | "worker" | "cli"): string;
  remove(): Promise<void>;
}

export async function buildService(): Promise<Build> {
  await removeOrphanedBuilds();
  const dir = await mkdtemp(join(tmpdir(), `${PREFIX}${process.pid}-`));
  const remove = () => rm(dir, { recursive: true, force: true });
  try {
    await promisify(execFile)(
      process.execPath,
      [
        join(ROOT, "node_modules", "typescript", "bin", "tsc"),
        "-p",
        join(ROOT, "tsconfig.build.json"),
        "--outDir",
        join(dir, "dist"),
        "--noCheck",
        "--sourceMap",
        "false",
      ],
      { cwd: ROOT },
    );
    await writeFile(join(dir, "package.json"), JSON.stringify({ type: "module", private: true }));
    await symlink(join(ROOT, "node_modules"), join(dir, "node_modules"), "dir");
    await symlink(join(ROOT, "src"), join(dir, "src"), "dir");
  } catch (err) {
    await remove();
    throw err;
  }
  return { dir, entry: (name) => join(dir, "dist", `${name}.js`), remove };
}

/** A run killed before its afterAll leaves its build behind: remove those whose process is gone. */
async function removeOrphanedBuilds(): Promise<void> {
  for (const name of await readdir(tmpdir()).catch(() => [])) {
    if (!name.startsWith(PREFIX)) continue;
    const pid = Number(name.slice(PREFIX.length).split("-")[0]);
    if (Number.isInteger(pid) && pid > 0 && !isAlive(pid)) {
      await rm(join(tmpdir(), name), { recursive: true, force: true });
    }
  }
}
