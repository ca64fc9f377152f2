import type { Executor } from "../../db/client.js";
import { isUniqueViolation } from "../../db/errors.js";
import { AppError, notFound, validationError } from "../../platform/errors/app-error.js";
import { pageEnvelope, pageWindow } from "../../platform/pagination/pagination.js";
import { type Actor, eventActorOf } from "../events/actor.js";
import { emitEvent } from "../events/emit.js";
import { assertUsableMedia } from "../media/service.js";
import { sanitiseCss } from "./css.js";
import * as repo from "./repo.js";
import {
  type CompiledVariablesRecord,
  type CreateThemeInput,
  DEFAULT_VARIABLES,
  type ListThemesQueryType,
  type ThemeRecord,
  type UpdateThemeInput,
} from "./schemas.js";

const conflict = (messageKey: string) => new AppError("conflict", { messageKey });

/** The CSS as it will be stored: sanitised, or 400 naming `customCss` when it does not parse. */
function cleanCss(css: string | null | undefined): string | null | undefined {
  if (css === undefined || css === null) return css;
  const clean = sanitiseCss(css);
  if (clean === undefined) throw validationError("customCss", "field.css_unreadable");
  return clean.trim() === "" ? null : clean;
}

export async function listThemes(db: Executor, tenantId: string, query: ListThemesQueryType) {
  const window = pageWindow(query);
  const [data, total] = await Promise.all([
    repo.listThemes(db, tenantId, query.status, query.sort ?? "-createdAt", window),
    repo.countThemes(db, tenantId, query.status),
  ]);
  return pageEnvelope(data, total, window);
}

export async function getTheme(db: Executor, tenantId: string, id: string): Promise<ThemeRecord> {
  const theme = await repo.findTheme(db, tenantId, id);
  if (theme === undefined) throw notFound();
  return theme;
}

const MEDIA_FIELDS = ["logoMediaId", "faviconMediaId", "loginBackgroundMediaId"] as const;

/**
 * The logo, favicon and login background must be ready images of the institution, share-locked until the caller's
 * transaction ends. A file deleted later leaves the theme without it (a foreign key sets the id to null and bumps
 * the theme's version, migration 0023), so the compiled variables never name a file that is gone.
 */
async function assertImages(
  tx: Executor,
  tenantId: string,
  input: Partial<Record<(typeof MEDIA_FIELDS)[number], string | null>>,
): Promise<void> {
  for (const field of MEDIA_FIELDS) {
    const id = input[field];
    if (typeof id === "string") await assertUsableMedia(tx, tenantId, id, field, "image");
  }
}

/** A new theme is a `draft`. */
export async function createTheme(
  db: Executor,
  tenantId: string,
  input: CreateThemeInput,
): Promise<ThemeRecord> {
  const customCss = cleanCss(input.customCss) ?? null;
  return db.transaction(async (tx) => {
    await assertImages(tx, tenantId, input);
    return repo.insertTheme(tx, tenantId, {
      name: input.name,
      variables: input.variables ?? {},
      logoMediaId: input.logoMediaId ?? null,
      faviconMediaId: input.faviconMediaId ?? null,
      loginBackgroundMediaId: input.loginBackgroundMediaId ?? null,
      customCss,
    });
  });
}

/** Changes a theme (its version grows). The active theme cannot be archived or set back to draft: activate another. */
export async function updateTheme(
  db: Executor,
  tenantId: string,
  id: string,
  input: UpdateThemeInput,
): Promise<ThemeRecord> {
  const customCss = cleanCss(input.customCss);
  return db.transaction(async (tx) => {
    const current = await repo.findTheme(tx, tenantId, id, true);
    if (current === undefined) throw notFound();
    if (input.status !== undefined && current.status === "active") throw conflict("conflict.theme_active");
    await assertImages(tx, tenantId, input);
    return repo.updateTheme(tx, tenantId, id, {
      ...input,
      ...(customCss === undefined ? {} : { customCss }),
    });
  });
}

