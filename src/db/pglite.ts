/** The embedded database: PGlite in this process, in a directory or in memory, and the images tests start from. */
import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { join } from "node:path";
import { setImmediate as nextTurn } from "node:timers/promises";
import { PGlite, type PGliteOptions } from "@electric-sql/pglite";
import { btree_gin } from "@electric-sql/pglite/contrib/btree_gin";
import { btree_gist } from "@electric-sql/pglite/contrib/btree_gist";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { unaccent } from "@electric-sql/pglite/contrib/unaccent";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { channelIdentifier, type Database, type Db } from "./client.js";
import { migrationsFolder, reportingMigration } from "./migrations-folder.js";
import { type SocketServer, serveSocket } from "./pglite-socket.js";
import * as schema from "./schema/index.js";

/** A compiled WebAssembly module, as PGlite takes it (the project's TypeScript libraries do not declare its type). */
type CompiledModule = NonNullable<PGliteOptions["pgliteWasmModule"]>;
/** The runtime's WebAssembly, of which this needs one function. */
const wasm = (
  globalThis as unknown as { WebAssembly: { compile(bytes: Uint8Array): Promise<CompiledModule> } }
).WebAssembly;
let compiledPostgres: Promise<CompiledModule> | undefined;

/**
 * PGlite's PostgreSQL compiled once per process and shared by every PGlite it opens. Compiled by each, the code
 * of each one closed is freed, and a process that opens and closes many (a test worker runs a hundred harnesses)
 * trips a V8 bug on Node 24 doing so: a fatal `Check failed: jit_page_->allocations_.erase(addr) == 1` in
 * ThreadIsolation::UnregisterWasmAllocation (nodejs/node#64500), which killed a test worker in CI. It also spares
 * each open a compile.
 */
function postgresModule(): Promise<CompiledModule> {
  compiledPostgres ??= readFile(createRequire(import.meta.url).resolve("@electric-sql/pglite/pglite.wasm"))
    .then((bytes) => wasm.compile(bytes))
    .catch((err: unknown) => {
      compiledPostgres = undefined;
      throw err;
    });
  return compiledPostgres;
}

/** A PGlite with the extensions the migrations need, in `dir` (none: in memory), or a copy of `image`. */
export async function createPglite(dir: string | undefined, image?: Blob): Promise<PGlite> {
  const client = await PGlite.create(dir, {
    pgliteWasmModule: await postgresModule(),
    extensions: { unaccent, pg_trgm, btree_gin, btree_gist },
    ...(image === undefined ? {} : { loadDataDir: image }),
  });
  await client.exec("SET TIME ZONE 'UTC'");
  // PGlite runs on the event loop, and its files live in memory (or go through it): filling each new 16 MB WAL
  // segment with zeros, which reserves disk space for a server, copied ever larger buffers for 40-70 ms of one
  // statement every 16 MB of writes, so a bulk write stalled every other request. Only this one session writes.
  await client.exec("SET wal_init_zero = off");
  yieldAfterEachStatement(client);
  return client;
}

/** The first byte of the protocol's Sync message, which ends each statement PGlite runs (query or exec). */
const SYNC = 0x53;

/**
 * PGlite runs each statement synchronously on the event loop, and its answers settle at once, so a chain of
 * statements (a transaction's lookups, checks and writes) would hold the loop from the first to the last: a bulk
 * write kept every other tenant's request waiting 50-100 ms. After each statement the loop gets a turn, so what
 * another request waits for is one statement, as on a server. (Another request's statements still queue behind
 * the open transaction: PGlite has one session.)
 */
function yieldAfterEachStatement(client: PGlite): void {
  const exec = client.execProtocolStream.bind(client);
  client.execProtocolStream = async (message, options) => {
    const answer = await exec(message, options);
    if (message[0] === SYNC) await nextTurn();
    return answer;
  };
}

function migratePgliteClient(client: PGlite): Promise<void> {
  return migratePglite(drizzlePglite(client, { schema }), { migrationsFolder: migrationsFolder() });
}

/**
 * Writes an image of a freshly migrated in-memory PGlite to `file` (an uncompressed tarball of its data
 * directory): openDatabase({ dataDir: ":memory:", image: file }) then starts from it in a fraction of the time
 * initdb and the migrations take. Made for tests, so made to load fast: 16 MB of shared buffers instead of
 * 128 MB (zeroed at every start) and no template databases (a third of the files; nothing creates databases).
 */
export async function writePgliteImage(file: string): Promise<void> {
  const client = await createPglite(undefined);
  try {
    await migratePgliteClient(client);
    for (const statement of [
      "ALTER SYSTEM SET shared_buffers = '16MB'",
      "ALTER DATABASE template0 IS_TEMPLATE false",
      "DROP DATABASE template0",
      "ALTER DATABASE template1 IS_TEMPLATE false",
      "DROP DATABASE template1",
      "CHECKPOINT",
    ]) {
      await client.query(statement);
    }
    const tarball = await client.dumpDataDir("none");
    await writeFile(file, new Uint8Array(await tarball.arrayBuffer()));
  } finally {
    await client.close();
  }
}

// An image is read once per process (a run writes each image to a new path, and never changes it).
const images = new Map<string, Promise<Blob>>();
function readImage(file: string): Promise<Blob> {
  let image = images.get(file);
  if (image === undefined) {
    image = readFile(file).then((bytes) => new Blob([bytes]));
    image.catch(() => images.delete(file));
    images.set(file, image);
  }
  return image;
}

/** PGlite in `dataDir` (whose lock `unlock` gives back), or in memory. */
export async function openPglite(
  dataDir: string,
  unlock: () => void,
  image?: string,
  say?: (message: string) => void,
): Promise<Database> {
  const memory = dataDir === ":memory:";
  const dir = memory ? undefined : join(dataDir, "pglite");
  if (dir !== undefined && !existsSync(join(dir, "PG_VERSION"))) {
    say?.(`database: creating the embedded database in ${dataDir} (its first start: a few seconds)`);
  }
  let client: PGlite;
  try {
    const tarball = image === undefined ? undefined : await readImage(image);
    client = await createPglite(dir, tarball);
  } catch (err) {
    unlock();
    throw err;
  }
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  let socket: Promise<SocketServer> | undefined;
  return {
    kind: "pglite",
    description: memory ? "embedded, in memory" : `embedded, in ${dataDir}`,
    db,
    migrate() {
      return reportingMigration(
        (text) => client.query(text),
        () => migratePgliteClient(client),
      );
    },
    ...(memory
      ? {}
      : {
          async serve() {
            socket ??= serveSocket(client, dataDir);
            return (await socket).path;
          },
        }),
    async ping() {
      await client.query("SELECT 1");
    },
    async close() {
      // Clients of the socket first: each one's open transaction is rolled back before PGlite closes.
      await (await socket?.catch(() => undefined))?.close();
      await client.close();
      unlock();
    },
    // PGlite runs in this process: a NOTIFY committed by any of its queries calls back here, after the commit.
    async listen(channel, onNotify) {
      const unlisten = await client.listen(channelIdentifier(channel), () => onNotify());
      onNotify();
      return async () => {
        if (!client.closed) await unlisten();
      };
    },
  };
}
