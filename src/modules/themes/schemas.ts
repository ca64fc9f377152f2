import { type Static, Type } from "typebox";
import { IsoDateTime, StringEnum, Uuid } from "../../platform/http/schemas.js";
import { PageOf, PageQuery } from "../../platform/pagination/pagination.js";

export const THEME_STATUSES = ["draft", "active", "archived"] as const;
/** Fonts a theme may name: widely hosted families and the system stack, so a theme cannot load arbitrary URLs. */
export const FONTS = [
  "system-ui",
  "Inter",
  "Roboto",
  "Open Sans",
  "Lato",
  "Montserrat",
  "Nunito",
  "Poppins",
  "Source Sans 3",
  "Merriweather",
  "Playfair Display",
] as const;
export const MAX_CSS_LENGTH = 50_000;

const Color = Type.String({ pattern: "^#[0-9A-Fa-f]{6}$", description: "`#RRGGBB`." });

export const Variables = Type.Object(
  {
    primaryColor: Type.Optional(Color),
    secondaryColor: Type.Optional(Color),
    backgroundColor: Type.Optional(Color),
    textColor: Type.Optional(Color),
    linkColor: Type.Optional(Color),
    fontHeading: Type.Optional(StringEnum(FONTS)),
    fontBody: Type.Optional(StringEnum(FONTS)),
    borderRadiusPx: Type.Optional(Type.Integer({ minimum: 0, maximum: 24 })),
  },
  {
    additionalProperties: false,
    description: "Brand variables; those left out take the platform's defaults.",
  },
);
export type VariablesInput = Static<typeof Variables>;

export const DEFAULT_VARIABLES = {
  primaryColor: "#1E5EFF",
  secondaryColor: "#0F172A",
  backgroundColor: "#FFFFFF",
  textColor: "#111827",
  linkColor: "#1E5EFF",
  fontHeading: "system-ui",
  fontBody: "system-ui",
  borderRadiusPx: 8,
} as const satisfies Required<VariablesInput>;

const MediaId = Type.Union([Uuid, Type.Null()], {
  description: "An image in the institution's media (not yet checked against the media library: see README).",
});
const Css = Type.Union([Type.String({ maxLength: MAX_CSS_LENGTH }), Type.Null()], {
  description:
    "Sanitised on write, on CSS tokens with escapes resolved: statements holding `@import`, `@charset` or " +
    "`@namespace`, `expression()`, `javascript:`, `behavior`/`-moz-binding`, or a URL other than https (in " +
    "`url()`, `src()`, or a string of `image-set()`, `image()`, `cross-fade()`) are removed, the rest is kept as " +
    "written. CSS that does not parse (an unclosed block, string or comment; nesting deeper than 32; an escaped " +
    "`url(` without quotes) is 400.",
});

const SAMPLE = {
  id: "4c1f2e3d-5a6b-4c7d-8e9f-0a1b2c3d4e5f",
  name: "Institucional 2026",
  status: "active",
  variables: { primaryColor: "#0B5FFF", fontHeading: "Montserrat", borderRadiusPx: 6 },
  logoMediaId: null,
  faviconMediaId: null,
  loginBackgroundMediaId: null,
  customCss: ".hero { letter-spacing: 0.02em }",
  version: 3,
  createdAt: "2026-02-01T10:00:00.000Z",
  updatedAt: "2026-02-03T09:00:00.000Z",
};

export const Theme = Type.Object(
  {
    id: Uuid,
    name: Type.String(),
    status: StringEnum(THEME_STATUSES, { description: "Exactly one theme is `active`; use `…/activate`." }),
    variables: Variables,
    logoMediaId: Type.Union([Uuid, Type.Null()]),
    faviconMediaId: Type.Union([Uuid, Type.Null()]),
    loginBackgroundMediaId: Type.Union([Uuid, Type.Null()]),
    customCss: Type.Union([Type.String(), Type.Null()]),
    version: Type.Integer({ minimum: 1, description: "Grows by one with every change." }),
    createdAt: IsoDateTime,
    updatedAt: IsoDateTime,
  },
  { additionalProperties: false, examples: [SAMPLE] },
);
export type ThemeRecord = Static<typeof Theme>;

