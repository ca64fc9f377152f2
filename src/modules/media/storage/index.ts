import type { MediaConfig } from "../../../config/media.js";
import { AppError } from "../../../platform/errors/app-error.js";
import { LocalStore } from "./local.js";
import { S3Store } from "./s3.js";
import type { MediaStore } from "./store.js";

/**
 * The stores of a process: new uploads go to the configured one (`current`), and each file is read from the one
 * it was written to (its `storage` column), so switching `MEDIA_STORAGE` never strands older files.
 */
export interface MediaStores {
  current: MediaStore;
  local: LocalStore;
  s3: S3Store | undefined;
  of(name: string): MediaStore;
}

export function createStores(config: MediaConfig): MediaStores {
  const local = new LocalStore(config.dir, config.urlSigningKey);
  const s3 = config.s3 === undefined ? undefined : new S3Store(config.s3);
  const current = config.driver === "s3" && s3 !== undefined ? s3 : local;
  return {
    current,
    local,
    s3,
    of(name) {
      if (name === "local") return local;
      if (name === "s3" && s3 !== undefined) return s3;
      // A file written by a process with another store (S3) and read by one without it: the store, not the request
      // nor this server's code, is missing, so 503 naming it.
      throw new AppError("storage_unavailable", { params: { store: name } });
    },
  };
}

const byConfig = new WeakMap<MediaConfig, MediaStores>();

/** One set of stores per configuration (so per app), shared by the media and drive routes. */
export function storesFor(config: MediaConfig): MediaStores {
  let stores = byConfig.get(config);
  if (stores === undefined) {
    stores = createStores(config);
    byConfig.set(config, stores);
  }
  return stores;
}
