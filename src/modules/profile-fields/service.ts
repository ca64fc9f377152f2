import type { Executor } from "../../db/client.js";
import { isUniqueViolation } from "../../db/errors.js";
import { AppError, type DetailKey, notFound } from "../../platform/errors/app-error.js";
import { cappedPageEnvelope } from "../../platform/pagination/capped.js";
import { pageWindow } from "../../platform/pagination/pagination.js";
import * as repo from "./repo.js";
import { definitionDetails } from "./rules.js";
import {
  type CreateProfileFieldInput,
  type ListProfileFieldsQueryType,
  MAX_PROFILE_FIELDS,
  type ProfileFieldRecord,
  type UpdateProfileFieldInput,
} from "./schemas.js";

export {
  applyProfileValues,
  type BulkProfileCheck,
  checkBulkProfiles,
  profileFilters,
  writeBulkProfiles,
} from "./values.js";

const invalid = (details: DetailKey[]) => new AppError("validation_failed", { details });

export async function listFields(db: Executor, tenantId: string, query: ListProfileFieldsQueryType) {
  const window = pageWindow(query);
  const filter = { status: query.status, type: query.type };
  const [data, total] = await Promise.all([
    repo.listFields(db, tenantId, filter, query.sort ?? "position", window),
    repo.countFields(db, tenantId, filter),
  ]);
  return cappedPageEnvelope(data, total, window);
}

export async function getField(db: Executor, tenantId: string, id: string): Promise<ProfileFieldRecord> {
  const field = await repo.findField(db, tenantId, id);
  if (field === undefined) throw notFound();
  return field;
}

/**
 * Creates a definition at the end of the order. The institution's row is locked while the definitions are counted
 * and the position chosen, so concurrent creations can neither pass the limit nor take the same place.
 */
export async function createField(
  db: Executor,
  tenantId: string,
  input: CreateProfileFieldInput,
): Promise<ProfileFieldRecord> {
  const def = {
    type: input.type,
    options: input.options ?? null,
    required: input.required ?? false,
    unique: input.unique ?? false,
    validation: input.validation ?? null,
  };
  const details = definitionDetails(def);
  if (details.length > 0) throw invalid(details);
  return db.transaction(async (tx) => {
    await repo.lockTenant(tx, tenantId);
    const { count, next } = await repo.nextPosition(tx, tenantId);
    if (count >= MAX_PROFILE_FIELDS) {
      throw new AppError("conflict", {
        messageKey: "conflict.profile_field_limit",
        params: { limit: MAX_PROFILE_FIELDS },
      });
    }
    return repo
      .insertField(tx, tenantId, { key: input.key, label: input.label, ...def, position: next })
      .catch((err: unknown) => {
        if (isUniqueViolation(err, "profile_fields_tenant_key_key")) {
          throw new AppError("conflict", { messageKey: "conflict.profile_key_taken" });
        }
        throw err;
      });
  });
}

/**
 * Changes a definition; `key` and `type` never change (values were checked against them). Making a field unique
 * copies each value's canonical text into the unique index, which refuses (409) when two users already share
 * one; existing values are not re-checked against new options or rules, and a newly required field binds new
 * users and edits of the field, not users who never had it.
 */
export async function updateField(
  db: Executor,
  tenantId: string,
  id: string,
  input: UpdateProfileFieldInput,
): Promise<ProfileFieldRecord> {
  return db.transaction(async (tx) => {
    const current = await repo.findField(tx, tenantId, id, true);
    if (current === undefined) throw notFound();
    const merged = {
      type: current.type,
      options: input.options ?? current.options,
      required: input.required ?? current.required,
      unique: input.unique ?? current.unique,
      validation: input.validation === undefined ? current.validation : input.validation,
    };
    const details = definitionDetails(merged);
    if (details.length > 0) throw invalid(details);
    if (merged.unique !== current.unique) {
      await repo.setValuesUnique(tx, tenantId, id, merged.unique).catch((err: unknown) => {
        if (isUniqueViolation(err, "user_profile_values_unique_key")) {
          throw new AppError("conflict", {
            messageKey: "conflict.profile_unique_duplicates",
            details: [{ field: "unique", key: "field.profile_values_shared" }],
          });
        }
        throw err;
      });
    }
    const { status, ...rest } = input;
    return repo.updateField(tx, tenantId, id, { ...rest, ...(status === undefined ? {} : { status }) });
  });
}

/** Deletes a definition and every user's value of it (archive it instead to keep them). */
export async function deleteField(db: Executor, tenantId: string, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    if ((await repo.findField(tx, tenantId, id, true)) === undefined) throw notFound();
    await repo.deleteField(tx, tenantId, id);
  });
}

/**
 * Sets the order: `ids` must list every definition of the institution exactly once (400 otherwise, so a client
 * working from a stale list cannot drop a field to the end by accident). Answers the fields in their new order.
 */
export async function orderFields(
  db: Executor,
  tenantId: string,
  ids: readonly string[],
): Promise<ProfileFieldRecord[]> {
  const wanted = ids.map((id) => id.toLowerCase());
  return db.transaction(async (tx) => {
    await repo.lockTenant(tx, tenantId);
    const current = await repo.allFieldIds(tx, tenantId);
    const same = current.length === wanted.length && current.every((id) => wanted.includes(id));
    if (!same) throw invalid([{ field: "ids", key: "field.order_mismatch" }]);
    await repo.reorder(tx, tenantId, wanted);
    return repo.listFields(tx, tenantId, {}, "position", {
      limit: MAX_PROFILE_FIELDS,
      offset: 0,
      page: 1,
      perPage: MAX_PROFILE_FIELDS,
    });
  });
}
