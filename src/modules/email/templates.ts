/** The template routes' rules: built-in keys with per-locale overrides, and an institution's `custom.*` keys. */

import { sql } from "drizzle-orm";
import type { Executor } from "../../db/client.js";
import { LOCALES, type Locale } from "../../locales/index.js";
import { AppError, type DetailKey, notFound, validationError } from "../../platform/errors/app-error.js";
import { pageEnvelope, pageWindow } from "../../platform/pagination/pagination.js";
import {
  COMMON_VARIABLES,
  defaultTemplate,
  isTemplateKey,
  TEMPLATE_KEYS,
  TEMPLATE_VARIABLES,
} from "./defaults.js";
import { render, sanitizeEmailHtml, type Variables, variablesIn } from "./render.js";
import * as repo from "./repo.js";
import type { ListTemplatesQueryType, PreviewInput, PutTemplateInput, TemplateRecord } from "./schemas.js";

const CUSTOM_KEY = /^custom\.[a-z0-9][a-z0-9_-]{0,63}$/;

function assertKnownShape(key: string): void {
  if (!isTemplateKey(key) && !CUSTOM_KEY.test(key)) throw notFound();
}

/** A built-in key exists everywhere; a custom one only in the institution that created it (404 elsewhere). */
async function assertExists(db: Executor, tenantId: string, key: string): Promise<void> {
  assertKnownShape(key);
  if (!isTemplateKey(key) && (await repo.listOverrides(db, tenantId, key)).length === 0) throw notFound();
}

function variablesOf(key: string, stored?: repo.StoredTemplate): string[] {
  if (isTemplateKey(key)) return [...TEMPLATE_VARIABLES[key]];
  const own = stored === undefined ? [] : variablesIn(stored.subject, stored.bodyHtml, stored.bodyText);
  return [...new Set([...COMMON_VARIABLES, ...own])];
}

function recordOf(key: string, locale: Locale, stored: repo.StoredTemplate | undefined): TemplateRecord {
  const content = stored ?? defaultTemplate(key as (typeof TEMPLATE_KEYS)[number], locale);
  return {
    key,
    locale,
    subject: content.subject,
    bodyHtml: content.bodyHtml,
    bodyText: content.bodyText,
    variables: variablesOf(key, stored),
    customized: stored !== undefined,
    updatedAt: stored?.updatedAt ?? null,
  };
}

/** The built-in keys (all, or `key`) in each locale, overridden or not, in list order. */
function builtInRecords(stored: repo.StoredTemplate[], keys: readonly string[], locales: readonly Locale[]) {
  const byId = new Map(stored.map((s) => [`${s.key}\u0000${s.locale}`, s]));
  return keys.flatMap((k) => locales.map((l) => recordOf(k, l, byId.get(`${k}\u0000${l}`))));
}

/** One key's templates: a built-in key in every locale, a custom one in those it was written in. */
async function allTemplates(db: Executor, tenantId: string, key: string): Promise<TemplateRecord[]> {
  const stored = await repo.listOverrides(db, tenantId, key);
  if (isTemplateKey(key)) return builtInRecords(stored, [key], LOCALES);
  return stored.map((s) => recordOf(s.key, s.locale as Locale, s));
}

/**
 * The built-in keys in each locale (6 × 4, overridden or not), then the institution's custom templates by key and
 * locale, whose number it decides. The built-in part is read through their few overrides; the custom part is a
 * page in SQL after it, and its total a counter of stored templates less the built-in overrides among them.
 */
export async function listTemplates(db: Executor, tenantId: string, query: ListTemplatesQueryType) {
  const window = pageWindow(query);
  const locales = query.locale === undefined ? LOCALES : [query.locale];
  const overrides = await repo.overridesOf(db, tenantId, TEMPLATE_KEYS, query.locale);
  const builtIn = builtInRecords(overrides, TEMPLATE_KEYS, locales).filter(
    (t) => query.customized === undefined || t.customized === query.customized,
  );
  const head = builtIn.slice(window.offset, window.offset + window.limit);
  const wanted = window.limit - head.length;
  // Custom templates are all customized: a list of defaults only has none.
  if (query.customized === false) return pageEnvelope(head, builtIn.length, window);
  const [custom, stored] = await Promise.all([
    wanted === 0
      ? []
      : repo.customTemplatesPage(db, tenantId, TEMPLATE_KEYS, query.locale, {
          limit: wanted,
          offset: Math.max(0, window.offset - builtIn.length),
        }),
    repo.countStoredTemplates(db, tenantId, query.locale),
  ]);
  const data = [...head, ...custom.map((s) => recordOf(s.key, s.locale as Locale, s))];
  return pageEnvelope(data, builtIn.length + stored - overrides.length, window);
}

