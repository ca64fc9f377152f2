import type { Executor } from "../../db/client.js";
import { AppError, type DetailKey, notFound } from "../../platform/errors/app-error.js";
import { type Actor, eventActorOf } from "../events/actor.js";
import { emitEvent } from "../events/emit.js";
import { canonicalTimezone } from "../institution/service.js";
import { effective } from "./effective-settings.js";
import * as repo from "./repo.js";
import {
  DEFAULT_SETTINGS,
  NAMESPACE_NAMES,
  type Namespace,
  Settings,
  type SettingsPatch,
  type SettingsRecord,
} from "./schemas.js";

export { getSettings } from "./effective-settings.js";
export { assertEmailAllowed, type EmailDomainPolicy, emailDomainPolicy } from "./email-domains.js";
export { letterFor } from "./grading.js";
export type { SettingsRecord } from "./schemas.js";
export { displayName } from "./sender-name.js";

type Overrides = Record<string, Record<string, unknown>>;

/** RFC 7386 over the stored overrides: `null` drops a key (or a namespace), so it reads as its default again. */
function mergePatch(current: Overrides, patch: SettingsPatch): Overrides {
  const next: Overrides = structuredClone(current);
  for (const [ns, value] of Object.entries(patch) as [Namespace, Record<string, unknown> | null][]) {
    if (value === null) {
      delete next[ns];
      continue;
    }
    const target = { ...(next[ns] ?? {}) };
    for (const [key, v] of Object.entries(value)) {
      if (v === null) delete target[key];
      else target[key] = v;
    }
    if (Object.keys(target).length === 0) delete next[ns];
    else next[ns] = target;
  }
  return next;
}

/** What the schema alone cannot say: a real time zone, and a grading scale that maps every percent once. */
function checkRules(settings: SettingsRecord, patch: SettingsPatch): DetailKey[] {
  const details: DetailKey[] = [];
  if (patch.general?.timezone !== undefined && patch.general.timezone !== null) {
    const zone = canonicalTimezone(patch.general.timezone);
    if (zone === undefined) details.push({ field: "general.timezone", key: "field.timezone" });
    else settings.general.timezone = zone;
  }
  if (patch.learning?.gradingScale !== undefined && patch.learning.gradingScale !== null) {
    const scale = settings.learning.gradingScale;
    const letters = new Set<string>();
    scale.forEach((band, i) => {
      const field = `learning.gradingScale[${i}]`;
      const previous = scale[i - 1];
      if (previous !== undefined && band.minPercent >= previous.minPercent) {
        details.push({ field: `${field}.minPercent`, key: "field.grading_scale_order" });
      }
      if (letters.has(band.letter)) {
        details.push({ field: `${field}.letter`, key: "field.duplicate", params: { value: band.letter } });
      }
      letters.add(band.letter);
    });
    const last = scale[scale.length - 1];
    if (last !== undefined && last.minPercent !== 0) {
      details.push({
        field: `learning.gradingScale[${scale.length - 1}].minPercent`,
        key: "field.grading_scale_floor",
      });
    }
  }
  return details;
}

/** `namespace.key` of every key whose effective value differs (a reset to the value it had is no change). */
function changedKeys(before: SettingsRecord, after: SettingsRecord): string[] {
  const changed: string[] = [];
  for (const ns of NAMESPACE_NAMES) {
    for (const key of Object.keys(Settings.properties[ns].properties)) {
      const a = (before[ns] as Record<string, unknown>)[key];
      const b = (after[ns] as Record<string, unknown>)[key];
      if (JSON.stringify(a) !== JSON.stringify(b)) changed.push(`${ns}.${key}`);
    }
  }
  return changed;
}

/**
 * Applies a merge patch under the settings row's lock, in one transaction with its `settings_updated` event
 * (which names the changed keys). `general.locale` and `general.timezone` are written to the tenant row, where
 * the profile reads them. A patch that changes nothing writes nothing and emits nothing.
 */
export async function updateSettings(
  db: Executor,
  tenantId: string,
  actor: Actor,
  patch: SettingsPatch,
): Promise<SettingsRecord> {
  return db.transaction(async (tx) => {
    const row = await repo.lockSettings(tx, tenantId);
    if (row === undefined) throw notFound();
    const before = effective(row);
    // The locale and zone live on the tenant row; every other key in the overrides.
    const { general, ...rest } = patch;
    let { locale, timezone } = row;
    let storedGeneral: SettingsPatch["general"] | undefined = general;
    if (general === null) {
      locale = DEFAULT_SETTINGS.general.locale;
      timezone = DEFAULT_SETTINGS.general.timezone;
    } else if (general !== undefined) {
      const { locale: l, timezone: z, ...others } = general;
      if (l !== undefined) locale = l ?? DEFAULT_SETTINGS.general.locale;
      if (z !== undefined) timezone = z ?? DEFAULT_SETTINGS.general.timezone;
      storedGeneral = others;
    }
    const overrides = mergePatch(
      row.overrides,
      storedGeneral === undefined ? rest : { ...rest, general: storedGeneral },
    );
    const after = effective({ ...row, overrides, locale, timezone });
    const details = checkRules(after, patch);
    if (details.length > 0) throw new AppError("validation_failed", { details });
    const changed = changedKeys(before, after);
    if (changed.length === 0) return before;
    const generalChanged = changed.includes("general.locale") || changed.includes("general.timezone");
    const version = await repo.writeSettings(
      tx,
      tenantId,
      overrides,
      generalChanged ? { locale: after.general.locale, timezone: after.general.timezone } : undefined,
    );
    await emitEvent(tx, {
      tenantId,
      type: "settings_updated",
      data: { changedKeys: changed, version },
      actor: eventActorOf(actor),
    });
    return after;
  });
}

/** `GET /settings/schema`: the settings' own TypeBox schema as a JSON Schema document. */
export function settingsJsonSchema(): Record<string, unknown> {
  return {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    title: "Institution settings",
    description:
      "Every namespace and key, with its type, constraints and default. `PATCH /api/institution/settings` " +
      "takes a merge patch of this document (RFC 7386): `null` resets a key to its default.",
    ...(JSON.parse(JSON.stringify(Settings)) as Record<string, unknown>),
  };
}
