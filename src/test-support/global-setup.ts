import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { isAlive } from "../db/data-dir.js";
import { openDatabase } from "../db/open-database.js";
import { writePgliteImage } from "../db/pglite.js";

declare module "vitest" {
  export interface ProvidedContext {
    /** A freshly migrated PGlite image, made once per run; every harness on PGlite starts from a copy of it. */
    pgliteImage: string | undefined;
  }
}

/**
 * Vitest's globalSetup: the schema is migrated once per run instead of once per harness. On PGlite (no
 * DATABASE_URL) that is an image in a temporary directory, removed at the end; initdb plus the migrations cost
 * seconds per harness, loading the image a fraction of one. On PostgreSQL the shared database is migrated
 * here, so each harness's own migrate() finds nothing to do.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const url = process.env.DATABASE_URL;
  if (url) {
    const database = await openDatabase({ url, dataDir: ":memory:", poolSize: 1 });
    try {
      await database.migrate();
    } finally {
      await database.close();
    }
    project.provide("pgliteImage", undefined);
    return async () => {};
  }
  await removeOrphanedImages();
  const dir = await mkdtemp(join(tmpdir(), `${PREFIX}${process.pid}-`));
  try {
    const image = join(dir, "migrated.tar");
    await writePgliteImage(image);
    project.provide("pgliteImage", image);
  } catch (err) {
    await rm(dir, { recursive: true, force: true });
    throw err;
  }
  return () => rm(dir, { recursive: true, force: true });
}

const PREFIX = "aula-test-image-";

/** A run killed before its teardown leaves its image behind: remove those whose process is gone. */
async function removeOrphanedImages(): Promise<void> {
  for (const name of await readdir(tmpdir()).catch(() => [])) {
    if (!name.startsWith(PREFIX)) continue;
    const pid = Number(name.slice(PREFIX.length).split("-")[0]);
    if (Number.isInteger(pid) && pid > 0 && !isAlive(pid)) {
      await rm(join(tmpdir(), name), { recursive: true, force: true });
    }
  }
}