export async function getTemplateSet(db: Executor, tenantId: string, key: string, locale?: Locale) {
  assertKnownShape(key);
  const locales = (await allTemplates(db, tenantId, key)).filter(
    (t) => locale === undefined || t.locale === locale,
  );
  if (locales.length === 0) throw notFound();
  const variables = [...new Set(locales.flatMap((t) => t.variables))];
  return { key, variables, locales };
}

/** Placeholders a built-in key is not rendered with: 400 naming each, and where it is. */
function assertKnownVariables(
  key: string,
  input: { subject: string; bodyHtml: string; bodyText: string },
): void {
  if (!isTemplateKey(key)) return;
  const allowed = TEMPLATE_VARIABLES[key];
  const details: DetailKey[] = [];
  for (const field of ["subject", "bodyHtml", "bodyText"] as const) {
    for (const name of variablesIn(input[field])) {
      if (!allowed.includes(name)) {
        details.push({
          field,
          key: "field.unknown_template_variable",
          params: { name, allowed: allowed.join(", ") },
        });
      }
    }
  }
  if (details.length > 0) throw new AppError("validation_failed", { details });
}

export async function putTemplate(
  db: Executor,
  tenantId: string,
  key: string,
  input: PutTemplateInput,
): Promise<TemplateRecord> {
  await assertExists(db, tenantId, key);
  assertKnownVariables(key, input);
  const content = {
    subject: input.subject,
    bodyHtml: await sanitizeEmailHtml(input.bodyHtml),
    bodyText: input.bodyText,
  };
  await repo.upsertOverride(db, tenantId, key, input.locale, content);
  return recordOf(key, input.locale, await repo.findOverride(db, tenantId, key, input.locale));
}

/**
 * Creates a `custom.<name>` template in one locale (more locales through PUT). A built-in key, or a custom key
 * the institution already has, is 409.
 */
export async function createCustomTemplate(
  db: Executor,
  tenantId: string,
  input: PutTemplateInput & { key: string },
): Promise<TemplateRecord> {
  if (!CUSTOM_KEY.test(input.key)) throw validationError("key", "field.custom_template_key");
  // Sanitised on a worker thread before the transaction: no lock waits for it.
  const bodyHtml = await sanitizeEmailHtml(input.bodyHtml);
  return db.transaction(async (tx) => {
    // Two creations of one key queue on the first one's row instead of both passing the check.
    await tx.execute(
      sql`SELECT pg_advisory_xact_lock(hashtext(${`email_templates:${tenantId}:${input.key}`}))`,
    );
    if ((await repo.listOverrides(tx, tenantId, input.key)).length > 0) throw new AppError("conflict");
    const content = { subject: input.subject, bodyHtml, bodyText: input.bodyText };
    await repo.upsertOverride(tx, tenantId, input.key, input.locale, content);
    return recordOf(input.key, input.locale, await repo.findOverride(tx, tenantId, input.key, input.locale));
  });
}

/** Reverts a built-in key to the default (always 204); deletes a custom key (404 when there is none). */
export async function deleteTemplate(
  db: Executor,
  tenantId: string,
  key: string,
  locale?: Locale,
): Promise<void> {
  assertKnownShape(key);
  const deleted = await repo.deleteOverrides(db, tenantId, key, locale);
  if (deleted === 0 && !isTemplateKey(key)) throw notFound();
}

/** Sample values so a preview shows every placeholder filled. */
function sampleVariables(names: readonly string[]): Record<string, string> {
  return Object.fromEntries(names.map((n) => [n, n.endsWith("Url") ? `https://example.com/${n}` : `[${n}]`]));
}

/** Renders a key (or a draft given in the body) with the given variables and samples for the rest. */
export async function previewTemplate(
  db: Executor,
  tenantId: string,
  key: string,
  input: PreviewInput,
  institutionName: string,
) {
  await assertExists(db, tenantId, key);
  const stored = (await allTemplates(db, tenantId, key)).find((t) => t.locale === input.locale);
  if (
    stored === undefined &&
    (input.subject === undefined || input.bodyHtml === undefined || input.bodyText === undefined)
  ) {
    throw notFound();
  }
  const draft = {
    subject: input.subject ?? (stored as TemplateRecord).subject,
    bodyHtml: await sanitizeEmailHtml(input.bodyHtml ?? (stored as TemplateRecord).bodyHtml),
    bodyText: input.bodyText ?? (stored as TemplateRecord).bodyText,
  };
  assertKnownVariables(key, draft);
  const names = variablesIn(draft.subject, draft.bodyHtml, draft.bodyText);
  const variables: Variables = { ...sampleVariables(names), institutionName, ...(input.variables ?? {}) };
  return render(draft, variables);
}