export async function deleteTheme(db: Executor, tenantId: string, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    const current = await repo.findTheme(tx, tenantId, id, true);
    if (current === undefined) throw notFound();
    if (current.status === "active") throw conflict("conflict.theme_active");
    await repo.deleteTheme(tx, tenantId, id);
  });
}

/**
 * Makes a theme the active one in one transaction: the previous active theme returns to `draft` first (the
 * partial unique index allows one active theme, so two concurrent activations cannot both win; the loser is 409),
 * then `theme_activated` is recorded. Activating the active theme changes nothing.
 */
export async function activateTheme(
  db: Executor,
  tenantId: string,
  actor: Actor,
  id: string,
): Promise<ThemeRecord> {
  return db
    .transaction(async (tx) => {
      const theme = await repo.findTheme(tx, tenantId, id, true);
      if (theme === undefined) throw notFound();
      if (theme.status === "active") return theme;
      const previous = await repo.findActive(tx, tenantId, true);
      if (previous !== undefined) await repo.updateTheme(tx, tenantId, previous.id, { status: "draft" });
      const active = await repo.updateTheme(tx, tenantId, id, { status: "active" });
      await emitEvent(tx, {
        tenantId,
        type: "theme_activated",
        data: {
          themeId: active.id,
          name: active.name,
          version: active.version,
          previousThemeId: previous?.id ?? null,
        },
        actor: eventActorOf(actor),
      });
      return active;
    })
    .catch((err: unknown) => {
      if (isUniqueViolation(err, "themes_one_active_key")) throw conflict("conflict.theme_activation_race");
      throw err;
    });
}

const CSS_NAMES: Record<keyof typeof DEFAULT_VARIABLES, string> = {
  primaryColor: "--aula-primary-color",
  secondaryColor: "--aula-secondary-color",
  backgroundColor: "--aula-background-color",
  textColor: "--aula-text-color",
  linkColor: "--aula-link-color",
  fontHeading: "--aula-font-heading",
  fontBody: "--aula-font-body",
  borderRadiusPx: "--aula-border-radius",
};

function cssValue(key: keyof typeof DEFAULT_VARIABLES, value: string | number): string {
  if (key === "borderRadiusPx") return `${value}px`;
  if (key === "fontHeading" || key === "fontBody")
    return value === "system-ui" ? "system-ui, sans-serif" : `"${value}", system-ui, sans-serif`;
  return String(value);
}

/**
 * The active theme compiled for clients: every variable (defaults filled in), the media ids, the CSS custom
 * properties by name (for clients that set them one by one, like the console, without repeating these names), and
 * one CSS text of those `:root` properties followed by the theme's sanitised CSS. With no active theme: the defaults, version 0.
 */
export async function compiledVariables(db: Executor, tenantId: string): Promise<CompiledVariablesRecord> {
  const theme = await repo.findActive(db, tenantId);
  const variables = { ...DEFAULT_VARIABLES, ...(theme?.variables ?? {}) };
  const properties = Object.fromEntries(
    (Object.keys(CSS_NAMES) as (keyof typeof DEFAULT_VARIABLES)[]).map((key) => [
      CSS_NAMES[key],
      cssValue(key, variables[key]),
    ]),
  );
  const root = Object.entries(properties)
    .map(([name, value]) => `${name}:${value};`)
    .join("");
  const custom = theme?.customCss ?? null;
  return {
    themeId: theme?.id ?? null,
    version: theme?.version ?? 0,
    variables,
    logoMediaId: theme?.logoMediaId ?? null,
    faviconMediaId: theme?.faviconMediaId ?? null,
    loginBackgroundMediaId: theme?.loginBackgroundMediaId ?? null,
    properties,
    css: custom === null ? `:root{${root}}` : `:root{${root}}\n${custom}`,
  };
}