export const CreateThemeBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 100 }),
    variables: Type.Optional(Variables),
    logoMediaId: Type.Optional(MediaId),
    faviconMediaId: Type.Optional(MediaId),
    loginBackgroundMediaId: Type.Optional(MediaId),
    customCss: Type.Optional(Css),
  },
  {
    additionalProperties: false,
    examples: [{ name: SAMPLE.name, variables: SAMPLE.variables, customCss: SAMPLE.customCss }],
  },
);
export type CreateThemeInput = Static<typeof CreateThemeBody>;

export const UpdateThemeBody = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    variables: Type.Optional(Variables),
    logoMediaId: Type.Optional(MediaId),
    faviconMediaId: Type.Optional(MediaId),
    loginBackgroundMediaId: Type.Optional(MediaId),
    customCss: Type.Optional(Css),
    status: Type.Optional(
      StringEnum(["draft", "archived"] as const, { description: "Activate through `POST …/activate`." }),
    ),
  },
  {
    additionalProperties: false,
    minProperties: 1,
    description: "`variables` replaces the whole set (keys left out return to their defaults).",
    examples: [{ variables: { primaryColor: "#0B5FFF" } }],
  },
);
export type UpdateThemeInput = Static<typeof UpdateThemeBody>;

export const THEME_SORTS = ["createdAt", "-createdAt", "name", "-name"] as const;
export type ThemeSort = (typeof THEME_SORTS)[number];

export const ListThemesQuery = Type.Object(
  {
    ...PageQuery,
    status: Type.Optional(StringEnum(THEME_STATUSES)),
    sort: Type.Optional(
      StringEnum(THEME_SORTS, { default: "-createdAt", description: "`-` sorts descending. Newest first." }),
    ),
  },
  { additionalProperties: false },
);
export type ListThemesQueryType = Static<typeof ListThemesQuery>;
export const ThemePage = PageOf(Theme);

export const CompiledVariables = Type.Object(
  {
    themeId: Type.Union([Uuid, Type.Null()], { description: "null when no theme is active (the defaults)." }),
    version: Type.Integer({ minimum: 0 }),
    variables: Type.Object(
      {
        primaryColor: Type.String(),
        secondaryColor: Type.String(),
        backgroundColor: Type.String(),
        textColor: Type.String(),
        linkColor: Type.String(),
        fontHeading: Type.String(),
        fontBody: Type.String(),
        borderRadiusPx: Type.Integer(),
      },
      { additionalProperties: false },
    ),
    logoMediaId: Type.Union([Uuid, Type.Null()]),
    faviconMediaId: Type.Union([Uuid, Type.Null()]),
    loginBackgroundMediaId: Type.Union([Uuid, Type.Null()]),
    properties: Type.Record(Type.String({ pattern: "^--aula-[a-z-]+$" }), Type.String(), {
      description:
        "Each variable as the CSS custom property `css` sets on `:root`, name to value (`--aula-primary-color`, " +
        "`--aula-border-radius: 8px`, fonts with their fallback stack): for clients that set them one by one.",
    }),
    css: Type.String({
      description: "`:root` custom properties of the variables, then the theme's sanitised CSS.",
    }),
  },
  {
    additionalProperties: false,
    examples: [
      {
        themeId: SAMPLE.id,
        version: 3,
        variables: { ...DEFAULT_VARIABLES, ...SAMPLE.variables },
        logoMediaId: null,
        faviconMediaId: null,
        loginBackgroundMediaId: null,
        properties: {
          "--aula-primary-color": "#0B5FFF",
          "--aula-font-heading": '"Montserrat", system-ui, sans-serif',
        },
        css: ":root{--aula-primary-color:#0B5FFF;}\n.hero { letter-spacing: 0.02em }",
      },
    ],
  },
);
export type CompiledVariablesRecord = Static<typeof CompiledVariables>;
