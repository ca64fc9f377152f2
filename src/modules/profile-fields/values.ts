/**
 * Users' custom profile values: checked against the institution's active definitions on user creation, update and
 * bulk creation (required, type, options, validation, uniqueness), stored one row per (user, field).
 */
import type { Executor } from "../../db/client.js";
import { isUniqueViolation } from "../../db/errors.js";
import { AppError, type DetailKey } from "../../platform/errors/app-error.js";
import * as repo from "./repo.js";
import { type FieldDefinition, isDetail, normalise } from "./rules.js";
import type { ProfileFieldsInputType, ProfileValueType } from "./schemas.js";

/** At most this many `profile.<key>` filters on one users list. */
export const MAX_PROFILE_FILTERS = 3;

interface Checked {
  upserts: { def: FieldDefinition; value: ProfileValueType; matchKey: string | null }[];
  removals: FieldDefinition[];
  details: DetailKey[];
}

/**
 * Checks one user's input in memory. `creating`: every required field must be given. On update only the given
 * keys change, and a required one cannot be removed. Archived and unknown keys are refused, naming the path.
 */
function check(
  defs: readonly FieldDefinition[],
  input: ProfileFieldsInputType | undefined,
  creating: boolean,
  prefix: string,
): Checked {
  const byKey = new Map(defs.map((d) => [d.key, d]));
  const out: Checked = { upserts: [], removals: [], details: [] };
  const given = input ?? {};
  for (const [key, raw] of Object.entries(given)) {
    const field = `${prefix}.${key}`;
    const def = byKey.get(key);
    if (def === undefined) {
      out.details.push({ field, key: "field.profile_unknown", params: { key } });
      continue;
    }
    const result = raw === null ? undefined : normalise(def, raw, field);
    if (isDetail(result)) out.details.push(result);
    else if (result === undefined) {
      if (def.required) out.details.push({ field, key: "field.required" });
      else out.removals.push(def);
    } else out.upserts.push({ def, ...result });
  }
  if (creating) {
    for (const def of defs) {
      if (def.required && !Object.hasOwn(given, def.key))
        out.details.push({ field: `${prefix}.${def.key}`, key: "field.required" });
    }
  }
  return out;
}

const taken = (fields: string[]) =>
  new AppError("conflict", {
    messageKey: "conflict.profile_value_taken",
    details: fields.map((field) => ({ field, key: "field.profile_value_taken" })),
  });

const uniqueKeyOf = (u: Checked["upserts"][number]) => (u.def.unique ? u.matchKey : null);

/**
 * Applies a user's `profileFields` inside the caller's transaction (after the user row exists): 400 naming each
 * bad field, 409 naming a unique field whose value another user holds. The read before the write only names the
 * field; the database's unique index is what guarantees it, so a concurrent write of the same value is a 409 too.
 * Answers whether any stored value changed.
 */
export async function applyProfileValues(
  tx: Executor,
  tenantId: string,
  userId: string,
  input: ProfileFieldsInputType | undefined,
  options: { creating: boolean; before?: Record<string, unknown>; prefix?: string },
): Promise<boolean> {
  const prefix = options.prefix ?? "profileFields";
  const defs = await repo.activeDefinitions(tx, tenantId);
  if (defs.length === 0 && (input === undefined || Object.keys(input).length === 0)) return false;
  const checked = check(defs, input, options.creating, prefix);
  if (checked.details.length > 0) throw new AppError("validation_failed", { details: checked.details });
  const before = options.before ?? {};
  const upserts = checked.upserts.filter(
    (u) => JSON.stringify(before[u.def.key]) !== JSON.stringify(u.value),
  );
  const removals = checked.removals.filter((d) => Object.hasOwn(before, d.key));
  const pairs = upserts.flatMap((u) => {
    const uniqueKey = uniqueKeyOf(u);
    return uniqueKey === null ? [] : [{ fieldId: u.def.id, uniqueKey }];
  });
  const clash = await repo.takenUniqueKeys(tx, tenantId, pairs, userId);
  const clashing = upserts.filter((u) => clash.has(`${u.def.id}:${uniqueKeyOf(u)}`));
  if (clashing.length > 0) throw taken(clashing.map((u) => `${prefix}.${u.def.key}`));
  await repo.deleteValues(
    tx,
    tenantId,
    userId,
    removals.map((d) => d.id),
  );
  await repo
    .upsertValues(
      tx,
      tenantId,
      upserts.map((u) => ({
        userId,
        fieldId: u.def.id,
        value: u.value,
        matchKey: u.matchKey,
        uniqueKey: uniqueKeyOf(u),
      })),
    )
    .catch((err: unknown) => {
      if (isUniqueViolation(err, "user_profile_values_unique_key")) {
        throw taken(upserts.filter((u) => u.def.unique).map((u) => `${prefix}.${u.def.key}`));
      }
      throw err;
    });
  return upserts.length > 0 || removals.length > 0;
}

export interface BulkProfileCheck {
  /** Items whose profile is refused, by index, with the error each would have had alone. */
  errors: Map<number, AppError>;
  /** The rows to write per item, once its user id is known. */
  rows: Map<number, Omit<repo.ValueRow, "userId">[]>;
}

