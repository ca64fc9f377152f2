import type { Executor } from "../../db/client.js";
import { isUniqueViolation } from "../../db/errors.js";
import { AppError, notFound } from "../../platform/errors/app-error.js";
import { cappedPageEnvelope } from "../../platform/pagination/capped.js";
import { pageWindow } from "../../platform/pagination/pagination.js";
import { firstTypeInUse } from "./assignments-repo.js";
import * as repo from "./repo.js";
import type {
  CreateTagInput,
  ListTagsQueryType,
  ResourceType,
  TagRecord,
  UpdateTagInput,
} from "./schemas.js";
import { firstFreeSlug, slugBase } from "./slug.js";

const SLUG_ATTEMPTS = 3;

/**
 * Writes a tag under the first free slug for `name`. Two different names can share a slug (`C++` and `C`), so a
 * suffix is added; if a concurrent request takes the same slug first, the write is retried inside a savepoint
 * (a failed statement would otherwise end the caller's transaction on PostgreSQL). A taken name is 409.
 */
async function writeWithFreeSlug(
  db: Executor,
  tenantId: string,
  name: string,
  write: (tx: Executor, slug: string) => Promise<void>,
  ownSlug?: string,
): Promise<void> {
  const base = slugBase(name);
  for (let attempt = 1; ; attempt++) {
    const taken = await repo.slugsLike(db, tenantId, base);
    if (ownSlug !== undefined) taken.delete(ownSlug);
    try {
      await db.transaction((tx) => write(tx, firstFreeSlug(base, taken)));
      return;
    } catch (err) {
      if (isUniqueViolation(err, "tags_tenant_name_key")) {
        throw new AppError("conflict", { messageKey: "conflict.tag_name_taken" });
      }
      if (!isUniqueViolation(err, "tags_tenant_slug_key") || attempt === SLUG_ATTEMPTS) throw err;
    }
  }
}

export async function listTags(db: Executor, tenantId: string, query: ListTagsQueryType) {
  const window = pageWindow(query);
  const filter = { appliesTo: query.appliesTo, search: query.search };
  const [data, total] = await Promise.all([
    repo.listTags(db, tenantId, filter, query.sort ?? "-createdAt", window),
    repo.countTags(db, tenantId, filter),
  ]);
  return cappedPageEnvelope(data, total, window);
}

export async function getTag(db: Executor, tenantId: string, id: string): Promise<TagRecord> {
  const tag = await repo.findTag(db, tenantId, id);
  if (tag === undefined) throw notFound();
  return tag;
}

export async function createTag(db: Executor, tenantId: string, input: CreateTagInput): Promise<TagRecord> {
  const name = input.name.trim();
  let id = "";
  await writeWithFreeSlug(db, tenantId, name, async (tx, slug) => {
    id = await repo.insertTag(tx, tenantId, {
      name,
      slug,
      color: input.color ?? null,
      appliesTo: input.appliesTo,
    });
  });
  return (await repo.findTag(db, tenantId, id)) as TagRecord;
}

/**
 * Renaming re-derives the slug. Taking a type out of `appliesTo` while the tag is still on resources of that
 * type is 409: silently detaching them would lose data the caller may not know about.
 */
export async function updateTag(
  db: Executor,
  tenantId: string,
  id: string,
  input: UpdateTagInput,
): Promise<TagRecord> {
  return db.transaction(async (tx) => {
    const current = await repo.lockTag(tx, tenantId, id, "update");
    if (current === undefined) throw notFound();
    if (input.appliesTo !== undefined) {
      const dropped = current.appliesTo.filter(
        (type) => !(input.appliesTo as readonly string[]).includes(type),
      ) as ResourceType[];
      const inUse = await firstTypeInUse(tx, tenantId, id, dropped);
      if (inUse !== undefined) {
        throw new AppError("conflict", {
          messageKey: "conflict.tag_in_use",
          params: { resourceType: inUse },
        });
      }
    }
    const changes = {
      ...(input.color === undefined ? {} : { color: input.color }),
      ...(input.appliesTo === undefined ? {} : { appliesTo: input.appliesTo }),
    };
    if (input.name === undefined) {
      await repo.updateTag(tx, tenantId, id, changes);
    } else {
      const name = input.name.trim();
      await writeWithFreeSlug(
        tx,
        tenantId,
        name,
        (sp, slug) => repo.updateTag(sp, tenantId, id, { ...changes, name, slug }),
        current.slug,
      );
    }
    return (await repo.findTag(tx, tenantId, id)) as TagRecord;
  });
}

/** Deleting a tag detaches it everywhere (the foreign key cascades); no per-resource events are emitted. */
export async function deleteTag(db: Executor, tenantId: string, id: string): Promise<void> {
  const deleted = await db.transaction((tx) => repo.deleteTag(tx, tenantId, id));
  if (!deleted) throw notFound();
}