/**
 * Checks the profiles of a bulk creation in memory plus one read: per item the rules above, then unique values
 * against other users and against earlier items of the same batch (the first item keeps the value).
 */
export async function checkBulkProfiles(
  tx: Executor,
  tenantId: string,
  items: readonly { index: number; profileFields?: ProfileFieldsInputType }[],
): Promise<BulkProfileCheck> {
  const defs = await repo.activeDefinitions(tx, tenantId);
  const errors = new Map<number, AppError>();
  const rows = new Map<number, Omit<repo.ValueRow, "userId">[]>();
  if (defs.length === 0 && items.every((i) => i.profileFields === undefined)) return { errors, rows };
  const checkedItems = items.map((item) => ({
    item,
    checked: check(defs, item.profileFields, true, `items[${item.index}].profileFields`),
  }));
  const pairs = checkedItems.flatMap(({ checked }) =>
    checked.upserts.flatMap((u) => {
      const uniqueKey = uniqueKeyOf(u);
      return uniqueKey === null ? [] : [{ fieldId: u.def.id, uniqueKey }];
    }),
  );
  const existing = await repo.takenUniqueKeys(tx, tenantId, pairs, null);
  const claimed = new Set<string>();
  for (const { item, checked } of checkedItems) {
    if (checked.details.length > 0) {
      errors.set(item.index, new AppError("validation_failed", { details: checked.details }));
      continue;
    }
    const clashing = checked.upserts.filter((u) => {
      const k = uniqueKeyOf(u);
      return k !== null && (existing.has(`${u.def.id}:${k}`) || claimed.has(`${u.def.id}:${k}`));
    });
    if (clashing.length > 0) {
      errors.set(item.index, taken(clashing.map((u) => `items[${item.index}].profileFields.${u.def.key}`)));
      continue;
    }
    for (const u of checked.upserts) {
      const k = uniqueKeyOf(u);
      if (k !== null) claimed.add(`${u.def.id}:${k}`);
    }
    rows.set(
      item.index,
      checked.upserts.map((u) => ({
        fieldId: u.def.id,
        value: u.value,
        matchKey: u.matchKey,
        uniqueKey: uniqueKeyOf(u),
      })),
    );
  }
  return { errors, rows };
}

/** Writes the checked profiles of the users a bulk creation made, in one statement. */
export async function writeBulkProfiles(
  tx: Executor,
  tenantId: string,
  rows: readonly repo.ValueRow[],
): Promise<void> {
  await repo.upsertValues(tx, tenantId, rows).catch((err: unknown) => {
    // Another request took a value between the check and this write: the whole batch answers 409.
    if (isUniqueViolation(err, "user_profile_values_unique_key")) throw taken(["items"]);
    throw err;
  });
}

export interface ProfileFilter {
  fieldId: string;
  /** Canonical text for scalar fields; null for multiselect, matched by `has`. */
  eq?: string;
  has?: string;
}

/**
 * Turns `profile.<key>=value` query parameters into filters on active fields, the value canonicalised as stored
 * (so `?profile.student_number= 2026 0001 ` finds `2026 0001`). 400 for an unknown key, a value the field could
 * never hold, or more than three filters.
 */
export async function profileFilters(
  db: Executor,
  tenantId: string,
  query: Record<string, unknown>,
): Promise<ProfileFilter[]> {
  const given = Object.entries(query).filter(([name]) => name.startsWith("profile."));
  if (given.length === 0) return [];
  if (given.length > MAX_PROFILE_FILTERS) {
    throw new AppError("validation_failed", {
      details: [{ field: "profile", key: "field.max_items", params: { limit: MAX_PROFILE_FILTERS } }],
    });
  }
  const keys = given.map(([name]) => name.slice("profile.".length));
  const defs = new Map(
    (await repo.definitionByKey(db, tenantId, keys))
      .filter((d) => d.status === "active")
      .map((d) => [d.key, d]),
  );
  const details: DetailKey[] = [];
  const filters: ProfileFilter[] = [];
  for (const [name, raw] of given) {
    const key = name.slice("profile.".length);
    const def = defs.get(key);
    if (def === undefined) {
      details.push({ field: name, key: "field.profile_unknown", params: { key } });
      continue;
    }
    const text = String(raw);
    if (def.type === "multiselect") {
      filters.push({ fieldId: def.id, has: text });
      continue;
    }
    // Query values are text: read numbers and booleans back from it before canonicalising.
    const typed =
      def.type === "number"
        ? Number(text)
        : def.type === "checkbox"
          ? text === "true"
            ? true
            : text === "false"
              ? false
              : text
          : text;
    const result = normalise(def, typed, name);
    if (isDetail(result)) details.push(result);
    else if (result === undefined || result.matchKey === null)
      details.push({ field: name, key: "field.profile_filter_value" });
    else filters.push({ fieldId: def.id, eq: result.matchKey });
  }
  if (details.length > 0) throw new AppError("validation_failed", { details });
  return filters;
}
